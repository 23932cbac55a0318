import type { Storage, StorageStores } from "../storage";
import type { StateAccess } from "./access";
import { createApplicationStore } from "./application-store";
import { createAuditStore } from "./audit-store";
import { createCandidateStore } from "./candidate-store";
import { createCompanyStore } from "./company-store";
import { createEventDeliveryStore } from "./event-delivery-store";
import { createEventStore } from "./event-store";
import { createIdempotencyStore } from "./idempotency-store";
import { createJobIndexStore } from "./job-index-store";
import { createJobStore } from "./job-store";
import { createKeyStore } from "./key-store";
import { Mutex } from "./mutex";
import { createRateLimitStore } from "./rate-limit-store";
import { createRawReads, type MemoryRawReads } from "./raw-reads";
import { MemoryState } from "./state";
import { createUsageStore } from "./usage-store";

/** A {@link Storage} that keeps everything in memory, with raw reads for tests. */
export interface MemoryStorage extends Storage {
  /** Raw reads of the committed state, and the conformance suite's clean-up (its `inspect` slot). */
  readonly raw: MemoryRawReads;
}

function createStores(access: StateAccess): StorageStores {
  return {
    companies: createCompanyStore(access),
    keys: createKeyStore(access),
    jobs: createJobStore(access),
    applications: createApplicationStore(access),
    events: createEventStore(access),
    rateLimits: createRateLimitStore(access),
    usage: createUsageStore(access),
    idempotency: createIdempotencyStore(access),
    eventDeliveries: createEventDeliveryStore(access),
    audit: createAuditStore(access),
    candidates: createCandidateStore(access),
    jobIndex: createJobIndexStore(access),
  };
}

/**
 * The whole storage contract in memory, for tests and demos: every MUST rule of `storage.ts`
 * holds, and `runStorageConformance` from `@hireport/core/testing` checks it.
 *
 * - Writes, and transactions, run one at a time (a FIFO mutex). A transaction works on a
 *   copy-on-write version of the data that replaces the committed one when `fn` resolves and is
 *   thrown away when it rejects; a write outside a transaction waits for a running transaction.
 * - Reads outside a transaction see the last committed data at once (read committed), so a read
 *   never waits for a transaction.
 * - Records are deep-copied on the way in and out, `Date` values included.
 * - Calling the stores of `tx` after the transaction ended throws. Writing through the storage
 *   itself (not `tx`) from inside a transaction's `fn` waits for the transaction, which waits
 *   for `fn`: it never settles, as with a single-connection database.
 *
 * Each call returns a new, empty storage; nothing is shared between storages. For webhooks
 * (endpoints, the dispatcher), use `memoryWebhookStorage()` of `@hireport/webhooks/memory`: the
 * same storage with the webhook store added.
 */
export function memoryStorage(): MemoryStorage {
  return extendMemoryStorage(() => ({}));
}

/** A {@link MemoryStorage} with the stores `X` added, outside and inside its transactions. */
export type ExtendedMemoryStorage<X extends object> = Omit<MemoryStorage, "transaction"> &
  X & {
    transaction<T>(fn: (tx: StorageStores & X) => Promise<T>): Promise<T>;
  };

/**
 * {@link memoryStorage} with more stores over the same data: `extra` makes them on a
 * {@link StateAccess} (the committed data, or a transaction's working copy), so they read and
 * write with the core stores and commit or roll back with them. For packages that add a store to
 * the memory storage, as `@hireport/webhooks/memory` adds the webhook store.
 */
export function extendMemoryStorage<X extends object>(extra: (access: StateAccess) => X): ExtendedMemoryStorage<X> {
  let committed = MemoryState.empty();
  const mutex = new Mutex();

  /** A transaction: `fn` works on a copy of the committed data that replaces it when `fn` resolves. */
  const transaction = <T>(fn: (access: StateAccess) => Promise<T>): Promise<T> =>
    mutex.run(async () => {
      let working = committed.fork();
      let open = true;
      const run = <R>(op: (state: MemoryState) => R, write: boolean): Promise<R> => {
        if (!open) return Promise.reject(new Error("This transaction has already ended; use the storage instead."));
        try {
          if (!write) return Promise.resolve(op(working));
          // Like one statement: a write that throws leaves the transaction as it was.
          const next = working.fork();
          const result = op(next);
          working = next;
          return Promise.resolve(result);
        } catch (error) {
          return Promise.reject(error);
        }
      };
      const txAccess: StateAccess = {
        read: (op) => run(op, false),
        write: (op) => run(op, true),
        atomic: (inner) => inner(txAccess),
      };
      try {
        const result = await fn(txAccess);
        committed = working;
        return result;
      } finally {
        open = false;
      }
    });

  const access: StateAccess = {
    read: async (op) => op(committed),
    write: (op) =>
      mutex.run(() => {
        const next = committed.fork();
        const result = op(next);
        committed = next;
        return result;
      }),
    atomic: transaction,
  };
  const storesOn = (on: StateAccess): StorageStores & X => ({ ...createStores(on), ...extra(on) });

  return {
    ...storesOn(access),
    raw: createRawReads(
      () => committed,
      (op) => access.write(op),
    ),
    transaction: <T>(fn: (tx: StorageStores & X) => Promise<T>): Promise<T> =>
      transaction((txAccess) => fn(storesOn(txAccess))),
  };
}
