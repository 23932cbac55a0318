/**
 * The error statuses the OpenAPI document publishes for the webhook endpoints (`errorStatuses` of
 * each route of `webhookEndpointsApi`) are the statuses the API really answers there, as core's
 * test/openapi-statuses.test.ts checks for core's own routes: every route is sent every way we
 * know to provoke an error, and the error statuses that come back must be exactly the documented
 * ones.
 */
import { type ApiRequest, createPublicApi, type PublicApi } from "@hireport/core";
import type { RouteSpec } from "@hireport/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDispatcher, type WebhookDispatcher, webhookEndpointsApi } from "../src/index";
import { memoryWebhookStorage } from "../src/memory/index";
import type { WebhookStorage } from "../src/store/webhook-storage";
import { type Receiver, startReceiver } from "./support/receiver";

const quiet = { warn: () => undefined, error: () => undefined };
const COMPANY = "co_statuses";

/** A storage whose `idempotency.complete` waits while held, and whose `keys.admit` fails once `failing` is set. */
function holdableStorage(inner: WebhookStorage) {
  const state = { failing: false };
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  const bind = <T extends object>(target: T, override: Record<string, unknown> = {}): T =>
    new Proxy(target, {
      get(object, name) {
        if (typeof name === "string" && name in override) return override[name];
        const value = Reflect.get(object, name, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const idempotency = bind(inner.idempotency, {
    complete: async (...args: Parameters<WebhookStorage["idempotency"]["complete"]>) => {
      if (gate) await gate;
      return inner.idempotency.complete(...args);
    },
  });
  const keys = bind(inner.keys, {
    admit: async (...args: Parameters<WebhookStorage["keys"]["admit"]>) => {
      if (state.failing) throw new Error("storage is down");
      return inner.keys.admit(...args);
    },
  });
  return {
    storage: bind(inner, { idempotency, keys }),
    state,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release() {
      open();
      gate = null;
    },
  };
}

interface World {
  api: PublicApi;
  dispatcher: WebhookDispatcher;
  held: ReturnType<typeof holdableStorage>;
  writer: string;
  jobsOnly: string;
  endpointIds: string[];
  deliveryId: string;
}

let receiver: Receiver;
let counter = 0;
const unique = () => `${Date.now()}-${++counter}`;

async function world(options: { perMinute?: number; failAdmit?: boolean } = {}): Promise<World> {
  const held = holdableStorage(memoryWebhookStorage());
  const dispatcher = createWebhookDispatcher({
    storage: held.storage,
    allowPrivateAddresses: true,
    maxEndpointsPerCompany: 10_000,
    logger: quiet,
  });
  const api = createPublicApi({
    storage: held.storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "statuses-secret-0123456789-abcdefghijk",
    limits: { perMinute: options.perMinute ?? 100_000 },
    logger: quiet,
    extensions: [webhookEndpointsApi(dispatcher)],
  });
  await api.companies.upsert({ id: COMPANY, name: "Acme" });
  const key = async (scopes: ("webhooks:write" | "jobs:write")[]) =>
    (await api.keys.create({ companyId: COMPANY, name: scopes.join(" "), scopes })).key;
  const endpointIds: string[] = [];
  for (const n of [1, 2]) {
    const { endpoint } = await dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${receiver.origin}/hooks/${n}`,
      events: ["job.created"],
    });
    endpointIds.push(endpoint.id);
  }
  await api.jobs.create(COMPANY, { title: "Engineer" });
  const page = await dispatcher.deliveries.list(COMPANY, endpointIds[0] as string);
  const deliveryId = page.data[0]?.id as string;
  const w: World = {
    api,
    dispatcher,
    held,
    writer: await key(["webhooks:write"]),
    jobsOnly: await key(["jobs:write"]),
    endpointIds,
    deliveryId,
  };
  held.state.failing = options.failAdmit ?? false;
  return w;
}

function validBody(route: RouteSpec): unknown {
  switch (route.operationId) {
    case "createWebhookEndpoint":
      return { url: `${receiver.origin}/hooks/${unique()}`, events: ["job.created"] };
    case "updateWebhookEndpoint":
      return { description: `changed ${unique()}` };
    default:
      return undefined;
  }
}

/** The route's path with its parameters: a fresh endpoint for DELETE (each send deletes one), `id` when given. */
async function pathOf(route: RouteSpec, w: World, id?: string): Promise<string> {
  let endpointId = id ?? (w.endpointIds[0] as string);
  if (id === undefined && route.method === "DELETE") {
    const { endpoint } = await w.dispatcher.endpoints.create({
      companyId: COMPANY,
      url: `${receiver.origin}/hooks/${unique()}`,
      events: ["job.created"],
    });
    endpointId = endpoint.id;
  }
  return route.path.replace("{id}", endpointId).replace("{delivery_id}", w.deliveryId).replace("{type}", "job.created");
}

interface Send {
  method?: string;
  path?: string;
  key?: string | null;
  query?: Record<string, string>;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

async function send(route: RouteSpec, w: World, options: Send = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? w.writer : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const request: ApiRequest = {
    method: options.method ?? route.method,
    path: options.path ?? (await pathOf(route, w)),
    query: options.query ?? {},
    headers,
  };
  const body = "body" in options ? options.body : validBody(route);
  if (options.raw !== undefined) {
    request.rawBody = options.raw;
    headers["content-type"] = "application/json";
  } else if (body !== undefined) {
    request.body = body;
    headers["content-type"] = "application/json";
  }
  return w.api.handle(request);
}

type Technique = (route: RouteSpec) => Promise<{ status: number; headers: Record<string, string> }[]>;

describe("the webhook endpoints' documented error statuses are the statuses the API answers", () => {
  const observed = new Map<string, Map<number, string[]>>();
  let routes: readonly RouteSpec[] = [];
  let w: World;
  let limited: World;
  let broken: World;
  let closed: World;

  const techniques: Record<string, Technique> = {
    "an unknown query parameter": async (route) => [await send(route, w, { query: { surprise: "1" } })],
    "no key": async (route) => [await send(route, w, { key: null })],
    "a key without the permission": async (route) => [await send(route, w, { key: w.jobsOnly })],
    "an unknown id, delivery or type": async (route) => {
      const answers = [];
      if (route.path.includes("{id}")) answers.push(await send(route, w, { path: await pathOf(route, w, "we_nope") }));
      if (route.path.includes("{delivery_id}")) {
        const path = (await pathOf(route, w)).replace(w.deliveryId, "dlv_nope");
        answers.push(await send(route, w, { path }));
      }
      if (route.path.includes("{type}")) {
        answers.push(await send(route, w, { path: route.path.replace("{type}", "job.nope") }));
      }
      return answers;
    },
    "another method on the path": async (route) => [await send(route, w, { method: "PUT" })],
    "an Idempotency-Key still running": async (route) => {
      const headers = { "idempotency-key": `running-${unique()}` };
      // The same request twice: the same body, and for DELETE the same endpoint.
      const body = validBody(route);
      const path = await pathOf(route, w);
      w.held.hold();
      const first = send(route, w, { headers, body, path });
      await new Promise((resolve) => setTimeout(resolve, 30));
      const second = await send(route, w, { headers, body, path });
      w.held.release();
      return [await first, second];
    },
    "an Idempotency-Key reused for another request": async (route) => {
      const headers = { "idempotency-key": `reused-${unique()}` };
      const first = await send(route, w, { headers });
      const other = route.path.includes("{id}")
        ? await send(route, w, { headers, path: await pathOf(route, w, w.endpointIds[1]) })
        : await send(route, w, { headers, body: validBody(route) ?? { other: true } });
      return [first, other];
    },
    "a malformed Idempotency-Key": async (route) => [await send(route, w, { headers: { "idempotency-key": "" } })],
    "a body over 1 MiB": async (route) => [await send(route, w, { raw: `{"url":"${"x".repeat(1_100_000)}"}` })],
    "a body that is not JSON": async (route) => [await send(route, w, { raw: "{nope" })],
    "a body that breaks the schema": async (route) => [await send(route, w, { body: { surprise: 1 } })],
    "too many requests": async (route) => [await send(route, limited), await send(route, limited)],
    "a storage fault": async (route) => [await send(route, broken)],
    "a closing API": async (route) => [await send(route, closed)],
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    w = await world();
    routes = webhookEndpointsApi(w.dispatcher).routes;
    limited = await world({ perMinute: 1 });
    broken = await world({ failAdmit: true });
    closed = await world();
    await closed.api.close();
    for (const route of routes) {
      const statuses = new Map<number, string[]>();
      for (const [name, technique] of Object.entries(techniques)) {
        for (const answer of await technique(route)) {
          if (answer.status < 400) continue;
          statuses.set(answer.status, [...(statuses.get(answer.status) ?? []), name]);
          if (answer.status === 405) expect(answer.headers.allow, route.operationId).toMatch(/GET|POST|PATCH|DELETE/);
        }
      }
      observed.set(route.operationId, statuses);
    }
  }, 60_000);

  afterAll(async () => {
    for (const each of [w, limited, broken]) await each?.api.close();
    await receiver?.close();
  });

  it("every route of the extension is checked", () => {
    expect(routes).toHaveLength(12);
    expect([...observed.keys()]).toEqual(routes.map((route) => route.operationId));
  });

  it("each route answers exactly its documented error statuses, and the document publishes them", () => {
    const document = w.api.openapi() as { paths: Record<string, Record<string, { responses: object }>> };
    for (const route of routes) {
      const statuses = observed.get(route.operationId) ?? new Map<number, string[]>();
      const reached = [...statuses.keys()].sort((a, b) => a - b);
      expect(reached, `${route.operationId}: ${JSON.stringify(Object.fromEntries(statuses))}`).toEqual([
        ...route.errorStatuses,
      ]);
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(
        Object.keys(operation?.responses ?? {})
          .map(Number)
          .filter((status) => status >= 400),
        route.operationId,
      ).toEqual([...route.errorStatuses]);
    }
  });
});
