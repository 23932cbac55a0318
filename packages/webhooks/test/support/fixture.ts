import type { EventType } from "@hireport/core";
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions } from "../../src/index";
import type { WebhookStorage } from "../../src/store/webhook-storage";
import type { TestCertificate } from "./certificate";
import { type ManualClock, manualClock } from "./clock";
import { emitEvent, sampleJob } from "./outbox";
import type { StorageFactory } from "./storages";

export interface DeliveryFixture {
  storage: WebhookStorage;
  clock: ManualClock;
  dispatcher: WebhookDispatcher;
  /** Creates an endpoint through the dispatcher (guard off) and returns it with its secret. */
  endpoint(url: string, events?: EventType[]): Promise<{ id: string; secret: string }>;
  /** Emits a job.created event as core does (the storage's `events.append` fans it out), at the clock's time. */
  emit(type?: EventType, title?: string): Promise<{ eventId: string; deliveryIds: string[]; payload: string }>;
  close(): Promise<void>;
}

export const COMPANY = "co_test";

/** Registers a company, as a host does before it makes endpoints for it (`api.companies.upsert`). */
export async function registerCompany(storage: WebhookStorage, id = COMPANY, now = new Date()): Promise<void> {
  await storage.companies.upsert({ id, name: `Company ${id}`, createdAt: now });
}

/**
 * A dispatcher on a fresh storage (with {@link COMPANY} registered) with a manual clock (from
 * `start`, a fixed day by default), `allowPrivateAddresses` (the receivers are on 127.0.0.1) and
 * the test certificate trusted; short timeouts keep the runs bounded.
 */
export async function deliveryFixture(
  factory: StorageFactory,
  certificate: TestCertificate,
  overrides: Partial<WebhookDispatcherOptions> = {},
  start?: Date,
): Promise<DeliveryFixture> {
  const handle = await factory.create();
  const clock = manualClock(start);
  await registerCompany(handle.storage, COMPANY, clock.now());
  const dispatcher = createWebhookDispatcher({
    storage: handle.storage,
    clock,
    allowPrivateAddresses: true,
    tls: { ca: certificate.cert },
    timeoutMs: 1_000,
    leaseMs: 30_000,
    pollIntervalMs: 50,
    logger: { warn: () => {}, error: (message, details) => console.error(message, details) },
    ...overrides,
  });
  return {
    storage: handle.storage,
    clock,
    dispatcher,
    async endpoint(url, events = ["job.created"]) {
      const { endpoint, secret } = await dispatcher.endpoints.create({ companyId: COMPANY, url, events });
      return { id: endpoint.id, secret };
    },
    async emit(type = "job.created", title) {
      const { event, deliveries } = await emitEvent(handle.storage, {
        companyId: COMPANY,
        type,
        data: sampleJob(title),
        now: clock.now(),
      });
      return { eventId: event.id, deliveryIds: deliveries.map((d) => d.id), payload: event.payload };
    },
    async close() {
      await dispatcher.stop();
      await handle.close();
    },
  };
}
