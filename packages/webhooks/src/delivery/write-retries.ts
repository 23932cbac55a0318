import pRetry from "p-retry";

/**
 * Retries a storage write that failed for a passing reason (a deadlock, a dropped connection), so
 * that an attempt that went out is also recorded. Bounded: 3 retries, 50 to 400 ms apart (under a
 * second in all), well inside the lease. p-retry is ESM-only: the CommonJS build `require()`s it,
 * which every Node of `engines` supports.
 */
export function withWriteRetries<T>(write: () => Promise<T>): Promise<T> {
  return pRetry(write, { retries: 3, minTimeout: 50, maxTimeout: 800, randomize: true });
}
