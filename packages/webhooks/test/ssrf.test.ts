import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDispatcher, type HostResolver, type WebhookDispatcherOptions } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import { type AddressPolicy, createAddressPolicy } from "../src/network/address-policy";
import { createSender } from "../src/network/sender";
import { createTestCertificate, type TestCertificate } from "./support/certificate";
import { manualClock } from "./support/clock";
import { COMPANY, registerCompany } from "./support/fixture";
import { PUBLIC_IPV6, RESERVED_IPV6 } from "./support/ipv6-cases";
import { emitEvent, insertRawEndpoint, sampleJob } from "./support/outbox";
import { type Receiver, startReceiver } from "./support/receiver";

let certificate: TestCertificate;
let receiver: Receiver;
beforeAll(async () => {
  certificate = createTestCertificate();
  receiver = await startReceiver({ tls: certificate });
});
afterAll(async () => {
  await receiver.close();
});
afterEach(() => {
  receiver.requests.length = 0;
});

const SECRET = "whsec_c3NyZi10ZXN0LXNlY3JldC0xMjM0NTY3ODkwMTIzNDU2Nzg5MA";

/**
 * A dispatcher on a memory storage that trusts the test certificate: guarded (the default,
 * allowPrivateAddresses false) unless `overrides` turn the guard off.
 */
async function dispatcherWith(overrides: Partial<WebhookDispatcherOptions> = {}) {
  const storage = memoryWebhookStorage();
  const clock = manualClock();
  await registerCompany(storage, COMPANY, clock.now());
  const dispatcher = createWebhookDispatcher({
    storage,
    clock,
    tls: { ca: certificate.cert },
    timeoutMs: 2_000,
    leaseMs: 30_000,
    logger: { warn: () => {}, error: () => {} },
    ...overrides,
  });
  return { storage, clock, dispatcher };
}

/** A guarded dispatcher, with `resolveHost` where given. */
function guarded(resolveHost?: HostResolver) {
  return dispatcherWith(resolveHost ? { resolveHost } : {});
}

/** Stores the endpoint past the create-time checks (its name resolved elsewhere back then) and sends one event. */
async function attemptTo(url: string, resolveHost?: HostResolver) {
  const { storage, clock, dispatcher } = await guarded(resolveHost);
  try {
    await insertRawEndpoint(storage, { companyId: COMPANY, url, secret: SECRET, now: clock.now() });
    const { deliveries } = await emitEvent(storage, {
      companyId: COMPANY,
      type: "job.created",
      data: sampleJob(),
      now: clock.now(),
    });
    const started = Date.now();
    const result = await dispatcher.runOnce();
    const elapsed = Date.now() - started;
    const [attempt] = await dispatcher.deliveries.attempts(COMPANY, deliveries[0]?.id ?? "");
    return { result, attempt, elapsed };
  } finally {
    await dispatcher.stop();
  }
}

