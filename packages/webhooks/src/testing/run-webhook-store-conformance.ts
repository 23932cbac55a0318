import { conformanceHooks } from "@hireport/core/testing";
import { describe } from "vitest";
import { WebhookConformanceContext } from "./context";
import { webhookAttemptStatsTests } from "./suites/webhook-attempt-stats";
import { webhookAttemptTests } from "./suites/webhook-attempts";
import { webhookClaimTests } from "./suites/webhook-claims";
import { webhookDeliveryTests } from "./suites/webhook-deliveries";
import { webhookEndpointTests } from "./suites/webhook-endpoints";
import { webhookErasureTests } from "./suites/webhook-erasure";
import { webhookFanOutTests } from "./suites/webhook-fan-out";
import { webhookLogTests } from "./suites/webhook-log";
import { webhookOrderedClaimTests } from "./suites/webhook-ordered-claims";
import type { WebhookConformanceTarget } from "./types";

/**
 * Registers the webhook store conformance suite: vitest `describe` and `it` blocks that check every
 * MUST rule of the `WebhookStore` (`webhook-store.ts`) against `target`, and how it meets core's
 * stores on the same data (the outbox's fan-out, erasure, retention, transactions). Run it beside
 * `runStorageConformance` of `@hireport/core/testing`, at the top level of a test file:
 *
 * ```ts
 * import { runWebhookStoreConformance } from "@hireport/webhooks/testing";
 * runWebhookStoreConformance({
 *   name: "kysely on Postgres",
 *   async setup() {
 *     const db = createDb();
 *     await migrateToLatest(db);
 *     return { storage: kyselyWebhookStorage({ db }), inspect: rawReads(db), teardown: () => db.destroy() };
 *   },
 * });
 * ```
 *
 * `setup` runs once before the tests and `teardown` once after them; the tests run one after the
 * other, each with its own companies, checking only its own rows. After the last test the suite
 * deletes every row it wrote through `inspect.removeRows` and checks that none is left, so a
 * database that holds other data and earlier runs works and is left as it was; its claims and
 * purges see every company's deliveries, but only at times before 2000, and nothing else may
 * dispatch webhooks from the database meanwhile (see {@link WebhookConformanceTarget.setup}).
 */
export function runWebhookStoreConformance(target: WebhookConformanceTarget): void {
  describe(`webhook store conformance: ${target.name}`, () => {
    const ctx = new WebhookConformanceContext();
    conformanceHooks(ctx, async () => {
      ctx.attachWebhooks(await target.setup(), target.name);
    });

    webhookEndpointTests(ctx);
    webhookFanOutTests(ctx);
    webhookClaimTests(ctx);
    webhookOrderedClaimTests(ctx);
    webhookAttemptTests(ctx);
    webhookAttemptStatsTests(ctx);
    webhookDeliveryTests(ctx);
    webhookLogTests(ctx);
    webhookErasureTests(ctx);
  });
}
