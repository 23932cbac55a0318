/**
 * The console through a real Express app on SQLite, with Node's fetch as the browser: sign-in,
 * roles, the CSRF and origin checks, security headers, company isolation, keys, usage and CSV,
 * webhooks and the audit list. The browser test (`console-browser.test.ts`) drives the same pages
 * in Chromium.
 */
import type { AddressInfo } from "node:net";
import { hireportExpress } from "@hireport/express";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsole, type HireportConsole } from "../src/index";
import {
  BASE_PATH,
  COMPANY_A,
  COMPANY_B,
  csrfOf,
  follow,
  getPage,
  SECRET,
  type Sent,
  sentOf,
  setCookieOf,
  startHost,
  type TestHost,
  userCookie,
} from "./support/host";

let host: TestHost;

beforeAll(async () => {
  host = await startHost();
});

afterAll(async () => {
  await host?.close();
});

function get(path: string, cookie = userCookie("owner")): Promise<Sent> {
  return getPage(host, path, cookie);
}

/** A form POST as a browser sends it from a console page: same origin, with the page's CSRF token. */
async function post(
  path: string,
  fields: Record<string, string | string[]>,
  options: { cookie?: string; csrf?: string | null; origin?: string | null; site?: string; base?: string } = {},
): Promise<Sent> {
  const cookie = options.cookie ?? userCookie("owner");
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  let csrf = options.csrf;
  if (csrf === undefined) csrf = csrfOf((await get("/webhooks", cookie)).text);
  if (csrf !== null) body.set("_csrf", csrf);
  const headers: Record<string, string> = { cookie, "content-type": "application/x-www-form-urlencoded" };
  const origin = options.origin === undefined ? host.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  if (options.site) headers["sec-fetch-site"] = options.site;
  return sentOf(
    await fetch(`${options.base ?? host.consoleUrl}${path}`, { method: "POST", headers, body, redirect: "manual" }),
  );
}

/** The new key a page shows (once), or undefined. */
function newKeyOf(html: string): string | undefined {
  return /<code id="new-key">([^<]+)<\/code>/.exec(html)?.[1];
}

/** Creates a key through the form: 303 to the keys page, which shows the key once. */
async function createKey(name: string, cookie = userCookie("owner")): Promise<{ key: string; id: string }> {
  const sent = await post("/keys", { name, scopes: ["jobs:read", "jobs:write"] }, { cookie });
  expect(sent.status).toBe(303);
  expect(sent.headers.get("location")).toMatch(new RegExp(`^${BASE_PATH}/keys\\?shown=[\\w-]+$`));
  const page = await follow(host, sent, cookie);
  expect(page.status).toBe(200);
  const key = newKeyOf(page.text);
  if (!key) throw new Error(`no key shown:\n${page.text}`);
  const record = (await host.api.keys.list(cookie.includes(COMPANY_B) ? COMPANY_B : COMPANY_A)).find(
    (candidate) => candidate.name === name,
  );
  return { key, id: record?.id ?? "" };
}

