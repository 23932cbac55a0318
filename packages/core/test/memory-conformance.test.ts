import { memoryStorage } from "../src/memory";
import { runStorageConformance } from "../src/testing";

runStorageConformance({
  name: "memory",
  async setup() {
    const storage = memoryStorage();
    return { storage, inspect: storage.raw, teardown: async () => {} };
  },
});
