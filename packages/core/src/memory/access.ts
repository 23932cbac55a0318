import type { MemoryState } from "./state";

/**
 * How a store reaches the state. Each operation is one synchronous function of the state, so it
 * can never be interleaved with another one: there is no await between a check and its write.
 */
export interface StateAccess {
  /** Runs a read-only operation. */
  read<T>(op: (state: MemoryState) => T): Promise<T>;
  /** Runs an operation that may write; it applies entirely or, when it throws, not at all. */
  write<T>(op: (state: MemoryState) => T): Promise<T>;
  /**
   * Runs `fn` with an access whose operations apply all or nothing, and one at a time with every
   * other write: this one when it is a transaction's, else a new transaction's, as
   * `storage.transaction` opens it. For a write made of several operations (`candidates.erase`).
   */
  atomic<T>(fn: (access: StateAccess) => Promise<T>): Promise<T>;
}