function callApi(key: string, path = "/jobs"): Promise<Response> {
  return fetch(`${host.apiUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

describe("sign-in and the answers' headers", () => {
  it("answers 401 to a request the host does not sign in, with no data", async () => {
    const sent = await get("/keys", "");
    expect(sent.status).toBe(401);
    expect(sent.text).toContain("Sign in first");
    expect(sent.headers.get("cache-control")).toBe("no-store");
  });

  it("serves every page with no-store, a nonce-only CSP, framing rules, nosniff and same-origin referrers", async () => {
    for (const path of ["/keys", "/usage", "/webhooks", "/audit"]) {
      const sent = await get(path);
      expect(sent.status, path).toBe(200);
      expect(sent.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(sent.headers.get("cache-control")).toBe("no-store");
      expect(sent.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(sent.headers.get("x-content-type-options")).toBe("nosniff");
      expect(sent.headers.get("referrer-policy")).toBe("same-origin");
      const csp = sent.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toContain("unsafe-inline");
      // Every inline script and style carries the nonce; no inline event handler or style attribute.
      expect(sent.text.match(/<script(?![^>]*nonce=)/g)).toBeNull();
      expect(sent.text.match(/<style(?![^>]*nonce=)/g)).toBeNull();
      expect(sent.text).toContain(`nonce="${nonce}"`);
      expect(sent.text).not.toMatch(/\son[a-z]+=|\sstyle="/);
      expect(sent.text).toMatch(/^<!doctype html><html lang="en">/);
      expect(sent.text).toContain("<main>");
      expect(sent.text).toContain('<nav aria-label="API and webhooks">');
    }
  });

  it("redirects the root to the keys page, answers 404 for unknown pages and 405 for wrong methods", async () => {
    const root = await get("/");
    expect(root.status).toBe(303);
    expect(root.headers.get("location")).toBe(`${BASE_PATH}/keys`);
    expect((await get("/nothing-here")).status).toBe(404);
    const wrong = await post("/usage", {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
  });
});

describe("keys", () => {
  it("creates a key shown once on the page its form redirects to, which the API accepts; revoking it makes the next call 401", async () => {
    const { key, id } = await createKey("Careers site");
    expect(key).toMatch(/^svc_live_/);
    expect((await callApi(key)).status).toBe(200);
    const list = await get("/keys");
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`${key.slice(0, 15)}…${key.slice(-4)}`);
    expect(list.text).toMatch(/\d+ of 10 active keys/);

    const confirm = await get(`/keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Revoke the key");
    const revoked = await post(`/keys/${id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`${BASE_PATH}/keys?done=key-revoked`);
    expect((await callApi(key)).status).toBe(401);
    expect((await get("/keys?done=key-revoked")).text).toContain("The key was revoked");
  });

  it("shows a refusal beside the form (422) and keeps what was typed", async () => {
    const sent = await post("/keys", { name: "No scopes <b>bold</b>" });
    expect(sent.status).toBe(422);
    expect(sent.text).toContain("The key was not created");
    // Escaped by construction: the name is text, never markup.
    expect(sent.text).toContain("No scopes &lt;b>bold&lt;/b>");
    expect(sent.text).not.toContain("<b>bold</b>");
  });

  it("reads a form the host's express.urlencoded() already parsed", async () => {
    const cookie = userCookie("owner");
    const csrf = csrfOf((await get("/webhooks", cookie)).text);
    const sent = await post(
      "/keys",
      { name: "Parsed by the host", scopes: "applications:read" },
      { csrf, base: `${host.origin}/parsed${BASE_PATH}` },
    );
    expect(sent.status).toBe(303);
    expect(newKeyOf((await follow(host, sent, cookie)).text)).toMatch(/^svc_live_/);
  });
});

describe("the key form's permissions", () => {
  it("offers webhooks:read and webhooks:write; a key made with webhooks:write holds it", async () => {
    const form = await get("/keys");
    for (const scope of ["webhooks:read", "webhooks:write"]) {
      expect(form.text).toContain(`name="scopes" value="${scope}"`);
    }
    const sent = await post("/keys", { name: "Zapier", scopes: "webhooks:write" });
    expect(sent.status).toBe(303);
    const record = (await host.api.keys.list(COMPANY_A)).find((key) => key.name === "Zapier");
    expect(record?.scopes).toEqual(["webhooks:write"]);
    // The company's active keys are counted by the tests after this one: this key goes.
    await host.api.keys.revoke(COMPANY_A, record?.id ?? "");
  });
});

describe("the endpoint limit", () => {
  it("a company at its limit (20) gets the form back with the limit's message, and no endpoint more", async () => {
    const bob = userCookie("owner", COMPANY_B, "bob");
    const made = [];
    for (let n = 0; n < 20; n++) {
      const { endpoint } = await host.dispatcher.endpoints.create({
        companyId: COMPANY_B,
        url: `${host.receiver.url}?n=${n}`,
        events: ["job.created"],
      });
      made.push(endpoint.id);
    }
    try {
      const sent = await post("/webhooks", { url: host.receiver.url, events: "job.created" }, { cookie: bob });
      expect(sent.status).toBe(422);
      expect(sent.text).toContain("The company has 20 webhook endpoints, the most it may have");
      expect(await host.dispatcher.endpoints.list(COMPANY_B)).toHaveLength(20);
    } finally {
      for (const id of made) await host.dispatcher.endpoints.delete(COMPANY_B, id);
    }
  });
});

describe("forms that act once", () => {
  const owner = userCookie("owner");
  const countKeys = async (name: string) =>
    (await host.api.keys.list(COMPANY_A)).filter((key) => key.name === name).length;

  it("shows a new key once, never in a URL: a reload of its page shows it no more", async () => {
    const sent = await post("/keys", { name: "Shown once", scopes: "jobs:read" });
    const location = sent.headers.get("location") ?? "";
    expect(location).not.toContain("svc_live_");
    expect(sent.text).not.toContain("svc_live_");
    // The key rides in a sealed, HttpOnly cookie of the console's path, for two minutes.
    const [shownLine] = sent.headers.getSetCookie();
    expect(shownLine).toMatch(
      /^hireport_console_shown=[^;]+; Path=\/settings\/api; Max-Age=120; HttpOnly; SameSite=Lax$/,
    );
    expect(shownLine).not.toContain("svc_live_");
    const page = await follow(host, sent, owner);
    const key = newKeyOf(page.text) ?? "";
    expect(key).toMatch(/^svc_live_/);
    expect(page.text).toContain("Your new key “Shown once”");
    // The page that shows it forgets it: the browser drops the cookie, and a reload shows no key.
    expect(setCookieOf(page, "hireport_console_shown")).toBe("hireport_console_shown=");
    expect(page.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    const reload = await get(location.slice(BASE_PATH.length), owner);
    expect(reload.status).toBe(200);
    expect(newKeyOf(reload.text)).toBeUndefined();
    expect(reload.text).not.toContain(key);
    expect(reload.text).toContain("The new key was shown once and is not shown again");
    // The cookie is of its creator only: another person of the company, given it, sees no key.
    const someoneElse = await follow(host, sent, userCookie("owner", COMPANY_A, "someone-else"));
    expect(newKeyOf(someoneElse.text)).toBeUndefined();
    // A forged cookie shows nothing either.
    const forged = await get(location.slice(BASE_PATH.length), `${owner}; hireport_console_shown=abc.def.ghi.jkl.mno`);
    expect(newKeyOf(forged.text)).toBeUndefined();
    expect(await countKeys("Shown once")).toBe(1);
  });

  it("creates one key for a form sent twice at once (a double click), and shows it on both answers' page", async () => {
    const csrf = csrfOf((await get("/keys", owner)).text);
    const fields = { name: "Double click", scopes: "jobs:read" };
    const [first, second] = await Promise.all([post("/keys", fields, { csrf }), post("/keys", fields, { csrf })]);
    expect(await countKeys("Double click")).toBe(1);
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    // The repeat answers as the first did: whichever page the browser opens shows the one key.
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect(newKeyOf((await follow(host, second, owner)).text)).toMatch(/^svc_live_/);
    // Sent again later, the same form still creates nothing.
    const again = await post("/keys", fields, { csrf });
    expect(again.status).toBe(303);
    expect(await countKeys("Double click")).toBe(1);
  });

  it("refuses a repeat that another process of the host receives: 303 back with 'already done', nothing twice", async () => {
    // A second console over the same storage stands for another process behind a load balancer.
    const { createConsole } = await import("../src/index");
    const elsewhere = createConsole({
      api: host.api,
      dispatcher: host.dispatcher,
      basePath: BASE_PATH,
      secret: SECRET,
      authorize: (await import("./support/host")).testAuthorize,
      // A Web Request built here has no Host header to take the origin from.
      allowedOrigins: [host.origin],
    });
    const csrf = csrfOf((await get("/keys", owner)).text);
    const fields = { _csrf: csrf, name: "Two processes", scopes: "jobs:read" };
    expect((await post("/keys", fields, { csrf })).status).toBe(303);
    const repeat = await elsewhere.fetch(
      new Request(`${host.consoleUrl}/keys`, {
        method: "POST",
        headers: { cookie: owner, origin: host.origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
        redirect: "manual",
      }),
    );
    expect(repeat.status).toBe(303);
    expect(repeat.headers.get("location")).toBe(`${BASE_PATH}/keys?done=already-done`);
    expect(repeat.headers.get("set-cookie")).toBeNull();
    expect(await countKeys("Two processes")).toBe(1);
    expect((await get("/keys?done=already-done")).text).toContain("That form had already been sent");
  });

  it("creates, revokes and changes endpoints once for a form sent twice; another form of the same page still works", async () => {
    const page = await get("/webhooks", owner);
    const csrf = csrfOf(page.text);
    const fields = { url: host.receiver.url, description: "Twice", events: "job.created" };
    const [a, b] = await Promise.all([post("/webhooks", fields, { csrf }), post("/webhooks", fields, { csrf })]);
    expect(a.headers.get("location")).toBe(b.headers.get("location"));
    const endpoints = (await host.dispatcher.endpoints.list(COMPANY_A)).filter((e) => e.description === "Twice");
    expect(endpoints).toHaveLength(1);
    const id = endpoints[0]?.id ?? "";

    const detail = csrfOf((await get(`/webhooks/${id}`, owner)).text);
    const received = host.receiver.received;
    const tests = await Promise.all([1, 2, 3].map(() => post(`/webhooks/${id}/test`, {}, { csrf: detail })));
    expect(tests.map((sent) => sent.status)).toEqual([303, 303, 303]);
    expect(host.receiver.received - received).toBe(1);
    // The same page's pause form is another form: it acts (once).
    expect((await post(`/webhooks/${id}/pause`, {}, { csrf: detail })).headers.get("location")).toBe(
      `${BASE_PATH}/webhooks/${id}?done=endpoint-paused`,
    );
    expect((await host.dispatcher.endpoints.get(COMPANY_A, id)).status).toBe("paused");
    await host.dispatcher.endpoints.delete(COMPANY_A, id);
  });
});

describe("forged and refused changes", () => {
  it("refuses a form without its CSRF token, with another person's token, or a stale one", async () => {
    const before = (await host.api.keys.list(COMPANY_A)).length;
    expect((await post("/keys", { name: "x", scopes: "jobs:read" }, { csrf: null })).status).toBe(403);
    const otherToken = csrfOf((await get("/webhooks", userCookie("owner", COMPANY_A, "someone-else"))).text);
    expect((await post("/keys", { name: "x", scopes: "jobs:read" }, { csrf: otherToken })).status).toBe(403);
    expect((await post("/keys", { name: "x", scopes: "jobs:read" }, { csrf: "1.abc" })).status).toBe(403);
    expect((await host.api.keys.list(COMPANY_A)).length).toBe(before);
  });

  it("refuses a form from another origin, a cross-site fetch, and one that names no origin at all", async () => {
    const before = (await host.api.keys.list(COMPANY_A)).length;
    const fields = { name: "forged", scopes: "jobs:read" };
    expect((await post("/keys", fields, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/keys", fields, { origin: "null" })).status).toBe(403);
    expect((await post("/keys", fields, { site: "cross-site" })).status).toBe(403);
    expect((await post("/keys", fields, { origin: null })).status).toBe(403);
    // Sec-Fetch-Site alone, same-origin, is enough (a browser that leaves Origin out).
    expect(
      (await post("/keys", { ...fields, name: "same-origin" }, { origin: null, site: "same-origin" })).status,
    ).toBe(303);
    expect((await host.api.keys.list(COMPANY_A)).length).toBe(before + 1);
  });

  it("lets a member read but change nothing (403), and shows members no forms", async () => {
    const member = userCookie("member");
    const page = await get("/keys", member);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Create a key");
    expect(page.text).not.toContain("Revoke…");
    // A member's pages have no form: a token is made the way the console makes its own.
    const { id } = await createKey("For the member test");
    const memberToken = await tokenFor(member);
    expect(
      (await post("/keys", { name: "m", scopes: "jobs:read" }, { cookie: member, csrf: memberToken })).status,
    ).toBe(403);
    expect((await post(`/keys/${id}/revoke`, {}, { cookie: member, csrf: memberToken })).status).toBe(403);
    expect((await host.api.keys.get(COMPANY_A, id)).revokedAt).toBeNull();
  });

  it("answers 404 for another company's key and endpoint, and changes nothing", async () => {
    const { key, id } = await createKey("Company A's key");
    const { endpoint } = await host.dispatcher.endpoints.create({
      companyId: COMPANY_A,
      url: host.receiver.url,
      events: ["job.created"],
    });
    const other = userCookie("owner", COMPANY_B, "bob");
    expect((await get(`/keys/${id}/revoke`, other)).status).toBe(404);
    expect((await post(`/keys/${id}/revoke`, {}, { cookie: other })).status).toBe(404);
    expect((await get(`/webhooks/${endpoint.id}`, other)).status).toBe(404);
    expect((await post(`/webhooks/${endpoint.id}/pause`, {}, { cookie: other })).status).toBe(404);
    expect((await post(`/webhooks/${endpoint.id}/reveal`, {}, { cookie: other })).status).toBe(404);
    expect((await callApi(key)).status).toBe(200);
    expect((await host.dispatcher.endpoints.get(COMPANY_A, endpoint.id)).status).toBe("active");
    expect((await get("/keys", other)).text).not.toContain("Company A&#39;s key");
    await host.dispatcher.endpoints.delete(COMPANY_A, endpoint.id);
  });
});

/** A CSRF token for a principal whose pages have no form (a member): read from a page's hidden field is impossible. */
async function tokenFor(cookie: string): Promise<string> {
  const { csrfToken } = await import("../src/csrf");
  const { testAuthorize, SECRET } = await import("./support/host");
  const principal = testAuthorize({ headers: { cookie } });
  if (!principal) throw new Error("no principal");
  return csrfToken(SECRET, principal, new Date());
}

describe("usage", () => {
  it("draws requests per day as an SVG with a title, a description and a table, lists them with filters, and pages", async () => {
    const { key } = await createKey("Usage key");
    for (let i = 0; i < 3; i++) expect((await callApi(key)).status).toBe(200);
    expect((await callApi(key, "/jobs/job_missing")).status).toBe(404);
    const page = await get("/usage");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<svg class="chart"[^>]*role="img"[^>]*aria-labelledby="usage-chart-title usage-chart-desc"/,
    );
    expect(page.text).toContain('<title id="usage-chart-title">Requests per day for the last 30 days');
    expect(page.text).toMatch(/<desc id="usage-chart-desc">\d+ requests from /);
    expect(page.text).toContain('<th scope="col">Day (UTC)</th>');
    expect(page.text).toContain("<code>/jobs/{id}</code>");
    expect(page.text).toContain("Usage key");

    const notFound = await get("/usage?status=4xx");
    expect(notFound.text).toContain("<td>404</td>");
    expect(notFound.text).not.toContain("<td>200</td>");
    const byRoute = await get(`/usage?route=${encodeURIComponent("/jobs")}&status=200`);
    expect(byRoute.text).toContain("<td>200</td>");
    expect(byRoute.text).not.toContain("<code>/jobs/{id}</code>");
    const bad = await get("/usage?status=abc");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Check the filters");
  });

  it("exports the filtered requests as a streamed CSV that a spreadsheet cannot run as formulas", async () => {
    const { key } = await createKey('=HYPERLINK("https://evil.example","click")');
    expect((await callApi(key)).status).toBe(200);
    const response = await fetch(`${host.consoleUrl}/usage/export.csv?status=2xx`, {
      headers: { cookie: userCookie("member") },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="usage-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("time,key_id,key_name,method,route,status,duration_ms,request_id,ip");
    expect(lines.length).toBeGreaterThan(1);
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"",""click"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(lines.slice(1).every((line) => /,2\d\d,/.test(line))).toBe(true);
  });
});

describe("webhooks", () => {
  it("creates, edits, pauses (a notice on every page), resumes, tests, rotates and deletes an endpoint; secrets for owners only", async () => {
    const created = await post("/webhooks", {
      url: host.receiver.url,
      description: "ATS",
      events: ["job.created", "application.created"],
    });
    expect(created.status).toBe(303);
    const location = created.headers.get("location") ?? "";
    const id = /\/webhooks\/(we_[^?]+)\?done=endpoint-created$/.exec(location)?.[1] ?? "";
    expect(id).not.toBe("");
    expect(created.text).not.toContain("whsec_");

    const edited = await post(`/webhooks/${id}`, {
      url: host.receiver.url,
      description: "ATS sync",
      events: "job.created",
    });
    expect(edited.status).toBe(303);
    expect((await host.dispatcher.endpoints.get(COMPANY_A, id)).events).toEqual(["job.created"]);
    const invalid = await post(`/webhooks/${id}`, { url: "ftp://nope", events: "job.created" });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain("The endpoint was not changed");

    expect((await post(`/webhooks/${id}/pause`, {})).status).toBe(303);
    for (const path of ["/keys", "/usage", "/audit", `/webhooks/${id}`]) {
      const page = await get(path, userCookie("member"));
      expect(page.text, path).toMatch(
        /class="notice">The webhook endpoint <a [^>]+>[^<]+<\/a> is <strong>paused<\/strong>/,
      );
    }
    expect((await post(`/webhooks/${id}/resume`, {})).status).toBe(303);
    expect((await get("/keys")).text).not.toContain('class="notice"');

    const tested = await post(`/webhooks/${id}/test`, {});
    expect(tested.headers.get("location")).toBe(`${BASE_PATH}/webhooks/${id}?done=test-succeeded`);
    const detail = await get(`/webhooks/${id}`);
    expect(detail.text).toContain("webhook.test");
    expect(detail.text).toContain("<pre>ok, thanks</pre>");

    // Admins rotate but never see a secret; owners reveal it (POST answer only, never a URL).
    const admin = userCookie("admin");
    const adminPage = await get(`/webhooks/${id}`, admin);
    expect(adminPage.text).not.toContain("Reveal signing secret");
    expect((await post(`/webhooks/${id}/reveal`, {}, { cookie: admin })).status).toBe(403);
    const rotated = await post(`/webhooks/${id}/rotate`, {}, { cookie: admin });
    expect(rotated.status).toBe(303);
    expect(rotated.headers.get("location")).not.toContain("whsec_");
    expect(rotated.text).not.toContain("whsec_");
    const member = userCookie("member");
    expect((await get(`/webhooks/${id}`, member)).text).not.toMatch(/whsec_[A-Za-z0-9_-]{20}/);
    const revealed = await post(`/webhooks/${id}/reveal`, {});
    expect(revealed.status).toBe(303);
    expect(revealed.headers.get("location")).toMatch(new RegExp(`^${BASE_PATH}/webhooks/${id}\\?shown=[\\w-]+$`));
    expect(revealed.text).not.toContain("whsec_");
    const revealedPage = await follow(host, revealed, userCookie("owner"));
    const secret = /<code id="signing-secret">(whsec_[^<]+)<\/code>/.exec(revealedPage.text)?.[1];
    expect(secret).toBe((await host.dispatcher.endpoints.revealSecret(COMPANY_A, id)).secret);
    const reloaded = await get(revealed.headers.get("location")?.slice(BASE_PATH.length) ?? "");
    expect(reloaded.text).not.toContain(secret);
    expect(reloaded.text).toContain("The signing secret was shown once");
    // An owner's rotation shows the new secret on the next page, once, as a reveal does.
    const ownerRotated = await follow(host, await post(`/webhooks/${id}/rotate`, {}), userCookie("owner"));
    expect(ownerRotated.text).toContain("The new signing secret");
    expect(ownerRotated.text).toMatch(/<code id="signing-secret">whsec_/);

    const confirm = await get(`/webhooks/${id}/delete`);
    expect(confirm.text).toContain("Delete the endpoint");
    expect((await post(`/webhooks/${id}/delete`, {})).headers.get("location")).toBe(
      `${BASE_PATH}/webhooks?done=endpoint-deleted`,
    );
    expect((await get(`/webhooks/${id}`)).status).toBe(404);

    const audit = await get("/audit");
    for (const action of [
      "webhook_endpoint.created",
      "webhook_endpoint.updated",
      "webhook_endpoint.paused",
      "webhook_endpoint.resumed",
      "webhook_endpoint.test_sent",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.secret_revealed",
      "webhook_endpoint.deleted",
      "key.created",
      "key.revoked",
    ]) {
      expect(audit.text, action).toContain(`<code>${action}</code>`);
    }
    expect(audit.text).not.toContain("whsec_");
  });
});

describe("search engines (the indexing option)", () => {
  it("lists the company's jobs with each service's last notice: what it said, when, the answer and its error", async () => {
    const job = await host.api.jobs.create(COMPANY_A, {
      title: "Pastry chef",
      description: "Bake.",
      location: "Paris, FR",
      status: "active",
    });
    const closed = await host.api.jobs.create(COMPANY_A, {
      title: "Night baker",
      description: "Bake.",
      status: "active",
    });
    await host.api.jobs.close(COMPANY_A, closed.id);
    const other = await host.api.jobs.create(COMPANY_B, { title: "Elsewhere", description: "x", status: "active" });
    const at = new Date("2026-11-20T09:30:00.000Z");
    const base = { seq: 1, error: null, closesAt: null, notifiedAt: at, status: 202 } as const;
    await host.storage.jobIndex.record({
      ...base,
      companyId: COMPANY_A,
      jobId: job.id,
      service: "indexnow",
      action: "updated",
    });
    await host.storage.jobIndex.record({
      ...base,
      companyId: COMPANY_A,
      jobId: job.id,
      service: "google",
      action: "updated",
      status: 403,
      error: "The service answered 403: Permission denied. Failed to verify the URL ownership.",
    });
    await host.storage.jobIndex.record({
      ...base,
      companyId: COMPANY_A,
      jobId: closed.id,
      service: "indexnow",
      action: "deleted",
      status: 200,
    });
    await host.storage.jobIndex.record({
      ...base,
      companyId: COMPANY_B,
      jobId: other.id,
      service: "indexnow",
      action: "updated",
    });

    const page = await get("/indexing");
    expect(page.status).toBe(200);
    expect(page.text).toContain(">Search engines</a>");
    const row = (id: string) => {
      const at = page.text.indexOf(id);
      return page.text.slice(page.text.lastIndexOf("<tr", at), page.text.indexOf("</tr>", at));
    };
    expect(row(job.id)).toContain("Pastry chef");
    expect(row(job.id)).toMatch(/Updated · 2026-11-20 09:30:00 UTC · <span[^>]*>202<\/span>/);
    expect(row(job.id)).toContain("403");
    expect(row(job.id)).toContain("Failed to verify the URL ownership.");
    expect(row(closed.id)).toMatch(/Removed · 2026-11-20 09:30:00 UTC · <span[^>]*>200<\/span>/);
    expect(page.text).not.toContain(other.id);
  });

  it("refuses members (403) and is not there without the option (404, no link)", async () => {
    const member = await get("/indexing", userCookie("member"));
    expect(member.status).toBe(403);
    expect(member.text).not.toContain("<table");
    expect((await get("/keys", userCookie("member"))).text).not.toContain(">Search engines</a>");

    const bare = await startHost({ indexing: null });
    try {
      const page = await getPage(bare, "/indexing", userCookie("owner"));
      expect(page.status).toBe(404);
      expect((await getPage(bare, "/keys", userCookie("owner"))).text).not.toContain(">Search engines</a>");
    } finally {
      await bare.close();
    }
  });
});

describe("portal links", () => {
  it("signs the opener in with a cookie scoped to the console's path and drops the token from the address", async () => {
    const link = await host.console.portalLink({
      companyId: COMPANY_A,
      role: "admin",
      actor: { id: "user_9", name: "Ada (portal)" },
      expiresIn: 60,
    });
    expect(link).toMatch(new RegExp(`^${BASE_PATH}/portal\\?token=`));
    const opened = await fetch(`${host.origin}${link}`, { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`${BASE_PATH}/keys`);
    const setCookie = opened.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^hireport_console=[^;]+; Path=\/settings\/api; Max-Age=3600; HttpOnly; SameSite=Lax$/);
    const session = setCookie.split(";")[0] ?? "";
    const page = await get("/keys", session);
    expect(page.status).toBe(200);
    expect(page.text).toContain("signed in as Ada (portal) (admin)");

    // A link is no session, and a session is no link.
    expect(
      (await get("/keys", `hireport_console=${new URL(link, host.origin).searchParams.get("token")}`)).status,
    ).toBe(401);
    const reused = await fetch(`${host.origin}${BASE_PATH}/portal?token=${session.split("=")[1]}`, {
      redirect: "manual",
    });
    expect(reused.status).toBe(401);
    expect((await fetch(`${host.origin}${BASE_PATH}/portal?token=forged`, { redirect: "manual" })).status).toBe(401);
  });
});

describe("Secure cookies", () => {
  const principal = { companyId: COMPANY_A, role: "owner", actor: { id: "user_s", name: "Sam" } };

  /** The `Set-Cookie` of opening a portal link of `target` through `serve`. */
  async function portalCookie(target: HireportConsole, serve: (path: string) => Promise<Response>): Promise<string> {
    const opened = await serve(await target.portalLink({ ...principal, expiresIn: 60 }));
    expect(opened.status).toBe(303);
    return opened.headers.get("set-cookie") ?? "";
  }

  it("are Secure when the request came over https, and not over plain http (auto)", async () => {
    const https = await portalCookie(host.console, (path) =>
      host.console.fetch(new Request(`https://console.example.com${path}`)),
    );
    expect(https).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    const http = await portalCookie(host.console, (path) => fetch(`${host.origin}${path}`, { redirect: "manual" }));
    expect(http).toMatch(/; HttpOnly; SameSite=Lax$/);
    expect(http).not.toContain("Secure");
  });

  it("trust X-Forwarded-Proto only as far as the framework trusts the proxy (Express trust proxy)", async () => {
    const serve = async (trustProxy: boolean) => {
      const app = express();
      if (trustProxy) app.set("trust proxy", "loopback");
      app.use(BASE_PATH, hireportExpress(host.console));
      const server = app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server.once("listening", resolve));
      const { port } = server.address() as AddressInfo;
      try {
        return await portalCookie(host.console, (path) =>
          fetch(`http://127.0.0.1:${port}${path}`, { headers: { "x-forwarded-proto": "https" }, redirect: "manual" }),
        );
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    };
    expect(await serve(true)).toContain("; Secure;");
    // Without trust proxy, anybody could send the header: it is not believed.
    expect(await serve(false)).not.toContain("Secure");
  });

  it("follow secureCookies: true over plain http (a proxy the framework is not told of), false in development", async () => {
    const secure = createConsole({
      api: host.api,
      dispatcher: host.dispatcher,
      basePath: BASE_PATH,
      secret: SECRET,
      secureCookies: true,
    });
    const viaHttp = await portalCookie(secure, (path) =>
      secure.fetch(new Request(`http://console.example.com${path}`)),
    );
    expect(viaHttp).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    const plain = createConsole({
      api: host.api,
      dispatcher: host.dispatcher,
      basePath: BASE_PATH,
      secret: SECRET,
      secureCookies: false,
    });
    const viaHttps = await portalCookie(plain, (path) =>
      plain.fetch(new Request(`https://console.example.com${path}`)),
    );
    expect(viaHttps).not.toContain("Secure");
  });

  it("make the one-time cookie of a new key Secure over https too", async () => {
    const session =
      (
        await portalCookie(host.console, (path) =>
          host.console.fetch(new Request(`https://console.example.com${path}`)),
        )
      ).split(";")[0] ?? "";
    const page = await host.console.fetch(
      new Request("https://console.example.com/settings/api/keys", { headers: { cookie: session } }),
    );
    const sent = await host.console.fetch(
      new Request("https://console.example.com/settings/api/keys", {
        method: "POST",
        headers: {
          cookie: session,
          origin: "https://console.example.com",
          host: "console.example.com",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ _csrf: csrfOf(await page.text()), name: "Over https", scopes: "jobs:read" }),
      }),
    );
    expect(sent.status).toBe(303);
    expect(sent.headers.get("set-cookie")).toMatch(
      /^hireport_console_shown=[^;]+; Path=\/settings\/api; Max-Age=120; HttpOnly; Secure; SameSite=Lax$/,
    );
  });
});

