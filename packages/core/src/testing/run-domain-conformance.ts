import { describe } from "vitest";
import type { ConformanceTarget } from "../storage/conformance";
import { ConformanceContext, conformanceHooks } from "./context";
import { applicationCreateTests } from "./suites/application-create";
import { applicationTests } from "./suites/applications";
import { candidateTests } from "./suites/candidates";
import { jobTests } from "./suites/jobs";
import { publicJobTests } from "./suites/public-jobs";
import { retentionTests } from "./suites/retention";
import { roundTripTests } from "./suites/round-trips";
import { transactionTests } from "./suites/transactions";

/**
 * Registers the conformance suites of the domain stores (`jobs`, `applications`, `candidates`;
 * see `DomainStores`) and of what they share with the storage's own stores: round trips, the
 * transaction (a job, an application and their events commit or roll back together), erasure with
 * its redaction of events, attempts and stored answers, retention. For a storage whose domain
 * stores are the host's own tables (`kyselyStorage({ domain })` of `@hireport/kysely`) while
 * hireport's stores are already proven by `runStorageConformance`. Call it at the top level of a
 * test file, as `runStorageConformance`:
 *
 * ```ts
 * runDomainConformance({
 *   name: "our tables on Postgres",
 *   async setup() {
 *     const db = createDb();
 *     await migrateOurTables(db);
 *     await migrateToLatest(db);
 *     return { storage: kyselyStorage({ db, domain: ourStores }), inspect: ourRawReads(db), teardown: () => db.destroy() };
 *   },
 * });
 * ```
 *
 * The raw reads of `inspect` count the host's rows (an application, a note, a job's stored count)
 * and hireport's (events, keys, usage…), and `findText` scans the host's tables as well as
 * hireport's, so the erasure checks see a candidate's data wherever it is stored; its
 * `removeRows` deletes the suite's companies' rows from the host's tables as well as hireport's
 * after the last test. As with `runStorageConformance`, a database holding other data works and
 * is left as it was (see `ConformanceTarget.setup` for the rows dated before 2000 the purges touch).
 */
export function runDomainConformance(target: ConformanceTarget): void {
  describe(`domain conformance: ${target.name}`, () => {
    const ctx = new ConformanceContext();
    conformanceHooks(ctx, async () => {
      ctx.attach(await target.setup(), target.name);
    });

    roundTripTests(ctx);
    jobTests(ctx);
    publicJobTests(ctx);
    applicationCreateTests(ctx);
    applicationTests(ctx);
    transactionTests(ctx);
    candidateTests(ctx);
    retentionTests(ctx);
  });
}
