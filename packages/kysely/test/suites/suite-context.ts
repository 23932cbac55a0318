import type { WebhookStorage } from "@hireport/webhooks";
import type { CompiledQuery } from "kysely";
import type { AnyDb, TestDialect } from "../helpers/databases";

/**
 * What the test files of one dialect share. `database` and `storage` are there from the start
 * (making a storage touches no table), and the suite's `beforeAll` migrates the tables before any
 * test runs; it also fills `racers` and `extra`.
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
  storage: WebhookStorage;
  /** Storages on their own Kysely instances (own pools) for the races; SQLite shares one connection. */
  racers: WebhookStorage[];
  /** The Kysely instances of `racers` (none on SQLite). */
  extra: AnyDb[];
  /** The racer of the `i`-th of several concurrent calls: `racers` in turn. */
  racer(i: number): WebhookStorage;
  /** The prefixed name of a table. */
  t(name: string): string;
  /** The queries `fn` ran on the main instance. */
  countQueries(fn: () => Promise<unknown>): Promise<CompiledQuery[]>;
}
