/**
 * The HTTP test harness of @hireport/core: one API over a test storage with a clock the test
 * moves, and a client that sends the same request either through `api.handle(ApiRequest)` (a plain
 * object, the body already parsed or as raw text) or through `api.fetch(new Request(...))`.
 *
 * Every suite runs once per transport (`describe.each(TRANSPORTS)`), so each case proves both paths.
 *
 * The storage comes from `./storage`: the in-memory storage here, a database through @hireport/kysely
 * when that package runs this suite (it resolves `./storage` to its own module). Tests read stored
 * counts through `inspect`, never through one storage's internals. The hooks below close every API of
 * a test and dispose its storage after the test, so the next test starts from an empty storage.
 */

import {
  type ApiRequest,
  type ApplicationWire,
  type Clock,
  type CreatePublicApiOptions,
  createPublicApi,
  type FieldError,
  type JobRecord,
  type JobWire,
  type LimitsOptions,
  type PublicApi,
  type Scope,
  type Storage,
} from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import type { EventRecord } from "@hireport/core/storage";
import type { WebhookStore } from "@hireport/webhooks";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type MemoryLogger, memoryLogger } from "../support/memory-logger";
import { closeTestStorage, createTestStorage, openTestStorage, type StoredCounts, type TestStorage } from "./storage";

export { type MemoryLogger, memoryLogger } from "../support/memory-logger";
export {
  APPLICATION_EXTRAS_UNSET,
  APPLICATION_FIELDS,
  CANDIDATE_DEFAULTS,
  CANDIDATE_FIELDS,
  JOB_EXTRAS_UNSET,
  JOB_FIELDS,
} from "../support/spec-fields";

export const BASE_URL = "https://careers.example.com";
export const API_ORIGIN = "https://api.example.com";
export const BASE_PATH = "/api/public/v1";
export const SECRET = "test-secret-0123456789-abcdefghijklmnop";
/** A Monday, 30 seconds into a minute: minute windows end 30 s later, the UTC day 13 h 59 min 30 s later. */
export const START = new Date("2026-03-02T10:00:30.000Z");
export const DAY_MS = 86_400_000;

export const TRANSPORTS = ["handle", "fetch"] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** A clock the test moves by hand. */
export interface TestClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
}

export function testClock(start: Date = START): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** The body of an error answer (docs/api-reference.md#errors). */
export interface ErrorBody {
  code: string;
  message: string;
  fields?: FieldError[];
  required_scope?: string;
  existing_id?: string;
}

/** A parsed JSON answer body, loosely typed: the helpers below give typed views. */
export interface WireBody {
  data?: unknown;
  has_more?: boolean;
  next_cursor?: string | null;
  error?: ErrorBody;
  [name: string]: unknown;
}

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  text: string;
  /** The parsed body; `{}` when the body was empty. */
  json: WireBody;
}

export type QueryInput = Record<string, string | number | readonly string[]>;

export interface CallOptions {
  /** The API key; sent as `Authorization: Bearer` unless `keyHeader` says otherwise. */
  key?: string;
  keyHeader?: "bearer" | "x-service-key";
  query?: QueryInput;
  /** A JSON body: parsed (`body`) through handle unless the client sends raw bodies, text through fetch. */
  body?: unknown;
  /** A raw body, sent as is (`rawBody` through handle). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface Client {
  readonly transport: Transport;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
}

export interface ClientOptions {
  /** Through handle: pass JSON bodies as `rawBody` text instead of a parsed `body`. @default false */
  rawBodies?: boolean;
  /** Through handle: send the path with the base path in front (`/api/public/v1/jobs`). @default false */
  fullPath?: boolean;
}

function buildHeaders(options: CallOptions, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (hasBody) headers["content-type"] = "application/json";
  if (options.key !== undefined) {
    if (options.keyHeader === "x-service-key") headers["x-service-key"] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

function parseAnswer(status: number, headers: Record<string, string>, text: string): Answer {
  let json: WireBody = {};
  if (text.length > 0 && (headers["content-type"] ?? "").includes("json")) json = JSON.parse(text) as WireBody;
  return { status, headers, text, json };
}

function headersToRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name.toLowerCase()] = value;
  });
  return record;
}

