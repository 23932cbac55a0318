/**
 * A host app as a test needs it: Express with the public API, the console mounted under
 * `/settings/api`, a webhook dispatcher, all on an SQLite file migrated by `@hireport/kysely`, and a
 * local webhook receiver. The host's "sign-in" is a cookie, `test_user=role:company:name`, which its
 * page `/signin` sets (or the test sets directly); `testAuthorize` reads it (a real host reads its
 * own session instead).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ApiRequest,
  createPublicApi,
  getHeader,
  type PublicApi,
  type Storage,
  type Telemetry,
} from "@hireport/core";
import { hireportExpress } from "@hireport/express";
import { migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher, type WebhookDispatcher } from "@hireport/webhooks";
import SQLite from "better-sqlite3";
import express from "express";
import { Kysely, SqliteDialect } from "kysely";
import { type ConsoleOptions, type ConsolePrincipal, createConsole, type HireportConsole } from "../../src/index";

export const BASE_PATH = "/settings/api";
export const SECRET = "console-test-secret-0123456789-abcdefghij";
export const COMPANY_A = "co_acme";
export const COMPANY_B = "co_other";

/** The test host's sign-in: the `test_user` cookie, `role:company:name`. */
export function testAuthorize(request: Pick<ApiRequest, "headers">): ConsolePrincipal | null {
  const cookieHeader = getHeader(request.headers, "cookie");
  const match = /(?:^|;\s*)test_user=([^;]+)/.exec(cookieHeader ?? "");
  if (!match?.[1]) return null;
  const [role, companyId, name] = decodeURIComponent(match[1]).split(":");
  if (!role || !companyId) return null;
  return { companyId, role, actor: { id: `user_${name ?? role}`, name: name ?? role } };
}

export function userCookie(role: string, companyId = COMPANY_A, name = role): string {
  return `test_user=${encodeURIComponent(`${role}:${companyId}:${name}`)}`;
}

/** A local webhook receiver whose answer the test sets. */
export interface TestReceiver {
  url: string;
  /** The status it answers with (200 by default) and the body. */
  answer: { status: number; body: string };
  received: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: "",
    answer: { status: 200, body: "ok, thanks" },
    received: 0,
    close: async () => {},
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      receiver.received++;
      response.writeHead(receiver.answer.status, { "content-type": "text/plain" }).end(receiver.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

export interface TestHost {
  origin: string;
  /** `origin + BASE_PATH`. */
  consoleUrl: string;
  apiUrl: string;
  api: PublicApi;
  /** The storage under the API (the job-indexing notices are read from it). */
  storage: Storage;
  dispatcher: WebhookDispatcher;
  console: HireportConsole;
  receiver: TestReceiver;
  close(): Promise<void>;
}

/** `telemetry` goes to the API and the dispatcher (the console reports to the API's). */
export async function startHost(
  overrides: Partial<ConsoleOptions> = {},
  { telemetry }: { telemetry?: Telemetry } = {},
): Promise<TestHost> {
  const dir = mkdtempSync(join(tmpdir(), "hireport-console-"));
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(join(dir, "test.sqlite")) }) });
  const migration = await migrateToLatest(db);
  if (migration.error) throw migration.error;
  const storage = kyselyWebhookStorage({ db });
  const dispatcher = createWebhookDispatcher({
    storage,
    allowPrivateAddresses: true,
    pollIntervalMs: 100,
    timeoutMs: 2_000,
    leaseMs: 30_000,
    // No retries: a failed attempt fails the delivery at once (recovery and resend are what is tested).
    retrySchedule: [],
    telemetry,
  });
  const api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: SECRET,
    onEvent: () => dispatcher.notify(),
    usageFlushMs: 20,
    telemetry,
  });
  for (const [id, name] of [
    [COMPANY_A, "Acme Ltd"],
    [COMPANY_B, "Other Ltd"],
  ] as const) {
    await api.companies.upsert({ id, name });
  }
  const receiver = await startReceiver();
  const consoleHandler = createConsole({
    api,
    dispatcher,
    // The notices as the job-indexing notifier of @hireport/careers records them in the storage.
    indexing: {
      services: ["indexnow", "google"],
      notices: (companyId, jobIds) => storage.jobIndex.notices(companyId, jobIds),
    },
    authorize: testAuthorize,
    basePath: BASE_PATH,
    secret: SECRET,
    ...overrides,
  });
  const app = express();
  // The host's own sign-in page: it sets the cookie `testAuthorize` reads, then opens the console.
  app.get("/signin", (_request, response) => {
    response.type("html").send(`<!doctype html><html lang="en"><head><title>Sign in</title></head><body><main>
      <form method="post" action="/signin">
        <label>Name <input name="name" required></label>
        <label>Role <select name="role"><option>owner</option><option>admin</option><option>member</option></select></label>
        <label>Company <input name="company" value="${COMPANY_A}"></label>
        <button type="submit">Sign in</button>
      </form></main></body></html>`);
  });
  app.post("/signin", express.urlencoded({ extended: false }), (request, response) => {
    const { name, role, company } = request.body as Record<string, string | undefined>;
    response
      .setHeader("set-cookie", `${userCookie(role ?? "", company ?? "", name ?? "")}; Path=/; HttpOnly; SameSite=Lax`)
      .redirect(303, `${BASE_PATH}/keys`);
  });
  app.use("/api/public/v1", hireportExpress(api));
  // The same console again, behind the host's own form parser: the body arrives parsed.
  app.use("/parsed/settings/api", express.urlencoded({ extended: false }), hireportExpress(consoleHandler));
  app.use(BASE_PATH, hireportExpress(consoleHandler));
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dispatcher.start();
  return {
    origin,
    consoleUrl: `${origin}${BASE_PATH}`,
    apiUrl: `${origin}/api/public/v1`,
    api,
    storage,
    dispatcher,
    console: consoleHandler,
    receiver,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await api.close();
      await dispatcher.stop();
      await receiver.close();
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CSRF token of the first form of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error("no CSRF token on the page");
  return match[1];
}

/** An answer of the console as the HTTP tests read it. */
export interface Sent {
  status: number;
  headers: Headers;
  text: string;
  url: string;
}

/** A GET of a console page as a signed-in browser sends it, without following a redirect. */
export async function getPage(host: TestHost, path: string, cookie: string): Promise<Sent> {
  return sentOf(await fetch(`${host.consoleUrl}${path}`, { headers: { cookie }, redirect: "manual" }));
}

/** Reads an answer to its end. */
export async function sentOf(response: Response): Promise<Sent> {
  return { status: response.status, headers: response.headers, text: await response.text(), url: response.url };
}

/** The `name=value` of the cookie an answer sets (the first `Set-Cookie` of that name), or null. */
export function setCookieOf(sent: Sent, name: string): string | null {
  for (const line of sent.headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? "";
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return null;
}

/**
 * Follows a 303 of the console as a browser does: a GET of its `Location` with the signed-in
 * cookie and the cookie the 303 set (the one-time cookie of a new key or a revealed secret).
 */
export async function follow(host: TestHost, sent: Sent, cookie: string): Promise<Sent & { cookie: string }> {
  const location = sent.headers.get("location");
  if (sent.status !== 303 || !location) throw new Error(`not a redirect: ${sent.status}\n${sent.text}`);
  const shown = setCookieOf(sent, "hireport_console_shown");
  const withShown = shown ? `${cookie}; ${shown}` : cookie;
  const page = await sentOf(
    await fetch(`${host.origin}${location}`, { headers: { cookie: withShown }, redirect: "manual" }),
  );
  return { ...page, cookie: withShown };
}
