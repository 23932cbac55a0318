import { memoryFileStore } from "../src/memory";
import { runFileStoreConformance } from "../src/testing";

runFileStoreConformance({
  name: "memory",
  async setup() {
    const fileStore = memoryFileStore();
    return {
      fileStore,
      // The memory store keeps a file only once its whole body was read, in the one map that its
      // list reads too: what it holds of a company is what that list shows (no unfinished pieces).
      async countStored(companyId) {
        const files = await fileStore.listCreatedBefore({ createdBefore: new Date(8.64e15), limit: 1_000_000 });
        return files.filter((info) => info.companyId === companyId).length;
      },
      teardown: async () => {},
    };
  },
});
