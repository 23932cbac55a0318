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
 * Runs `fn` in a new transaction of the context's database, as the dialect's strategy opens it
 * (`DialectStrategy.beginTransaction`: READ COMMITTED on Postgres and MySQL/MariaDB, `BEGIN
 * IMMEDIATE` on SQLite), with a context bound to it.
 */
export function runTransaction<T>(ctx: StoreContext, fn: (ctx: StoreContext) => Promise<T>): Promise<T> {
  return ctx.strategy.beginTransaction(ctx.hostDb, (trx) => fn(ctx.withDb(trx, true)));
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
