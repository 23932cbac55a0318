import { describe } from "vitest";
import type { ConformanceTarget } from "../storage/conformance";
import { ConformanceContext, conformanceHooks } from "./context";
import { applicationCreateTests } from "./suites/application-create";
import { applicationTests } from "./suites/applications";
import { auditTests } from "./suites/audit";
import { candidateTests } from "./suites/candidates";
import { companyTests } from "./suites/companies";
import { eventTests } from "./suites/events";
import { idempotencyTests } from "./suites/idempotency";
import { jobIndexTests } from "./suites/job-index";
import { jobTests } from "./suites/jobs";
import { keyAdmissionTests } from "./suites/key-admission";
import { keyTests } from "./suites/keys";
import { publicJobTests } from "./suites/public-jobs";
import { rateLimitTests } from "./suites/rate-limits";
import { retentionTests } from "./suites/retention";
import { roundTripTests } from "./suites/round-trips";
import { transactionTests } from "./suites/transactions";
import { usageTests } from "./suites/usage";

/**
 * Registers the storage conformance suite: vitest `describe` and `it` blocks that check every
 * MUST rule of the storage contract (`storage.ts`) against `target`; the webhook store has its own
 * suite, `runWebhookStoreConformance` of `@hireport/webhooks/testing`. Call it at the top level of a
 * test file:
 *
 * ```ts
 * import { runStorageConformance } from "@hireport/core/testing";
 * runStorageConformance({
 *   name: "kysely on Postgres",
 *   async setup() {
 *     const db = createDb();
 *     await migrateToLatest(db);
 *     return { storage: kyselyStorage({ db }), inspect: rawReads(db), teardown: () => db.destroy() };
 *   },
 * });
 * ```
 *
 * `setup` runs once before the tests and `teardown` once after them. The tests run one after the
 * other (several of them start parallel calls inside); each makes its own companies with random
 * ids and checks only its own rows, and after the last test the suite deletes every row it wrote
 * through `inspect.removeRows` and checks that none is left. So a database that holds other data
 * and earlier runs of the suite works, and is left as it was, but for what the purges and the
 * job-index sweep do to rows dated before 2000 (see {@link ConformanceTarget.setup}).
 */
export function runStorageConformance(target: ConformanceTarget): void {
  describe(`storage conformance: ${target.name}`, () => {
    const ctx = new ConformanceContext();
    conformanceHooks(ctx, async () => {
      ctx.attach(await target.setup(), target.name);
    });

    roundTripTests(ctx);
    companyTests(ctx);
    keyTests(ctx);
    keyAdmissionTests(ctx);
    jobTests(ctx);
    publicJobTests(ctx);
    applicationCreateTests(ctx);
    applicationTests(ctx);
    transactionTests(ctx);
    eventTests(ctx);
    rateLimitTests(ctx);
    usageTests(ctx);
    idempotencyTests(ctx);
    auditTests(ctx);
    candidateTests(ctx);
    retentionTests(ctx);
    jobIndexTests(ctx);
  });
}
