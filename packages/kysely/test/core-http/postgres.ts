/** Core's HTTP suite on postgres: the `core-http:postgres` project resolves core's `test/http/storage.ts` here. */
import { kyselyTestStorage } from "./storage";

export const { openTestStorage, createTestStorage, closeTestStorage, testFileStores } = kyselyTestStorage("postgres");
