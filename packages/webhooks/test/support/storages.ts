import { memoryWebhookStorage } from "../../src/memory/index";
import type { WebhookStorage } from "../../src/store/webhook-storage";

/** A storage under test and how to dispose of it. */
export interface StorageHandle {
  storage: WebhookStorage;
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
  create: async () => ({ storage: memoryWebhookStorage(), close: async () => {} }),
};

const STORAGE_NAMES = ["memory", "sqlite", "postgres", "mysql"] as const;

/**
 * The storages chosen by `HIREPORT_WEBHOOKS_STORAGES`, a comma-separated list of `memory`,
 * `sqlite`, `postgres` and `mysql` (for example `memory` for a quick run); every storage when it is
 * unset or empty. An unknown name fails the run rather than silently running fewer storages.
 */
function chosenStorages(): ReadonlySet<string> {
  const value = process.env.HIREPORT_WEBHOOKS_STORAGES?.trim();
  if (!value) return new Set(STORAGE_NAMES);
  const names = value.split(",").map((name) => name.trim().toLowerCase());
  for (const name of names) {
    if (!(STORAGE_NAMES as readonly string[]).includes(name)) {
      throw new Error(
        `HIREPORT_WEBHOOKS_STORAGES: unknown storage ${JSON.stringify(name)} (${STORAGE_NAMES.join(", ")})`,
      );
    }
  }
  return new Set(names);
}

const chosen = chosenStorages();

// `@hireport/kysely` (and the database drivers) load only when a SQL storage is chosen.
const sql = [...chosen].some((name) => name !== "memory") ? await import("./kysely-factories") : null;

/**
 * The storages the delivery suite runs on: memory, then SQLite, Postgres and MySQL/MariaDB, or the
 * ones `HIREPORT_WEBHOOKS_STORAGES` names.
 */
export function storageFactories(): StorageFactory[] {
  return [memoryFactory, ...(sql?.sqlFactories() ?? [])].filter((factory) => chosen.has(factory.name));
}
