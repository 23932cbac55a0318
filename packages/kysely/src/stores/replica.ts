import type { GetOptions } from "@hireport/core/storage";
import type { StoreContext } from "../context";

/**
 * Whether a read by id is tried on the replica first: the caller accepts a replica's copy, takes no
 * lock, and the store has a replica (`reads` is `ctx` itself without `readDb` and in a transaction).
 */
export function onReplica(ctx: StoreContext, reads: StoreContext, options: GetOptions | undefined): boolean {
  return reads !== ctx && options?.replica === true && options.lock !== true;
}
