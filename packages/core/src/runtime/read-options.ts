import type { GetOptions } from "../storage";

/** How a read by id may be answered. */
export interface ReadOptions {
  /**
   * Accept a copy as old as a read replica's lag, when the storage has a replica (the Kysely
   * storage's `readDb`). A record the replica does not have yet is still read on the primary, so a
   * record just created is never reported missing; a record just changed may show its state before
   * the change for as long as the replica lags.
   * @default false
   */
  replica?: boolean;
}

/** The storage option of a read that may be answered by a replica. */
export const REPLICA: Readonly<GetOptions> = Object.freeze({ replica: true });
