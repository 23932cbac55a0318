import type { ApplicationStore } from "./applications";
import type { CandidateStore } from "./candidates";
import type { ChangeStore } from "./changes";
import type { JobStore } from "./jobs";

/**
 * The domain stores: the part of the storage contract a host may back with its own tables (its
 * jobs, applications and candidates), while hireport keeps its infrastructure stores (companies,
 * keys, rate limits, usage, idempotency, the events outbox, audit, files, webhooks).
 *
 * Each store keeps every MUST rule of its interface; two of them reach hireport's tables and need
 * the storage's help inside the same transaction: `applications.create` appends its `event` to the
 * outbox (`createApplicationInSteps` of `@hireport/core` builds the whole write from small steps),
 * and `candidates.erase` redacts the erased applications' events, delivery attempts and stored
 * `Idempotency-Key` answers (`eraseInSteps` of `@hireport/core` builds the whole erasure from a
 * locked read and two writes of the domain's tables, for batches of applications, and that redaction).
 * `kyselyStorage({ domain })` of `@hireport/kysely` hands both writes of hireport's tables to the
 * host's factory; the conformance suite `runDomainConformance` of `@hireport/core/testing` checks
 * the result.
 */
export interface DomainStores {
  jobs: JobStore;
  applications: ApplicationStore;
  candidates: CandidateStore;
  /**
   * What the change detector reads, when the domain can tell the changes made outside hireport
   * (`declaredDomain` of `@hireport/kysely` can). @default none
   */
  changes?: ChangeStore;
}
