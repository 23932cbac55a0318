/**
 * The console embedded in an iframe of another origin, through Fastify (and Web `fetch` through the
 * handler's own `fetch`): only portal links sign people in (no `authorize`), the session cookie
 * crosses sites (`SameSite=None; Secure; Partitioned`), framing follows `frameAncestors`, the theme
 * reaches the page, and a form from the embedding page's origin is accepted when it is listed.
 */
import { createPublicApi } from "@hireport/core";
import { hireportFastify } from "@hireport/fastify";
import { createWebhookDispatcher } from "@hireport/webhooks";
import { memoryWebhookStorage } from "@hireport/webhooks/memory";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsole, type HireportConsole } from "../src/index";
import { csrfOf, SECRET } from "./support/host";

const BASE = "/embedded/console";
let app: FastifyInstance;
let origin: string;
let handler: HireportConsole;

beforeAll(async () => {
  const storage = memoryWebhookStorage();
  const dispatcher = createWebhookDispatcher({ storage });
  const api = createPublicApi({ storage, publicBaseUrl: "https://careers.example.com", fileTokenSecret: SECRET });
  await api.companies.upsert({ id: "co_embed", name: "Embed Ltd" });
  handler = createConsole({
    api,
    dispatcher,
    basePath: BASE,
    secret: SECRET,
    frameAncestors: ["https://app.example.com"],
    allowedOrigins: ["https://app.example.com", "http://127.0.0.1"],
    theme: { accentColor: "#aa3300", stylesheetUrl: "https://cdn.example.com/host.css", title: "Developers" },
  });
  app = Fastify();
  await app.register(hireportFastify, { api: handler, prefix: BASE });
  origin = await app.listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await app?.close();
});

async function signIn(): Promise<string> {
  const link = await handler.portalLink({ companyId: "co_embed", role: "owner", actor: "Iris", expiresIn: 30 });
  const opened = await fetch(`${origin}${link}`, { redirect: "manual" });
  expect(opened.status).toBe(303);
  const setCookie = opened.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(
    /^hireport_console=[^;]+; Path=\/embedded\/console; Max-Age=3600; HttpOnly; Secure; SameSite=None; Partitioned$/,
  );
  return setCookie.split(";")[0] ?? "";
}

describe("embedded in an iframe of another origin", () => {
  it("signs in through a portal link only, with a cross-site partitioned cookie", async () => {
    expect((await fetch(`${origin}${BASE}/keys`)).status).toBe(401);
    const cookie = await signIn();
    const page = await fetch(`${origin}${BASE}/keys`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBeNull();
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors https://app.example.com");
    expect(csp).toMatch(/style-src 'nonce-[^']+' https:\/\/cdn\.example\.com/);
    const html = await page.text();
    expect(html).toContain("--hrp-accent:#aa3300");
    expect(html).toContain('<link rel="stylesheet" href="https://cdn.example.com/host.css"/>');
    expect(html).toContain("<title>API keys · Developers</title>");
  });

  it("takes forms from a listed origin and refuses others; the Web fetch handler answers the same", async () => {
    const cookie = await signIn();
    const page = async () => csrfOf(await (await fetch(`${origin}${BASE}/keys`, { headers: { cookie } })).text());
    const csrf = await page();
    const send = (from: string) =>
      fetch(`${origin}${BASE}/keys`, {
        method: "POST",
        headers: { cookie, origin: from, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, name: `From ${from}`, scopes: "jobs:read" }),
        redirect: "manual",
      });
    expect((await send("https://other.example.com")).status).toBe(403);
    const sent = await send("https://app.example.com");
    expect(sent.status).toBe(303);
    // The one-time cookie of the new key crosses sites like the session's.
    expect(sent.headers.get("set-cookie")).toMatch(
      /^hireport_console_shown=[^;]+; Path=\/embedded\/console; Max-Age=120; HttpOnly; Secure; SameSite=None; Partitioned$/,
    );

    const viaFetch = await handler.fetch(
      new Request(`https://app.example.com${BASE}/keys`, {
        method: "POST",
        headers: { cookie, origin: "https://app.example.com", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: await page(), name: "Through fetch", scopes: "jobs:read" }),
        redirect: "manual",
      }),
    );
    expect(viaFetch.status).toBe(303);
    const shown = (viaFetch.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const next = await handler.fetch(
      new Request(`https://app.example.com${viaFetch.headers.get("location")}`, {
        headers: { cookie: `${cookie}; ${shown}` },
      }),
    );
    expect(await next.text()).toMatch(/<code id="new-key">svc_live_/);
  });

  it("checks its options at creation", () => {
    const base = { api: {} as never, dispatcher: {} as never, basePath: "/x", secret: SECRET };
    expect(() => createConsole({ ...base, secret: "short" })).toThrow(TypeError);
    expect(() => createConsole({ ...base, api: { handle: () => undefined } as never })).toThrow(/dispatcher/);
    const options = { ...base, api: { handle: () => undefined } as never, dispatcher: { endpoints: {} } as never };
    expect(() => createConsole({ ...options, secureCookies: "yes" as never })).toThrow(/secureCookies/);
    // A cookie that crosses sites needs Secure: false cannot be set with another origin framing it.
    expect(() =>
      createConsole({ ...options, secureCookies: false, frameAncestors: ["https://app.example.com"] }),
    ).toThrow(/secureCookies/);
    expect(() => createConsole({ ...options, secureCookies: false })).not.toThrow();
  });
});
