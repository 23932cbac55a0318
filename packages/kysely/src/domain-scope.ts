/**
 * The `domain` option of `kyselyStorage`: the host's own stores for jobs, applications and
 * candidates, and what they get from hireport to keep the contract's rules on its tables.
 */
import type { DomainStores, ErasureRedactionInput, EventRecord } from "@hireport/core/storage";
import type { Kysely, SelectQueryBuilder } from "kysely";
import type { StoreContext } from "./context";
import type { DialectKind } from "./dialects/types";
import { type ErasureRedactions, redactErasedApplications } from "./stores/erasure-redactions";

/** What erasing applications changes in hireport's tables (core's `ErasureRedactionInput`); see {@link DomainScope.redactErasure}. */
export type DomainErasure = ErasureRedactionInput;

/**
 * What the host's domain stores get from the storage: the database handle to run their own
 * statements on (the storage's Kysely instance, or the transaction of `storage.transaction`) and
 * the writes of hireport's tables their methods must make on that same transaction.
 */
export interface DomainScope<DB> {
  /** The storage's Kysely instance, or the transaction this scope belongs to. */
  readonly db: Kysely<DB>;
  /**
   * Where the reads that may lag run: the storage's `readDb` outside a transaction, else `db`
   * itself. `jobs.list` and `applications.list` read on it, and so do `jobs.get` and
   * `applications.get` when their options say `replica` (and no `lock`), reading a miss again on
   * `db`. Everything else runs on `db`.
   */
  readonly readDb: Kysely<DB>;
  /** The storage's SQL dialect. */
  readonly dialect: DialectKind;
  /** Whether `db` is a transaction (the storage's or one the storage was made on). */
  readonly inTransaction: boolean;
  /**
   * Runs `fn` in one transaction, with a scope bound to it: this scope's when it is already in one,
   * else a new one opened as hireport opens its own (READ COMMITTED on Postgres and MySQL/MariaDB,
   * `BEGIN IMMEDIATE` on SQLite) and run again when the database reports a deadlock. The write
   * methods that must be all or nothing (`applications.create`, `candidates.erase`) run in it.
   */
  atomic<T>(fn: (scope: DomainScope<DB>) => Promise<T>): Promise<T>;
  /**
   * The query with `FOR UPDATE` (of the table or alias `of` on Postgres): rows read stay locked
   * until the transaction ends. Unchanged on SQLite, whose `BEGIN IMMEDIATE` transaction holds the
   * database's one write lock.
   */
  forUpdate<QDB, TB extends keyof QDB, O>(
    query: SelectQueryBuilder<QDB, TB, O>,
    of?: TB & string,
  ): SelectQueryBuilder<QDB, TB, O>;
  /**
   * A read that sees the latest committed rows even in a caller's `REPEATABLE READ` transaction (a
   * locking read on MySQL/MariaDB; unchanged elsewhere): the duplicate check of
   * `applications.create` after the job's lock.
   */
  currentRead<QDB, TB extends keyof QDB, O>(query: SelectQueryBuilder<QDB, TB, O>): SelectQueryBuilder<QDB, TB, O>;
  /**
   * Appends an event to hireport's outbox with its fan-out, as `events.append` does: the `event`
   * of `applications.create`'s write. Call it inside {@link atomic} so that it commits with the
   * change it reports.
   */
  appendEvent(event: EventRecord): Promise<void>;
  /**
   * The part of `candidates.erase` on hireport's tables, called inside {@link atomic} after the
   * application rows are locked and erased: each event whose subject is one of the applications is
   * redacted (`redactApplications`), the deliveries of those events are locked and the answers of
   * their attempts emptied, and the stored `Idempotency-Key` answers of the company's keys that
   * name one of them are redacted. Returns what it counted for `CandidateErasureResult`. It is
   * the `redactErasure` step of core's `eraseInSteps`, which builds the whole `candidates.erase`.
   */
  redactErasure(erasure: DomainErasure): Promise<ErasureRedactions>;
}

/**
 * The host's domain stores on a scope. Called once with the scope of the storage's Kysely
 * instance, and again with the scope of each transaction of the storage (`storage.transaction`,
 * where core writes a change and its outbox event together) and of the stores that must know
 * whether an application is erased: keep it cheap, building objects only.
 */
export type DomainFactory<DB> = (scope: DomainScope<DB>) => DomainStores;

/**
 * The storage's own context behind a scope: what `declaredDomain` uses to keep the stage history and
 * notes in hireport's tables. Not part of the public `DomainScope`.
 */
export const SCOPE_CONTEXT: unique symbol = Symbol("hireport.domainScopeContext");

/** The context a scope was made on (see {@link SCOPE_CONTEXT}). */
export function contextOfScope(scope: DomainScope<unknown>): StoreContext {
  const ctx = (scope as { [SCOPE_CONTEXT]?: StoreContext })[SCOPE_CONTEXT];
  if (!ctx) throw new Error("@hireport/kysely: this DomainScope was not made by kyselyStorage.");
  return ctx;
}

/** The scope of a context: its handle, and `reads` for the list reads (the `readDb`'s context, or `ctx`). */
export function domainScope<DB>(ctx: StoreContext, reads: StoreContext = ctx): DomainScope<DB> {
  const scope: DomainScope<DB> & { [SCOPE_CONTEXT]: StoreContext } = {
    [SCOPE_CONTEXT]: ctx,
    db: ctx.hostDb as unknown as Kysely<DB>,
    readDb: reads.hostDb as unknown as Kysely<DB>,
    dialect: ctx.strategy.kind,
    inTransaction: ctx.inTransaction,
    atomic: (fn) => (ctx.inTransaction ? fn(scope) : ctx.atomic((tx) => fn(domainScope<DB>(tx)))),
    forUpdate: (query, of) => ctx.strategy.forUpdate(query, of),
    currentRead: (query) => ctx.strategy.currentRead(query),
    appendEvent: (event) => ctx.strategy.appendEvent(ctx, event),
    redactErasure: ({ companyId, applicationIds, erasedAt }) =>
      ctx.atomic((tx) => redactErasedApplications(tx, companyId, [...new Set(applicationIds)].sort(), erasedAt)),
  };
  return scope;
}
