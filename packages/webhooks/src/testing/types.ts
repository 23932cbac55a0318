import type { ConformanceInstance } from "@hireport/core/testing";
import type { WebhookStorage } from "../store/webhook-storage";

/** What `setup` hands to the webhook store suite: a storage with the webhook store, and how to clean up. */
export interface WebhookConformanceInstance extends ConformanceInstance {
  storage: WebhookStorage;
}

/** A webhook store implementation to check with `runWebhookStoreConformance`. */
export interface WebhookConformanceTarget {
  /** Shown in the name of the outer `describe` block. */
  name: string;
  /**
   * Called once before the first test (in `beforeAll`, 60 s timeout). The database must be
   * migrated; it may hold other data: every test makes its own companies with random ids. The
   * methods without a company (`claimDueDeliveries`, `dueDeliveryStats`, `purgeDeliveries`) see
   * the whole database, so nothing else may dispatch webhooks from it while the suite runs.
   * The tests store times from 1985 to 2037 with milliseconds (on MySQL use `DATETIME(3)`).
   */
  setup(): Promise<WebhookConformanceInstance>;
}
