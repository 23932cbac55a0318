import { createPublicApi } from "@hireport/core";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookDispatcher } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { parseEvent, verifySignature } from "../src/verify/index";
import { createTestCertificate } from "./support/certificate";
import { type Receiver, startReceiver } from "./support/receiver";

describe("with core's createPublicApi", () => {
  const open: Array<{ close(): Promise<void> } | { stop(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) {
      await ("stop" in item ? item.stop() : item.close());
    }
  });

  it("a change made through core reaches the receiver at once through onEvent -> notify()", async () => {
    const certificate = createTestCertificate();
    const receiver: Receiver = await startReceiver({ tls: certificate });
    open.push(receiver);
    const storage = memoryWebhookStorage();
    const dispatcher = createWebhookDispatcher({
      storage,
      allowPrivateAddresses: true,
      tls: { ca: certificate.cert },
      // Far longer than the test: only notify() can make it this fast.
      pollIntervalMs: 600_000,
    });
    open.push(dispatcher);
    const api = createPublicApi({
      storage,
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: "a-test-secret-of-at-least-32-characters!!",
      onEvent: () => dispatcher.notify(),
      logger: { warn: () => {}, error: () => {} },
    });
    open.push(api);
    const company = await api.companies.upsert({ id: "co_e2e", name: "Acme" });
    const { secret } = await dispatcher.endpoints.create({
      companyId: company.id,
      url: `${receiver.origin}/hooks`,
      events: ["job.created"],
    });
    dispatcher.start();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    const job = await api.jobs.create(company.id, { title: "Ingénieure 日本語 🎉" });
    await receiver.waitForRequests(1, 3_000);
    expect(Date.now() - started).toBeLessThan(1_000);

    const [request] = receiver.requests;
    const header = String(request?.headers["service-signature"]);
    await expect(verifySignature({ payload: request?.body ?? "", header, secret })).resolves.toBeTruthy();
    const event = parseEvent(request?.body ?? "");
    expect(event).toMatchObject({ type: "job.created", company_id: company.id, api_version: "1.0" });
    expect(event.type === "job.created" && event.data).toMatchObject({ id: job.id, title: "Ingénieure 日本語 🎉" });
    const stored = await storage.events.get(event.id);
    expect(request?.body.toString("utf8")).toBe(stored?.payload);
  });
});
