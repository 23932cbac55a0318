/**
 * hireport's domain stores (jobs, applications, candidates) over the host's own tables, in the
 * host's own Kysely code: `kyselyStorage({ db, domain: hostDomainStores })`. hireport calls the
 * factory with a scope per database handle (the storage's Kysely instance, each transaction), and
 * the scope gives what the contract needs from hireport's side: the outbox (`appendEvent`) and the
 * erasure's redaction of hireport's tables (`redactErasure`).
 */
import type { DomainStores } from "@hireport/core/storage";
import { createApplicationStore } from "./application-store";
import { createCandidateStore } from "./candidate-store";
import { createJobStore } from "./job-store";
import type { Scope } from "./rows";

/** The factory of the `domain` option of `kyselyStorage`. */
export function hostDomainStores(scope: Scope): DomainStores {
  return {
    jobs: createJobStore(scope),
    applications: createApplicationStore(scope),
    candidates: createCandidateStore(scope),
  };
}
