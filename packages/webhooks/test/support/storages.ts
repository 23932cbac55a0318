import type { Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { sqlFactories } from "./kysely-factories";

/** A storage under test and how to dispose of it. */
export interface StorageHandle {
  storage: Storage;
  close(): Promise<void>;
}

/**
 * Makes a fresh, empty storage for one test. Swap in any implementation of the contract: the
 * delivery suite only sees this interface.
 */
export interface StorageFactory {
  name: string;
  create(): Promise<StorageHandle>;
  /** False when the backing server is unreachable (outside CI): the suite skips it. @default true */
  available?(): Promise<boolean>;
  /** Releases what the factory holds (tables, pools), after the suite. */
  dispose?(): Promise<void>;
}

export const memoryFactory: StorageFactory = {
  name: "memory",
  create: async () => ({ storage: memoryStorage(), close: async () => {} }),
};

/** The storages the delivery suite runs on: memory, then SQLite, Postgres and MySQL/MariaDB. */
export function storageFactories(): StorageFactory[] {
  return [memoryFactory, ...sqlFactories()];
}
