/**
 * `@hireport/kysely/webhooks`: the Kysely storage with the webhook store of `@hireport/webhooks`,
 * for hosts that run the webhook dispatcher. This entry needs `@hireport/webhooks` installed; the
 * main entry does not.
 */
import type { WebhookStorage, WebhookStorageStores } from "@hireport/webhooks";
import { type KyselyStorageOptions, kyselyStorageWith } from "./kysely-storage";
import { createWebhookStore } from "./stores/webhooks";

/**
 * `kyselyStorage` of `@hireport/kysely` with the webhook store of `@hireport/webhooks`
 * (`storage.webhooks`, on the same tables as core's `eventDeliveries`, in and out of its
 * transactions): what `createPublicApi` and `createWebhookDispatcher` both take, so that one
 * storage serves the API, the dispatcher, the endpoint manager and the console. Same options as
 * `kyselyStorage`.
 */
export function kyselyWebhookStorage<DB>(options: KyselyStorageOptions<DB>): WebhookStorage {
  return kyselyStorageWith<DB, WebhookStorageStores>(options, (ctx) => {
    const webhooks = createWebhookStore(ctx);
    return { eventDeliveries: webhooks, webhooks };
  });
}
