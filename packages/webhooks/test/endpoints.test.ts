import { HireportError, isHireportError } from "@hireport/core";
import { unknownCompany } from "@hireport/core/extend";
import { newId } from "@hireport/core/storage";
import { describe, expect, it } from "vitest";
import { createWebhookDispatcher, type WebhookDispatcherOptions } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { manualClock } from "./support/clock";
import { rejectionOf } from "./support/rejection";

/** A dispatcher on a fresh memory storage where the companies co_1 and co_2 are registered. */
async function setup(overrides: Partial<WebhookDispatcherOptions> = {}) {
  const storage = memoryWebhookStorage();
  const clock = manualClock();
  for (const id of ["co_1", "co_2"]) await storage.companies.upsert({ id, name: id, createdAt: clock.now() });
  const dispatcher = createWebhookDispatcher({
    storage,
    clock,
    // Names resolve through this table only: no real DNS in tests.
    resolveHost: async (hostname) => {
      const table: Record<string, string> = {
        "hooks.example.com": "93.184.215.14",
        "rebind.example.com": "10.0.0.7",
        "meta.example.com": "169.254.169.254",
      };
      const address = table[hostname];
      if (!address) throw new Error(`ENOTFOUND ${hostname}`);
      return [{ address, family: 4 }];
    },
    ...overrides,
  });
  return { storage, clock, dispatcher };
}

async function invalidFields(promise: Promise<unknown>): Promise<string[]> {
  const error = await rejectionOf(promise, HireportError);
  expect(error.code).toBe("invalid");
  return (error.fields ?? []).map((field) => field.field);
}

const PRIVATE_HINT = "(for a local receiver in development, create the dispatcher with allowPrivateAddresses: true)";

const base = { companyId: "co_1", url: "https://hooks.example.com/hireport", events: ["job.created" as const] };