export function createClient(api: PublicApi, transport: Transport, clientOptions: ClientOptions = {}): Client {
  return {
    transport,
    async call(method, path, options = {}) {
      const hasBody = options.body !== undefined || options.raw !== undefined;
      const headers = buildHeaders(options, hasBody);
      if (transport === "handle") {
        const query: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(options.query ?? {})) {
          query[name] =
            typeof value === "number" ? String(value) : Array.isArray(value) ? [...value] : (value as string);
        }
        const request: ApiRequest = {
          method,
          path: clientOptions.fullPath ? `${BASE_PATH}${path}` : path,
          query,
          headers,
          ip: "203.0.113.7",
        };
        if (options.raw !== undefined) request.rawBody = options.raw;
        else if (options.body !== undefined) {
          if (clientOptions.rawBodies) request.rawBody = JSON.stringify(options.body);
          else request.body = options.body;
        }
        const response = await api.handle(request);
        const text = await new Response(response.body as BodyInit).text();
        return parseAnswer(response.status, response.headers, text);
      }
      const url = new URL(`${API_ORIGIN}${BASE_PATH}${path}`);
      for (const [name, value] of Object.entries(options.query ?? {})) {
        if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
        else url.searchParams.append(name, String(value));
      }
      let body: BodyInit | undefined;
      if (options.raw !== undefined) body = options.raw as BodyInit;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      const response = await api.fetch(
        new Request(url, {
          method,
          headers: { "x-forwarded-for": "203.0.113.7", ...headers },
          ...(body !== undefined ? { body } : {}),
        }),
      );
      const responseHeaders = headersToRecord(response.headers);
      return parseAnswer(response.status, responseHeaders, await response.text());
    },
  };
}

export interface TestApiOptions {
  limits?: LimitsOptions;
  /** Wraps the test storage before the API gets it (a view whose method fails or waits). */
  wrapStorage?: (storage: Storage) => Storage;
  clock?: TestClock;
  logger?: MemoryLogger;
  extra?: Partial<Omit<CreatePublicApiOptions, "storage" | "clock" | "logger" | "limits">>;
}

export interface TestKey {
  key: string;
  id: string;
  name: string;
}

export interface TestApi {
  api: PublicApi;
  /** The storage the API runs on (wrapped, when `wrapStorage` was given). */
  storage: Storage;
  /** The webhook store of the test storage (never wrapped): the privacy test records attempts with it. */
  webhooks: WebhookStore;
  /** Stored counts, read past the storage's own read methods. */
  inspect: StoredCounts;
  clock: TestClock;
  logger: MemoryLogger;
  /** Registers a company (host id and name). */
  company(id: string, name?: string): Promise<string>;
  /** Creates a key of the company with these scopes (all four by default). */
  key(companyId: string, scopes?: Scope[], options?: { name?: string; expiresAt?: Date }): Promise<TestKey>;
}

/** Limits high enough that only the rate-limit tests meet them. */
export const ROOMY_LIMITS: LimitsOptions = { perMinute: 10_000, perDay: 100_000 };

/** What the tests of the running file opened: closed and disposed after each test. */
const opened: { apis: PublicApi[]; storages: TestStorage[]; available: boolean } = {
  apis: [],
  storages: [],
  available: true,
};

beforeAll(async () => {
  opened.available = await openTestStorage();
}, 60_000);

beforeEach((context) => {
  // The storage's database is unreachable and may be skipped (never in CI): see ./storage.
  if (!opened.available) context.skip();
});

afterEach(async () => {
  const apis = opened.apis.splice(0);
  const storages = opened.storages.splice(0);
  // Close first: a pending usage-log flush must not land in the next test's storage.
  await Promise.all(apis.map((api) => api.close()));
  for (const storage of storages) await storage.dispose();
});

