/** Core's HTTP suite on sqlite: the `core-http:sqlite` project resolves core's `test/http/storage.ts` here. */
import { kyselyTestStorage } from "./storage";

export const { openTestStorage, createTestStorage, closeTestStorage, testFileStores } = kyselyTestStorage("sqlite");
