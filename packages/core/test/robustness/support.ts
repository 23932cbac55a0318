/**
 * Shared set-up of the robustness suite: an API over the memory storage with a fixed clock and a
 * logger that keeps what it is given, a plain `api.handle()` caller, the checks every error answer
 * must pass (docs/api-reference.md, Errors), and a snapshot of a company's data read through the storage,
 * so a test can prove that an answer wrote nothing.
 */
import {
  type ApiRequest,
  type Clock,
  createPublicApi,
  type ErrorCode,
  type PublicApi,
  type Storage,
} from "@hireport/core";
import { type MemoryStorage, memoryStorage } from "@hireport/core/memory";
import { ERROR_STATUS, errorBodySchema, SCOPES, validationErrorBodySchema } from "@hireport/core/schemas";
import { type MemoryLogger, memoryLogger } from "../support/memory-logger";

export const BASE_URL = "https://careers.example.com";
export const SECRET = "robustness-secret-0123456789-abcdefghijkl";
export const START = new Date("2026-03-02T10:00:30.000Z");

export interface Tenant {
  companyId: string;
  key: string;
  keyId: string;
}

export interface Setup {
  api: PublicApi;
  storage: MemoryStorage;
  /** Keeps every entry: a 500 logs its detail here, so an empty list proves there was none. */
  logger: MemoryLogger;
  clock: Clock & { advance(ms: number): void };
  /** A company with a key holding all four scopes. */
  tenant(companyId: string): Promise<Tenant>;
}

export function createSetup(): Setup {
  const storage = memoryStorage();
  const logger = memoryLogger();
  let now = START.getTime();
  const clock = {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
  const api = createPublicApi({
    storage,
    publicBaseUrl: BASE_URL,
    fileTokenSecret: SECRET,
    clock,
    logger,
    limits: { perMinute: 1_000_000_000, perDay: 1_000_000_000 },
  });
  return {
    api,
    storage,
    logger,
    clock,
    async tenant(companyId) {
      await api.companies.upsert({ id: companyId, name: `Company ${companyId}` });
      const created = await api.keys.create({ companyId, name: `${companyId} full key`, scopes: [...SCOPES] });
      return { companyId, key: created.key, keyId: created.record.id };
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

export async function send(api: PublicApi, request: ApiRequest): Promise<Answer> {
  const response = await api.handle(request);
  const text = await new Response(response.body as BodyInit).text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A request with the tenant's key as a bearer token. */
export function authed(tenant: Tenant, request: Omit<ApiRequest, "headers"> & { headers?: Record<string, string> }) {
  return { ...request, headers: { authorization: `Bearer ${tenant.key}`, ...(request.headers ?? {}) } };
}

/**
 * Everything wrong with an answer as an error or success of the public API, as a list of problems
 * (empty when it is fine): no 5xx; an error body of exactly the documented shape whose code maps to the
 * status (docs/api-reference.md, Errors; core's `ERROR_STATUS`); a non-empty `fields` list on 422.
 */
export function answerProblems(answer: Answer): string[] {
  const problems: string[] = [];
  const { status } = answer;
  if (status >= 500) problems.push(`status ${status} (${answer.text.slice(0, 300)})`);
  if (!(answer.headers["x-request-id"] ?? "").startsWith("req_")) problems.push("no x-request-id");
  if (status < 400) {
    if (status !== 200 && status !== 201) problems.push(`unexpected success status ${status}`);
    if (answer.json === undefined || typeof answer.json !== "object" || answer.json === null) {
      problems.push("success body is not a JSON object");
    }
    return problems;
  }
  const parsed = errorBodySchema.safeParse(answer.json);
  if (!parsed.success) {
    problems.push(`error body not of the documented shape: ${answer.text.slice(0, 300)}`);
    return problems;
  }
  const { code, message, fields } = parsed.data.error;
  if (ERROR_STATUS[code as ErrorCode] !== status) problems.push(`code ${code} does not go with status ${status}`);
  if (message.trim().length === 0) problems.push("empty error message");
  if (status === 422) {
    if (!validationErrorBodySchema.safeParse(answer.json).success) problems.push("422 without a valid fields list");
  } else if (fields !== undefined) {
    problems.push(`fields on a ${status}`);
  }
  if (status === 405 && !answer.headers.allow) problems.push("405 without Allow");
  return problems;
}

/**
 * The company's data as the storage reads it: jobs, applications with their notes and stage
 * history, and the outbox. Two equal snapshots mean nothing of the company's data was written.
 */
export async function snapshot(storage: Storage, companyId: string): Promise<string> {
  const jobs = await storage.jobs.list({ companyId, take: 1_000_000 });
  const applications = await storage.applications.list({ companyId, take: 1_000_000 });
  const perApplication = [];
  for (const application of applications) {
    perApplication.push({
      id: application.id,
      notes: await storage.applications.listNotes(companyId, application.id),
      stages: await storage.applications.listStageChanges(companyId, application.id),
    });
  }
  const events = await storage.events.list(companyId, { take: 1_000_000 });
  return JSON.stringify({ jobs, applications, perApplication, events });
}

/** Counts of the company's records, for messages and quick checks. */
export async function counts(storage: MemoryStorage, companyId: string) {
  return {
    jobs: (await storage.jobs.list({ companyId, take: 1_000_000 })).length,
    applications: await storage.raw.countApplications(companyId),
    events: await storage.raw.countEvents(companyId),
  };
}