describe("SSRF guard at connect time (allowPrivateAddresses: false)", () => {
  it.each([
    ["loopback", (port: number) => `https://127.0.0.1:${port}/`],
    ["a name resolving to loopback (localhost, real DNS)", (port: number) => `https://localhost:${port}/`],
    ["IPv6 loopback", (port: number) => `https://[::1]:${port}/`],
    ["IPv4-mapped IPv6 loopback", (port: number) => `https://[::ffff:127.0.0.1]:${port}/`],
    ["a private address", () => "https://10.255.255.1/"],
    ["link-local", () => "https://169.254.10.10/"],
    ["the cloud metadata address", () => "https://169.254.169.254/latest/meta-data/"],
    ["CGNAT", () => "https://100.64.0.1/"],
    ["the unspecified address", (port: number) => `https://0.0.0.0:${port}/`],
  ])("refuses %s before any byte is sent", async (_name, url) => {
    const { result, attempt, elapsed } = await attemptTo(url(receiver.port));
    expect(result).toMatchObject({ claimed: 1, retrying: 1 });
    expect(attempt).toMatchObject({ statusCode: null, succeeded: false });
    expect(attempt?.error).toMatch(/Refused to connect/);
    expect(elapsed).toBeLessThan(1_000);
    expect(receiver.requests).toHaveLength(0);
  });

  it("refuses plain http: at send time too (an address stored while the guard was off)", async () => {
    const resolve: HostResolver = async () => [{ address: "93.184.215.14", family: 4 }];
    const { attempt } = await attemptTo("http://hooks.example.com/", resolve);
    expect(attempt?.error).toMatch(/only https:/);
  });

  it("refuses a public-looking name that resolves to a private address", async () => {
    const resolve: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const { attempt } = await attemptTo(`https://hooks.attacker.example:${receiver.port}/`, resolve);
    expect(attempt?.error).toMatch(
      /Refused to connect to hooks\.attacker\.example: 127\.0\.0\.1 is a loopback address/,
    );
    expect(receiver.requests).toHaveLength(0);
  });

  it("refuses a name with any private address among its answers", async () => {
    const resolve: HostResolver = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "::1", family: 6 },
    ];
    const { attempt } = await attemptTo(`https://mixed.example:${receiver.port}/`, resolve);
    expect(attempt?.error).toMatch(/::1 is a/);
    expect(receiver.requests).toHaveLength(0);
  });

  it("DNS rebinding: a name public when the endpoint was created, private at delivery, is refused", async () => {
    let calls = 0;
    const resolve: HostResolver = async () => {
      calls++;
      return [{ address: calls === 1 ? "93.184.215.14" : "127.0.0.1", family: 4 }];
    };
    const { storage, clock, dispatcher } = await guarded(resolve);
    try {
      const { endpoint } = await dispatcher.endpoints.create({
        companyId: COMPANY,
        url: `https://rebind.example:${receiver.port}/`,
        events: ["job.created"],
      });
      expect(endpoint.status).toBe("active");
      const { deliveries } = await emitEvent(storage, {
        companyId: COMPANY,
        type: "job.created",
        data: sampleJob(),
        now: clock.now(),
      });
      await dispatcher.runOnce();
      const [attempt] = await dispatcher.deliveries.attempts(COMPANY, deliveries[0]?.id ?? "");
      expect(attempt?.error).toMatch(/Refused to connect/);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await dispatcher.stop();
    }
  });

  it("allowPrivateAddresses: true turns the guard off", async () => {
    const { storage, clock, dispatcher } = await dispatcherWith({ allowPrivateAddresses: true });
    try {
      await dispatcher.endpoints.create({
        companyId: COMPANY,
        url: `https://localhost:${receiver.port}/`,
        events: ["job.created"],
      });
      await emitEvent(storage, { companyId: COMPANY, type: "job.created", data: sampleJob(), now: clock.now() });
      expect(await dispatcher.runOnce()).toMatchObject({ succeeded: 1 });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe("reserved IPv6 blocks (IANA special-purpose registry), as literals and as DNS answers", () => {
  /** Creates an endpoint with the guard on; resolves with the stored address or the refusal. */
  async function create(url: string, resolveHost?: HostResolver) {
    const { dispatcher } = await guarded(resolveHost);
    try {
      const { endpoint } = await dispatcher.endpoints.create({ companyId: COMPANY, url, events: ["job.created"] });
      return { stored: endpoint.url };
    } catch (error) {
      return { refused: error as { code: string; fields: Array<{ field: string; message: string }> } };
    } finally {
      await dispatcher.stop();
    }
  }

  const resolvingTo =
    (address: string): HostResolver =>
    async () => [{ address, family: 6 }];

  it.each(RESERVED_IPV6)("refuses https://[%s]/ when the endpoint is created (%s)", async (address) => {
    const { refused, stored } = await create(`https://[${address}]/hooks`);
    expect(stored).toBeUndefined();
    expect(refused?.code).toBe("invalid");
    expect(refused?.fields[0]?.message).toMatch(/^must be a public address/);
  });

  it.each(RESERVED_IPV6)("refuses a name resolving to %s when the endpoint is created (%s)", async (address) => {
    const { refused } = await create("https://hooks.example.com/", resolvingTo(address));
    expect(refused?.fields[0]?.message).toMatch(/^must resolve to a public address/);
  });

  it.each(RESERVED_IPV6)("refuses %s at connect time, as a literal and as a DNS answer (%s)", async (address) => {
    const literal = await attemptTo(`https://[${address}]:${receiver.port}/`);
    expect(literal.attempt?.error).toMatch(/Refused to connect: /);
    const resolved = await attemptTo(`https://hooks.example.com:${receiver.port}/`, resolvingTo(address));
    expect(resolved.attempt?.error).toMatch(/Refused to connect to hooks\.example\.com: /);
    expect(receiver.requests).toHaveLength(0);
  });

  it.each(PUBLIC_IPV6)("accepts https://[%s]/ and a name resolving to it (%s)", async (address) => {
    expect((await create(`https://[${address}]/hooks`)).stored).toBe(new URL(`https://[${address}]/hooks`).href);
    expect((await create("https://hooks.example.com/", resolvingTo(address))).stored).toBe(
      "https://hooks.example.com/",
    );
  });

  it("refuses the IPv4-translated loopback https://[::ffff:0:127.0.0.1]/, which URL parsing turns into hex", async () => {
    expect(new URL("https://[::ffff:0:127.0.0.1]/").hostname).toBe("[::ffff:0:7f00:1]");
    const { refused } = await create("https://[::ffff:0:127.0.0.1]/");
    expect(refused?.fields[0]?.message).toBe(
      "must be a public address (::ffff:0:7f00:1 embeds 127.0.0.1 is a loopback address)",
    );
  });
});

describe("guarded connector", () => {
  it("connects to the address it checked, and verifies the certificate against the name (SNI)", async () => {
    const checked: string[] = [];
    const base = createAddressPolicy();
    // A policy that lets loopback through, so the connector's success path runs on a real socket.
    const policy: AddressPolicy = {
      check(address) {
        checked.push(address);
        return address === "127.0.0.1" ? { allowed: true } : base.check(address);
      },
    };
    const resolved: string[] = [];
    const sender = createSender({
      policy,
      resolve: async (hostname) => {
        resolved.push(hostname);
        return [{ address: "127.0.0.1", family: 4 }];
      },
      tls: { ca: certificate.cert },
      timeoutMs: 2_000,
    });
    try {
      const result = await sender.send({
        url: `https://receiver.test:${receiver.port}/sni`,
        payload: "{}",
        headers: { "content-type": "application/json" },
      });
      expect(result).toMatchObject({ succeeded: true, statusCode: 200 });
      expect(resolved).toEqual(["receiver.test"]);
      // Checked once from the DNS answer, once more on the connected socket's remote address.
      expect(checked).toEqual(["127.0.0.1", "127.0.0.1"]);
      expect(receiver.requests[0]?.headers.host).toBe(`receiver.test:${receiver.port}`);

      // A name the certificate does not cover fails verification even though the address is the same.
      const wrongName = await sender.send({
        url: `https://wrong-name.test:${receiver.port}/`,
        payload: "{}",
        headers: {},
      });
      expect(wrongName.succeeded).toBe(false);
      expect(wrongName.error).toMatch(/altnames|Hostname|certificate/i);
    } finally {
      await sender.close();
    }
  });
});