describe("endpoints.create", () => {
  it("returns the endpoint and a whsec_ secret of 32 random bytes, shown once", async () => {
    const { dispatcher, storage, clock } = await setup();
    const { endpoint, secret } = await dispatcher.endpoints.create({ ...base, description: "ATS sync" });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), "base64url")).toHaveLength(32);
    expect(endpoint).toMatchObject({
      companyId: "co_1",
      url: "https://hooks.example.com/hireport",
      events: ["job.created"],
      status: "active",
      description: "ATS sync",
      consecutiveFailures: 0,
    });
    // Core's newId: 10 characters of the creation time then 16 random ones, Crockford base32.
    expect(endpoint.id).toMatch(/^we_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(endpoint.id.slice(0, 13)).toBe(newId("we", clock.now()).slice(0, 13));
    expect(JSON.stringify(endpoint)).not.toContain(secret);
    expect(JSON.stringify(await dispatcher.endpoints.list("co_1"))).not.toContain(secret);
    expect((await storage.webhooks.getEndpoint("co_1", endpoint.id))?.secrets).toEqual([{ secret, expiresAt: null }]);
    const second = await dispatcher.endpoints.create(base);
    expect(second.secret).not.toBe(secret);
  });

  it.each([
    ["http: without allowPrivateAddresses", "http://hooks.example.com/x"],
    ["credentials in the address", "https://user:pass@hooks.example.com/x"],
    ["a user name alone", "https://user@hooks.example.com/x"],
    ["not a URL", "hooks.example.com/x"],
    ["ftp:", "ftp://hooks.example.com/x"],
    ["localhost", "https://localhost:8443/x"],
    ["a .localhost name", "https://app.localhost/x"],
    ["a loopback literal", "https://127.0.0.1/x"],
    ["a private literal", "https://192.168.0.10/x"],
    ["the metadata address", "https://169.254.169.254/latest/meta-data"],
    ["an IPv6 loopback literal", "https://[::1]/x"],
    ["an IPv4-mapped IPv6 literal", "https://[::ffff:127.0.0.1]/x"],
    ["a name resolving to a private address", "https://rebind.example.com/x"],
    ["a name resolving to the metadata address", "https://meta.example.com/x"],
    ["a fragment", "https://hooks.example.com/x#frag"],
    ["an empty string", ""],
  ])("refuses %s with invalid and a url field", async (_name, url) => {
    const { dispatcher } = await setup();
    expect(await invalidFields(dispatcher.endpoints.create({ ...base, url }))).toEqual(["url"]);
  });

  it.each([
    ["http:", "http://hooks.example.com/x", "must use https:"],
    ["localhost", "https://localhost:8443/x", "must not point to localhost"],
    ["a private literal", "https://192.168.0.10/x", "must be a public address (192.168.0.10 is a private address)"],
    [
      "a name resolving to the metadata address",
      "https://meta.example.com/x",
      "must resolve to a public address (169.254.169.254 is a link-local / cloud metadata address)",
    ],
  ])("names the allowPrivateAddresses option when the guard refuses %s", async (_name, url, reason) => {
    const { dispatcher } = await setup();
    const error = await rejectionOf(dispatcher.endpoints.create({ ...base, url }), HireportError);
    expect(error.code).toBe("invalid");
    expect(error.message).toBe(`The webhook endpoint is not valid: ${reason} ${PRIVATE_HINT}`);
    // The field keeps the short text a host may show its own users.
    expect(error.fields).toEqual([{ field: "url", message: reason }]);
  });

  it("does not suggest allowPrivateAddresses where it would not help", async () => {
    const guarded = (await setup()).dispatcher;
    const open = (await setup({ allowPrivateAddresses: true })).dispatcher;
    for (const [dispatcher, url] of [
      [guarded, "ftp://hooks.example.com/x"],
      [guarded, "https://user:pass@hooks.example.com/x"],
      [guarded, "hooks.example.com/x"],
      [open, "ftp://hooks.example.com/x"],
    ] as const) {
      const error = await rejectionOf(dispatcher.endpoints.create({ ...base, url }), HireportError);
      expect(error.code).toBe("invalid");
      expect(error.message).not.toMatch(/allowPrivateAddresses/);
    }
  });

  it("refuses a company hireport does not know with core's unknownCompany (404), storing nothing", async () => {
    const { dispatcher, storage } = await setup();
    const error = await rejectionOf(dispatcher.endpoints.create({ ...base, companyId: "co_unknown" }), HireportError);
    expect(isHireportError(error)).toBe(true);
    expect(error).toMatchObject({ code: "not_found", status: 404, message: unknownCompany("co_unknown").message });
    expect(error.message).toMatch(/"co_unknown".*api\.companies\.upsert/);
    expect(await storage.webhooks.listEndpoints("co_unknown")).toEqual([]);
    // Once registered, the same call is accepted.
    await storage.companies.upsert({ id: "co_unknown", name: "Registered", createdAt: new Date() });
    await expect(dispatcher.endpoints.create({ ...base, companyId: "co_unknown" })).resolves.toMatchObject({
      endpoint: { companyId: "co_unknown" },
    });
  });

  it("accepts a name that does not resolve yet (deliveries retry until it does)", async () => {
    const { dispatcher } = await setup();
    await expect(dispatcher.endpoints.create({ ...base, url: "https://not-yet.example.com/x" })).resolves.toBeTruthy();
  });

  it("refuses a description with a NUL character or an unpaired surrogate (Postgres cannot store it as sent)", async () => {
    const { dispatcher, storage } = await setup();
    for (const description of ["a\u0000b", "half \ud83d pair", "\udc00 low first"]) {
      expect(await invalidFields(dispatcher.endpoints.create({ ...base, description }))).toEqual(["description"]);
    }
    expect(await storage.webhooks.listEndpoints("co_1")).toEqual([]);
    const { endpoint } = await dispatcher.endpoints.create({ ...base, description: "paired 🚀 ok" });
    expect(endpoint.description).toBe("paired 🚀 ok");
  });

  it("refuses unknown, empty or missing event kinds", async () => {
    const { dispatcher } = await setup();
    expect(await invalidFields(dispatcher.endpoints.create({ ...base, events: [] }))).toEqual(["events"]);
    expect(
      await invalidFields(
        // @ts-expect-error an unknown event kind, as a JavaScript caller could send it
        dispatcher.endpoints.create({ ...base, events: ["job.created", "job.deleted"] }),
      ),
    ).toEqual(["events.1"]);
    expect(
      await invalidFields(
        // @ts-expect-error the test event is not a subscription
        dispatcher.endpoints.create({ ...base, events: ["webhook.test"] }),
      ),
    ).toEqual(["events.0"]);
  });

  it("keeps each event kind once", async () => {
    const { dispatcher } = await setup();
    const { endpoint } = await dispatcher.endpoints.create({
      ...base,
      events: ["job.created", "job.closed", "job.created"],
    });
    expect(endpoint.events).toEqual(["job.created", "job.closed"]);
  });

  it("allows http: and local addresses with allowPrivateAddresses", async () => {
    const { dispatcher } = await setup({ allowPrivateAddresses: true });
    await expect(dispatcher.endpoints.create({ ...base, url: "http://127.0.0.1:9/x" })).resolves.toBeTruthy();
    await expect(dispatcher.endpoints.create({ ...base, url: "https://localhost/x" })).resolves.toBeTruthy();
    expect(await invalidFields(dispatcher.endpoints.create({ ...base, url: "http://u:p@127.0.0.1/x" }))).toEqual([
      "url",
    ]);
  });
});

