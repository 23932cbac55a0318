import { sql } from "kysely";
import type { StoreContext } from "./context";

const MYSQL_RETRY_CODES = new Set(["ER_LOCK_DEADLOCK", "ER_LOCK_WAIT_TIMEOUT"]);
const SQLITE_BUSY = /^SQLITE_BUSY/;

/** Whether an error is a deadlock or lock timeout the database asks the client to retry. */
export function isRetryableLockError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return MYSQL_RETRY_CODES.has(code) || code === "40P01" || code === "40001" || SQLITE_BUSY.test(code);
}

/**
 * Opens a transaction on the context's database (READ COMMITTED on Postgres and MySQL/MariaDB).
 * SQLite begins it `immediate`, taking the write lock at once, so that a transaction that reads
 * before it writes never fails on upgrade when another connection (another process) wrote in
 * between; the busy timeout of the connection then queues writers instead.
 */
export async function runTransaction<T>(ctx: StoreContext, fn: (ctx: StoreContext) => Promise<T>): Promise<T> {
  if (ctx.dialect === "sqlite") {
    return ctx.db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      let result: T;
      try {
        result = await fn(ctx.withDb(connection, true));
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => undefined);
        throw error;
      }
      await sql`commit`.execute(connection);
      return result;
    });
  }
  // MySQL/MariaDB default to REPEATABLE READ, whose snapshot reads and gap locks make the
  // check-then-write steps of the stores either stale or deadlock-prone; READ COMMITTED gives the
  // same semantics as Postgres' default.
  const builder = ctx.db.transaction();
  return (ctx.dialect === "mysql" ? builder.setIsolationLevel("read committed") : builder).execute((trx) =>
    fn(ctx.withDb(trx, true)),
  );
}

/**
 * Runs a self-contained unit of work (one that opens its own transaction), again when MySQL or
 * Postgres report a deadlock. Never used around a caller's transaction.
 */
export async function withLockRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !isRetryableLockError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}
