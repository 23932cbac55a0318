import { memoryFileStore } from "../src/memory";
import { runFileStoreConformance } from "../src/testing";

runFileStoreConformance({
  name: "memory",
  async setup() {
    return { fileStore: memoryFileStore(), teardown: async () => {} };
  },
});