describe("endpoint management", () => {
  it("lists, gets, updates, pauses, resumes and deletes, scoped to the company", async () => {
    const { dispatcher } = await setup();
    const { endpoint } = await dispatcher.endpoints.create(base);
    await dispatcher.endpoints.create({ ...base, companyId: "co_2" });
    expect((await dispatcher.endpoints.list("co_1")).map((e) => e.id)).toEqual([endpoint.id]);
    expect((await dispatcher.endpoints.get("co_1", endpoint.id)).url).toBe(base.url);

    const updated = await dispatcher.endpoints.update("co_1", endpoint.id, {
      url: "https://hooks.example.com/v2",
      events: ["application.created", "application.updated"],
      description: "v2",
    });
    expect(updated).toMatchObject({
      url: "https://hooks.example.com/v2",
      events: ["application.created", "application.updated"],
      description: "v2",
    });
    expect(await invalidFields(dispatcher.endpoints.update("co_1", endpoint.id, { url: "https://10.0.0.1/" }))).toEqual(
      ["url"],
    );
    expect(
      (
        await rejectionOf(
          dispatcher.endpoints.update("co_1", endpoint.id, { url: "http://hooks.example.com/" }),
          HireportError,
        )
      ).message,
    ).toContain(PRIVATE_HINT);

    expect(await dispatcher.endpoints.pause("co_1", endpoint.id)).toMatchObject({
      status: "paused",
      pausedReason: "manual",
    });
    expect(await dispatcher.endpoints.resume("co_1", endpoint.id)).toMatchObject({
      status: "active",
      pausedReason: null,
      consecutiveFailures: 0,
    });

    for (const call of [
      () => dispatcher.endpoints.get("co_2", endpoint.id),
      () => dispatcher.endpoints.update("co_2", endpoint.id, { description: "x" }),
      () => dispatcher.endpoints.pause("co_2", endpoint.id),
      () => dispatcher.endpoints.resume("co_2", endpoint.id),
      () => dispatcher.endpoints.rotateSecret("co_2", endpoint.id),
      () => dispatcher.endpoints.delete("co_2", endpoint.id),
      () => dispatcher.sendTest("co_2", endpoint.id),
      () => dispatcher.deliveries.list("co_2", endpoint.id),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "not_found", status: 404 });
    }

    await dispatcher.endpoints.delete("co_1", endpoint.id);
    await expect(dispatcher.endpoints.get("co_1", endpoint.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(dispatcher.endpoints.delete("co_1", endpoint.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("rotateSecret: a new secret; the old one keeps signing for 24 h, then is dropped at the next rotation", async () => {
    const { dispatcher, storage, clock } = await setup();
    const { endpoint, secret: first } = await dispatcher.endpoints.create(base);
    const { secret: second, endpoint: rotated } = await dispatcher.endpoints.rotateSecret("co_1", endpoint.id);
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(rotated.previousSecretExpiresAt).toEqual(new Date(clock.now().getTime() + 86_400_000));
    expect(rotated.secretHint).toBe(`${second.slice(0, 10)}…`);
    const stored = await storage.webhooks.getEndpoint("co_1", endpoint.id);
    expect(stored?.secrets).toEqual([
      { secret: second, expiresAt: null },
      { secret: first, expiresAt: new Date(clock.now().getTime() + 86_400_000) },
    ]);
    clock.advance(86_400_001);
    const { secret: third } = await dispatcher.endpoints.rotateSecret("co_1", endpoint.id);
    expect((await storage.webhooks.getEndpoint("co_1", endpoint.id))?.secrets.map((s) => s.secret)).toEqual([
      third,
      second,
    ]);
  });

  it("defaults to the documented figures", () => {
    const { options } = createWebhookDispatcher({ storage: memoryWebhookStorage() });
    expect(options).toMatchObject({
      pollIntervalMs: 1000,
      concurrency: 32,
      perEndpointConcurrency: 4,
      timeoutMs: 10_000,
      leaseMs: 20_000,
      retrySchedule: [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000],
      pauseAfterFailures: 50,
      headerPrefix: "Service",
      allowPrivateAddresses: false,
      retentionDays: 30,
      rotationGraceMs: 86_400_000,
    });
  });

  it("refuses options that cannot work", () => {
    const storage = memoryWebhookStorage();
    expect(() => createWebhookDispatcher({ storage, timeoutMs: 10_000, leaseMs: 10_000 })).toThrow(/leaseMs/);
    expect(() => createWebhookDispatcher({ storage, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createWebhookDispatcher({ storage, headerPrefix: "Bad Prefix" })).toThrow(/headerPrefix/);
    expect(Object.isFrozen(createWebhookDispatcher({ storage }).options)).toBe(true);
  });
});
