import { memoryWebhookStorage } from "../src/memory/index";
import { runWebhookStoreConformance } from "../src/testing/index";

runWebhookStoreConformance({
  name: "memory",
  async setup() {
    const storage = memoryWebhookStorage();
    return { storage, inspect: storage.raw, teardown: async () => undefined };
  },
});