describe("webhooks: the signature scheme", () => {
  it("creates an endpoint with the scheme the form's select names, shows its public key, and changes it on edit", async () => {
    const form = await get("/webhooks");
    expect(form.text).toContain('<select id="new-scheme" name="signatureScheme">');
    expect(form.text).toMatch(/<option value="service" selected[^>]*>/);
    const created = await post("/webhooks", {
      url: host.receiver.url,
      events: "job.created",
      signatureScheme: "standard-v1a",
    });
    expect(created.status).toBe(303);
    const id = /\/webhooks\/(we_[^?]+)\?done=endpoint-created$/.exec(created.headers.get("location") ?? "")?.[1] ?? "";
    const endpoint = await host.dispatcher.endpoints.get(COMPANY_A, id);
    expect(endpoint.signatureScheme).toBe("standard-v1a");
    const page = await get(`/webhooks/${id}`, userCookie("member"));
    expect(page.text).toContain(`<code>${endpoint.publicKey}</code>`);
    expect(page.text).not.toContain("whsk_");
    expect((await get(`/webhooks/${id}`)).text).toMatch(/<option value="standard-v1a" selected[^>]*>/);

    const edited = await post(`/webhooks/${id}`, {
      url: host.receiver.url,
      events: "job.created",
      signatureScheme: "standard-v1",
    });
    expect(edited.status).toBe(303);
    expect((await host.dispatcher.endpoints.get(COMPANY_A, id)).signatureScheme).toBe("standard-v1");
    const refused = await post(`/webhooks/${id}`, {
      url: host.receiver.url,
      events: "job.created",
      signatureScheme: "v9",
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("The endpoint was not changed");
  });
});

describe("webhooks: ordered delivery and the throttle", () => {
  it("creates an endpoint ordered and throttled from the form, shows both, and clears them on edit", async () => {
    const form = await get("/webhooks");
    expect(form.text).toContain('<input type="checkbox" name="ordered"/>');
    expect(form.text).toContain('<input id="new-rate" type="number" name="maxPerSecond"');
    const created = await post("/webhooks", {
      url: host.receiver.url,
      events: "job.created",
      ordered: "on",
      maxPerSecond: "12",
    });
    expect(created.status).toBe(303);
    const id = /\/webhooks\/(we_[^?]+)\?done=endpoint-created$/.exec(created.headers.get("location") ?? "")?.[1] ?? "";
    expect(await host.dispatcher.endpoints.get(COMPANY_A, id)).toMatchObject({ ordered: true, maxPerSecond: 12 });
    const page = await get(`/webhooks/${id}`);
    expect(page.text).toContain("in order, one at a time, at most 12 per second");
    expect(page.text).toContain('<input type="checkbox" name="ordered" checked/>');
    expect(page.text).toMatch(/<input id="edit-rate" type="number" name="maxPerSecond"[^>]* value="12"/);

    const refused = await post(`/webhooks/${id}`, { url: host.receiver.url, events: "job.created", maxPerSecond: "0" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("The endpoint was not changed");
    expect(await host.dispatcher.endpoints.get(COMPANY_A, id)).toMatchObject({ ordered: true, maxPerSecond: 12 });

    const edited = await post(`/webhooks/${id}`, { url: host.receiver.url, events: "job.created", maxPerSecond: "" });
    expect(edited.status).toBe(303);
    expect(await host.dispatcher.endpoints.get(COMPANY_A, id)).toMatchObject({ ordered: false, maxPerSecond: null });
    expect((await get(`/webhooks/${id}`)).text).toContain("in parallel");
  });
});
