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
   * migrated; it may hold other data, and the rows of earlier runs of the suite. Every test makes
   * its own companies with random ids and checks only its own rows; after the last test the suite
   * deletes what it wrote (`inspect.removeRows`: its companies' endpoints, deliveries, attempts and
   * events among the rest) and checks that it is gone.
   *
   * The methods without a company (`claimDueDeliveries`, `dueDeliveryStats`, `purgeDeliveries`,
   * `events.purge`, `listEndpointsAfter`) see the whole database: the suite claims, counts and
   * purges only at times before 1 January 2000 (`FAR_PAST_END` of `@hireport/core/testing`),
   * where its own deliveries are and a host's never are, so it leases no delivery of a host and
   * purges only finished deliveries and events older than 2000. The other way round does not
   * hold: a dispatcher claims at the present, when the suite's pending deliveries are due, so
   * nothing else may dispatch webhooks from the database while the suite runs (it would send them,
   * and take them from under the suite's claims).
   * The tests store times from 1980 to 2037 with milliseconds (on MySQL use `DATETIME(3)`).
   */
  setup(): Promise<WebhookConformanceInstance>;
}