afterAll(async () => {
  await closeTestStorage();
}, 60_000);

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const testStorage = await createTestStorage();
  opened.storages.push(testStorage);
  const storage = options.wrapStorage ? options.wrapStorage(testStorage.storage) : testStorage.storage;
  const clock = options.clock ?? testClock();
  const logger = options.logger ?? memoryLogger();
  const api = createPublicApi({
    storage,
    publicBaseUrl: BASE_URL,
    fileTokenSecret: SECRET,
    clock,
    logger,
    limits: options.limits ?? ROOMY_LIMITS,
    ...options.extra,
  });
  opened.apis.push(api);
  let keys = 0;
  return {
    api,
    storage,
    webhooks: testStorage.storage.webhooks,
    inspect: testStorage.inspect,
    clock,
    logger,
    async company(id, name = `Company ${id}`) {
      await api.companies.upsert({ id, name });
      return id;
    },
    async key(companyId, scopes = [...SCOPES], keyOptions = {}) {
      keys += 1;
      const name = keyOptions.name ?? `key ${keys}`;
      const created = await api.keys.create({
        companyId,
        name,
        scopes,
        ...(keyOptions.expiresAt ? { expiresAt: keyOptions.expiresAt } : {}),
      });
      return { key: created.key, id: created.record.id, name };
    },
  };
}

/** The `data` of a single-job answer. */
export function jobOf(answer: Answer): JobWire {
  return answer.json.data as JobWire;
}

/** The `data` of a page of jobs. */
export function jobsOf(answer: Answer): JobWire[] {
  return answer.json.data as JobWire[];
}

export function applicationOf(answer: Answer): ApplicationWire {
  return answer.json.data as ApplicationWire;
}

export function applicationsOf(answer: Answer): ApplicationWire[] {
  return answer.json.data as ApplicationWire[];
}

export function errorOf(answer: Answer): ErrorBody {
  const error = answer.json.error;
  if (!error) throw new Error(`Expected an error body, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return error;
}

/** A parsed event envelope (docs/api-reference.md#the-envelope). */
export interface Envelope {
  id: string;
  type: string;
  created_at: string;
  company_id: string;
  api_version: string;
  data: Record<string, unknown>;
}

/** The company's events, newest first, with their envelopes parsed. */
export async function eventsOf(
  storage: Storage,
  companyId: string,
  take = 1000,
): Promise<{ record: EventRecord; envelope: Envelope }[]> {
  const records = await storage.events.list(companyId, { take });
  return records.map((record) => ({ record, envelope: JSON.parse(record.payload) as Envelope }));
}

/** Every stored job of the company, through the storage. */
export async function storedJobs(storage: Storage, companyId: string): Promise<JobRecord[]> {
  return storage.jobs.list({ companyId, take: 10_000 });
}

/** ISO 8601 UTC with milliseconds and Z, as the API writes times. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Sorted key list of an object, for exact field-set checks. */
export function keysOf(value: unknown): string[] {
  return Object.keys(value as Record<string, unknown>).sort();
}

export function sorted(list: readonly string[]): string[] {
  return [...list].sort();
}

/** A valid application body for POST /applications. */
export function applicationBody(jobId: string, email = "ada@example.com", extra: Record<string, unknown> = {}) {
  return {
    job_id: jobId,
    candidate: { name: "Ada Lovelace", email, ...((extra.candidate as Record<string, unknown> | undefined) ?? {}) },
    ...Object.fromEntries(Object.entries(extra).filter(([name]) => name !== "candidate")),
  };
}

export interface World extends TestApi {
  client: Client;
  /** Company "acme" with an all-scopes key. */
  acme: string;
  acmeKey: TestKey;
  /** Company "globex" with an all-scopes key: another tenant. */
  globex: string;
  globexKey: TestKey;
}

/** Two companies with a full key each, and a client on the given transport. */
export async function createWorld(transport: Transport, options: TestApiOptions & ClientOptions = {}): Promise<World> {
  const test = await createTestApi(options);
  const acme = await test.company("acme", "Acme Ltd");
  const globex = await test.company("globex", "Globex plc");
  const acmeKey = await test.key(acme, [...SCOPES], { name: "ATS sync" });
  const globexKey = await test.key(globex, [...SCOPES], { name: "Globex key" });
  const client = createClient(test.api, transport, options);
  return { ...test, client, acme, acmeKey, globex, globexKey };
}
