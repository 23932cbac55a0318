import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { postgresWakeUps } from "@hireport/kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestCertificate, type TestCertificate } from "./support/certificate";
import { COMPANY, deliveryFixture } from "./support/fixture";
import { PG_URL, sqlFactories } from "./support/kysely-factories";
import { emitEvent, sampleJob } from "./support/outbox";
import { type Receiver, startReceiver } from "./support/receiver";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const script = fileURLToPath(new URL("./support/dispatcher-process.ts", import.meta.url));

let certificate: TestCertificate;
beforeAll(() => {
  certificate = createTestCertificate();
});

describe.each(sqlFactories())("dispatcher processes on $name", (factory) => {
  const children: ChildProcess[] = [];
  const closers: Array<() => Promise<void>> = [];
  let available = false;
  beforeAll(async () => {
    available = await factory.available();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    for (const close of closers.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    await factory.dispose?.();
  });

  /** Starts a dispatcher process on the factory's tables; resolves once it prints `ready`. */
  async function spawnDispatcher(env: Record<string, string> = {}): Promise<ChildProcess> {
    const location = factory.location();
    if (!location) throw new Error("no database");
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: packageDir,
      env: {
        ...process.env,
        HIREPORT_TEST_DIALECT: location.dialect,
        HIREPORT_TEST_PREFIX: location.tablePrefix,
        HIREPORT_TEST_SQLITE_FILE: location.sqliteFile,
        HIREPORT_TEST_CA: certificate.cert,
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the dispatcher process did not start")), 20_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`the dispatcher process exited with ${code}`)));
    });
    return child;
  }

  /** A receiver, and a fixture's dispatcher in this process on the factory's tables, its clock at the real time. */
  async function setup() {
    const receiver: Receiver = await startReceiver({ tls: certificate });
    closers.push(() => receiver.close());
    const fixture = await deliveryFixture(
      factory,
      certificate,
      { timeoutMs: 5_000, leaseMs: 12_000, logger: { warn: () => {}, error: () => {} } },
      new Date(),
    );
    closers.push(() => fixture.close());
    return { ...fixture, receiver };
  }

  /**
   * Queues `count` job.created events for one endpoint at the receiver, due a second ago (on the
   * processes' real clocks), while the receiver holds every request until `answer()`.
   */
  async function heldQueue(scene: Awaited<ReturnType<typeof setup>>, count: number) {
    const { storage, receiver, dispatcher } = scene;
    let answering = false;
    receiver.setHandler((_request, response) => {
      if (answering) response.writeHead(200).end("ok");
      // otherwise never answers: a killed process dies waiting
    });
    const { endpoint } = await dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${receiver.origin}/hooks`,
      events: ["job.created"],
    });
    const deliveryIds: string[] = [];
    for (let index = 0; index < count; index++) {
      const { deliveries } = await emitEvent(storage, {
        companyId: COMPANY,
        type: "job.created",
        data: sampleJob(`job ${index}`),
        now: new Date(Date.now() - 1000),
      });
      deliveryIds.push(...deliveries.map((delivery) => delivery.id));
    }
    return {
      endpoint,
      deliveryIds,
      answer: () => {
        answering = true;
      },
    };
  }

  /** Kills `child` with SIGKILL once `requests` requests reached the receiver; resolves at its death. */
  async function killAfter(child: ChildProcess, receiver: Receiver, requests: number): Promise<number> {
    await receiver.waitForRequests(requests, 20_000);
    child.kill("SIGKILL");
    await new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return Date.now();
  }

  it("two dispatcher processes on one database never send a delivery twice", async (context) => {
    if (!available) context.skip();
    const { storage, receiver, dispatcher, clock } = await setup();
    receiver.setHandler((_request, response) => {
      setTimeout(() => response.writeHead(200).end("ok"), 5 + Math.floor(Math.random() * 20));
    });
    const endpoints = [];
    for (const path of ["/one", "/two"]) {
      endpoints.push(
        (
          await dispatcher.endpoints.create({
            companyId: COMPANY,
            url: `${receiver.origin}${path}`,
            events: ["job.created"],
          })
        ).endpoint,
      );
    }
    // Core writes events while both dispatchers claim, as in production, on every database
    // (MariaDB included: @hireport/kysely's claims lock delivery rows alone, by primary key, in
    // READ COMMITTED transactions, so an outbox insert beside them does not deadlock).
    await Promise.all([
      spawnDispatcher({ HIREPORT_TEST_USER_AGENT: "dispatcher-a" }),
      spawnDispatcher({ HIREPORT_TEST_USER_AGENT: "dispatcher-b" }),
    ]);
    const deliveryIds: string[] = [];
    for (let index = 0; index < 150; index++) {
      const { deliveries } = await emitEvent(storage, {
        companyId: COMPANY,
        type: "job.created",
        data: sampleJob(`job ${index}`),
        now: clock.now(),
      });
      deliveryIds.push(...deliveries.map((delivery) => delivery.id));
    }
    await receiver.waitForRequests(300, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = receiver.requests.map((request) => String(request.headers["service-delivery"]));
    expect(sent).toHaveLength(300);
    expect(new Set(sent).size).toBe(300);
    expect(new Set(sent)).toEqual(new Set(deliveryIds));
    // Both were running before the first event: both took part.
    const agents = new Set(receiver.requests.map((request) => request.headers["user-agent"]));
    expect(agents).toEqual(new Set(["dispatcher-a", "dispatcher-b"]));
    for (const endpoint of endpoints) {
      let cursor: string | null = null;
      let count = 0;
      do {
        const page = await dispatcher.deliveries.list(COMPANY, endpoint.id, { limit: 100, cursor });
        for (const delivery of page.data) {
          expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
          expect(delivery.attemptLog).toHaveLength(1);
        }
        count += page.data.length;
        cursor = page.nextCursor;
      } while (cursor);
      expect(count).toBe(150);
    }
  }, 60_000);

  // postgresWakeUps is Postgres's LISTEN/NOTIFY: the test exists on Postgres alone.
  const onPostgres = factory.name === "postgres" ? it : () => undefined;
  onPostgres(
    "a dispatcher process polling once a minute sends at once when an app process wakes it (postgresWakeUps)",
    async (context) => {
      if (!available) context.skip();
      const { storage, receiver, dispatcher, clock } = await setup();
      receiver.setHandler((_request, response) => response.writeHead(200).end("ok"));
      await dispatcher.endpoints.create({
        companyId: COMPANY,
        url: `${receiver.origin}/hooks`,
        events: ["job.created"],
      });
      const channel = `hireport_test_${randomBytes(4).toString("hex")}`;
      await spawnDispatcher({ HIREPORT_TEST_POLL_MS: "60000", HIREPORT_TEST_WAKE_CHANNEL: channel });
      // Its first claim, and the one it makes once listening, have found nothing: it sleeps a minute.
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The app process's side: a pool of its own, as another process would have.
      const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
      const wakeUps = postgresWakeUps(pool, { channel });
      closers.push(async () => {
        await wakeUps.close();
        await pool.end();
      });
      const emit = async (title: string) =>
        (
          await emitEvent(storage, {
            companyId: COMPANY,
            type: "job.created",
            data: sampleJob(title),
            now: clock.now(),
          })
        ).deliveries[0]?.id;
      // A change nobody announces waits for the poll...
      const quiet = await emit("not announced");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.requests).toHaveLength(0);
      // ...one announced (as `onEvent: wakeUps.publish` does after its commit) goes at once, with it.
      const announced = await emit("announced");
      const publishedAt = Date.now();
      wakeUps.publish();
      await receiver.waitForRequests(2, 10_000);
      expect(Date.now() - publishedAt).toBeLessThan(5_000);
      expect(new Set(receiver.requests.map((request) => String(request.headers["service-delivery"])))).toEqual(
        new Set([quiet, announced]),
      );
    },
    30_000,
  );

  it("a dispatcher killed with SIGKILL mid-batch loses nothing: its leases run out and another sends them", async (context) => {
    if (!available) context.skip();
    const scene = await setup();
    const { receiver, dispatcher, clock } = scene;
    const { endpoint, deliveryIds, answer } = await heldQueue(scene, 20);
    // Written first, so that the dispatcher's first claims take 8 of them at once.
    const child = await spawnDispatcher({
      HIREPORT_TEST_CONCURRENCY: "16",
      HIREPORT_TEST_PER_ENDPOINT: "8",
      HIREPORT_TEST_TIMEOUT_MS: "5000",
      HIREPORT_TEST_LEASE_MS: "12000",
    });
    const killedAt = new Date(await killAfter(child, receiver, 8));

    // Nothing was recorded; the held deliveries are still pending under the dead process's lease.
    const held = await Promise.all(deliveryIds.map((id) => dispatcher.deliveries.get(COMPANY, id)));
    expect(held.every((delivery) => delivery.status === "pending" && delivery.attempts === 0)).toBe(true);

    answer();
    clock.set(killedAt);
    const before = await dispatcher.runOnce({ maxPasses: 5 });
    expect(before.claimed).toBeLessThanOrEqual(20 - 8);
    clock.set(new Date(killedAt.getTime() + 12_001));
    await dispatcher.runOnce({ maxPasses: 5 });

    const page = await dispatcher.deliveries.list(COMPANY, endpoint.id, { limit: 100 });
    expect(page.data).toHaveLength(20);
    for (const delivery of page.data) expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    const answered = new Set(receiver.requests.map((request) => String(request.headers["service-delivery"])));
    expect(answered).toEqual(new Set(deliveryIds));
  }, 60_000);

  it("with the default options, a killed dispatcher's deliveries are free again within 20 s of its death (the heartbeat's lease, not 60 s)", async (context) => {
    if (!available) context.skip();
    const scene = await setup();
    const { storage, receiver, dispatcher, clock } = scene;
    const { endpoint, deliveryIds, answer } = await heldQueue(scene, 12);
    // No timeout or lease given: the dispatcher's defaults (10 s timeout, 20 s lease renewed every 5 s).
    const child = await spawnDispatcher({ HIREPORT_TEST_DEFAULT_LEASE: "1", HIREPORT_TEST_PER_ENDPOINT: "8" });
    const killedAt = await killAfter(child, receiver, 8);

    // Every delivery the dead process held is free at most 20 s after its death.
    const rows = await Promise.all(deliveryIds.map((id) => storage.webhooks.getDelivery(COMPANY, id)));
    const leases = rows.flatMap((row) => (row?.leaseExpiresAt ? [row.leaseExpiresAt.getTime()] : []));
    expect(leases.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...leases) - killedAt).toBeLessThanOrEqual(20_000);

    answer();
    clock.set(new Date(killedAt + 20_001));
    await dispatcher.runOnce({ maxPasses: 5 });
    const page = await dispatcher.deliveries.list(COMPANY, endpoint.id, { limit: 100 });
    expect(page.data.map((delivery) => delivery.status)).toEqual(Array(12).fill("succeeded"));
  }, 60_000);

  /** Resolves once `done()` holds, checking every 50 ms; rejects after `timeoutMs`. */
  async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error("timed out waiting");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Emits `count` job.created events a millisecond apart (due at once); their deliveries' ids, event by event. */
  async function emitSpaced(storage: Awaited<ReturnType<typeof setup>>["storage"], count: number) {
    const base = Date.now() - 1_000;
    const ids: string[][] = [];
    for (let index = 0; index < count; index++) {
      const { deliveries } = await emitEvent(storage, {
        companyId: COMPANY,
        type: "job.created",
        data: sampleJob(`job ${index}`),
        now: new Date(base + index),
      });
      ids.push(deliveries.map((delivery) => delivery.id));
    }
    return ids;
  }

  // The claims of ordered and throttled endpoints lock the endpoint's row: checked with two
  // processes on Postgres (the store conformance suite runs parallel claims on every dialect).
  onPostgres(
    "two dispatcher processes keep an ordered endpoint's order, the head's retries included",
    async (context) => {
      if (!available) context.skip();
      const { storage, receiver, dispatcher } = await setup();
      const create = async (path: string, ordered: boolean) =>
        (
          await dispatcher.endpoints.create({
            companyId: COMPANY,
            url: `${receiver.origin}${path}`,
            events: ["job.created"],
            ordered,
          })
        ).endpoint;
      const ordered = await create("/ordered", true);
      await create("/plain", false);
      // The first attempt of every fourth event's delivery fails (`job 0`, `job 4`, …).
      const failsFirst = (title: string) => Number(title.replace("job ", "")) % 4 === 0;
      const tried = new Set<string>();
      receiver.setHandler((request, response) => {
        const id = String(request.headers["service-delivery"]);
        const first = !tried.has(id);
        tried.add(id);
        const title = String(JSON.parse(request.body.toString("utf8")).data.title);
        const status = failsFirst(title) && first ? 500 : 200;
        setTimeout(() => response.writeHead(status).end("ok"), 2 + Math.floor(Math.random() * 10));
      });
      await Promise.all([
        spawnDispatcher({ HIREPORT_TEST_USER_AGENT: "dispatcher-a", HIREPORT_TEST_RETRY_MS: "200,200,200" }),
        spawnDispatcher({ HIREPORT_TEST_USER_AGENT: "dispatcher-b", HIREPORT_TEST_RETRY_MS: "200,200,200" }),
      ]);
      const emitted = await emitSpaced(storage, 40);
      const orderedIds = emitted.map((ids) => ids.find((id) => id.endsWith(ordered.id.slice(3))) ?? "");
      const expected = orderedIds.flatMap((id, index) => (failsFirst(`job ${index}`) ? [id, id] : [id]));
      const toOrdered = () => receiver.requests.filter((request) => request.path === "/ordered");
      await waitUntil(
        () => toOrdered().length >= expected.length && receiver.requests.length >= expected.length + 40,
        60_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(toOrdered().map((request) => String(request.headers["service-delivery"]))).toEqual(expected);
      expect(receiver.maxOpenByPath.get("/ordered")).toBe(1);
      const agents = new Set(receiver.requests.map((request) => request.headers["user-agent"]));
      expect(agents).toEqual(new Set(["dispatcher-a", "dispatcher-b"]));
    },
    90_000,
  );

  onPostgres(
    "two dispatcher processes together keep a throttled endpoint under its maxPerSecond",
    async (context) => {
      if (!available) context.skip();
      const { storage, receiver, dispatcher } = await setup();
      const limit = 5;
      const { endpoint } = await dispatcher.endpoints.create({
        companyId: COMPANY,
        url: `${receiver.origin}/throttled`,
        events: ["job.created"],
        maxPerSecond: limit,
      });
      expect(endpoint.maxPerSecond).toBe(limit);
      await Promise.all([
        spawnDispatcher({ HIREPORT_TEST_USER_AGENT: "dispatcher-a" }),
        spawnDispatcher({ HIREPORT_TEST_USER_AGENT: "dispatcher-b" }),
      ]);
      const deliveryIds = (await emitSpaced(storage, 40)).flat();
      await receiver.waitForRequests(40, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sent = receiver.requests.map((request) => String(request.headers["service-delivery"]));
      expect(new Set(sent)).toEqual(new Set(deliveryIds));
      expect(sent).toHaveLength(40);
      // The throttle counts claims per second of the dispatchers' clock; the receiver sees them later,
      // each after its own delay. A delivery claimed at the end of one second may arrive in the next,
      // so a second of the receiver sees at most twice the limit. The 40 claims need at least 8
      // windows, so they span more than 6 s; at the receiver the first ones may come late (cold
      // connections, a loaded machine), so the run is allowed a second less than that: the limit
      // per second it spans, plus three seconds' worth. Unthrottled, 40 arrive within one second.
      const perSecond = new Map<number, number>();
      for (const request of receiver.requests) {
        const second = Math.floor(request.receivedAt / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      }
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(2 * limit);
      const times = receiver.requests.map((request) => request.receivedAt);
      const spanSeconds = Math.floor((Math.max(...times) - Math.min(...times)) / 1000);
      expect(sent.length).toBeLessThanOrEqual(limit * (spanSeconds + 3));
    },
    90_000,
  );
});
