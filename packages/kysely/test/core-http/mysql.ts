/** Core's HTTP suite on mysql: the `core-http:mysql` project resolves core's `test/http/storage.ts` here. */
import { kyselyTestStorage } from "./storage";

export const { openTestStorage, createTestStorage, closeTestStorage, testFileStores } = kyselyTestStorage("mysql");
