/**
 * `declaredDomain`: the domain stores (jobs, applications, candidates) of `kyselyStorage` built from a
 * declaration of the product's own tables, in place of hand-written ones.
 */
import type { DomainStores } from "@hireport/core/storage";
import type { DialectKind } from "../dialects/types";
import type { DomainFactory, DomainScope } from "../domain-scope";
import { declaredApplicationStore } from "./application-store";
import { declaredCandidateStore } from "./candidate-store";
import { declaredChangeStore } from "./change-store";
import type { AnyDomainDeclaration, DomainDeclaration, UntypedTables } from "./declaration";
import { declaredJobStore } from "./job-store";
import { type DomainPlan, domainPlan } from "./plan";

/** What `declaredDomain` returns: `kyselyStorage`'s `domain`, with the declaration it was made from. */
export type DeclaredDomain<DB> = DomainFactory<DB> & {
  /** The declaration, as given (the conformance inspector of `@hireport/kysely/testing` reads it). */
  readonly declaration: DomainDeclaration<DB>;
};

/**
 * The domain stores of `kyselyStorage({ db, domain })` over a product's own tables, built from a
 * declaration of them: their names, how ids and the company are stored, the product's words for
 * job statuses and application stages, where the candidate's details live (a person table, shared
 * by applications or not, or the application row), whether the applications count is stored or
 * counted, the fields without a column (kept in a JSON `extras` column), and where the stage
 * history and notes are (the product's tables or hireport's). Every rule of the storage contract
 * (the duplicate rule and its locks, erasure, retention) is kept by the stores it builds;
 * `runDomainConformance` of `@hireport/core/testing` checks them on the product's database.
 *
 * Give the product's Kysely table types (`declaredDomain<ProductDatabase>({…})`) and every table and
 * column name is checked by the compiler; without them, names are plain strings. A mistake it cannot see (a field with no column and no
 * `extras`, a word map missing a stage) throws a `DeclarationError` at the first use, naming it.
 *
 * ```ts
 * const domain = declaredDomain<ProductDatabase>({
 *   jobs: { table: "openings", company: "orgId", status: { column: "state", words: { open: "active", … } },
 *     applicationsCount: "applicantCount", columns: { title: "headline", … }, extras: "details" },
 *   applications: { table: "candidacies", company: "orgId", job: "openingId", stage: "pipelineStage", … },
 *   stageChanges: "hireport",
 *   notes: "hireport",
 * });
 * const storage = kyselyStorage({ db, domain });
 * ```
 */
export function declaredDomain<DB = UntypedTables>(declaration: DomainDeclaration<DB>): DeclaredDomain<DB> {
  const plans = new Map<DialectKind, DomainPlan>();
  // Checked at once for the names and words (errors before any request), planned per dialect on use.
  const planFor = (dialect: DialectKind): DomainPlan => {
    let plan = plans.get(dialect);
    if (!plan) {
      plan = domainPlan(declaration as unknown as AnyDomainDeclaration, dialect);
      plans.set(dialect, plan);
    }
    return plan;
  };
  planFor("sqlite");
  const factory = (scope: DomainScope<DB>): DomainStores => {
    const plan = planFor(scope.dialect);
    const any = scope as unknown as DomainScope<unknown>;
    return {
      jobs: declaredJobStore(any, plan),
      applications: declaredApplicationStore(any, plan),
      candidates: declaredCandidateStore(any, plan),
      changes: declaredChangeStore(any, plan),
    };
  };
  return Object.assign(factory, { declaration });
}
