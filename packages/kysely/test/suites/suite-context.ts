import type { Storage } from "@hireport/core";
import type { CompiledQuery } from "kysely";
import type { AnyDb, TestDialect } from "../helpers/databases";

/**
 * What the test files of one dialect share. `database`, `storage`, `racers` and `extra` are set by
 * the suite's `beforeAll`, which runs before the `beforeAll` of every test file it registers.
 */
export interface SuiteContext {
  readonly dialect: TestDialect;
  /** The table prefix of the suite's own tables (migrated in `beforeAll`). */
  readonly prefix: string;
  readonly sqliteFile: string;
  /** Every query the main instance ran, oldest first. */
  readonly queries: CompiledQuery[];
  /** The main Kysely instance, whose queries are logged. */
  database: AnyDb;
  /** The storage on `database` under `prefix`. */
  storage: Storage;
  /** Storages on their own Kysely instances (own pools) for the races; SQLite shares one connection. */
  racers: Storage[];
  /** The Kysely instances of `racers` (none on SQLite). */
  extra: AnyDb[];
  /** The prefixed name of a table. */
  t(name: string): string;
  /** The queries `fn` ran on the main instance. */
  countQueries(fn: () => Promise<unknown>): Promise<CompiledQuery[]>;
}
