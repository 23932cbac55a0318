/**
 * An owner uses the console in a real browser (Debian's Chromium driven by playwright-core): signs
 * in on the host's own page (the test `authorize` reads its cookie), creates a key and copies it,
 * calls the API with it, revokes it, reads the usage chart and the requests, adds a webhook
 * endpoint for a local receiver, sends a test, sees the delivery with its answer, makes the
 * receiver fail, resends and recovers. A member changes nothing (403) and sees no secret; a forged
 * form without the CSRF token, and one posted from another origin, are refused; another company's
 * key and endpoint ids answer 404. No form acts twice: a reload of the page that shows a new key,
 * and double clicks, create one key and one endpoint. A portal link signs a person in too.
 *
 * Every kind of page the console serves goes through the Nu HTML checker and axe-core (see
 * support/page-checks.ts): no HTML error, no accessibility violation.
 *
 * Where Chromium (or, for the page checks, Java) cannot start the test fails with CI=true, and is
 * skipped with a loud warning otherwise.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser";
import { BASE_PATH, COMPANY_A, COMPANY_B, startHost, type TestHost } from "./support/host";
import { formatHtmlMessages, formatViolations, javaRuns, PageCollector } from "./support/page-checks";

let browser: Browser | null = null;
let host: TestHost;

beforeAll(async () => {
  browser = await launchBrowser("@hireport/console");
  host = await startHost();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Waits until `check` holds, polling the storage (the dispatcher sends in the background). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function deliveriesOf(endpointId: string) {
  return (await host.dispatcher.deliveries.list(COMPANY_A, endpointId, { limit: 100 })).data;
}

/** Opens every `<details>` of the page, so that axe-core checks what they hold. */
async function openDetails(page: Page): Promise<void> {
  await page.locator("details").evaluateAll((all: HTMLDetailsElement[]) => {
    for (const details of all) details.open = true;
  });
}

function api(key: string): Promise<Response> {
  return fetch(`${host.apiUrl}/jobs`, { headers: { authorization: `Bearer ${key}` } });
}

describe("the console in Chromium", () => {
  it("lets an owner do everything the application offers", async (context) => {
    if (!browser) return context.skip();
    const session: BrowserContext = await browser.newContext();
    await session.grantPermissions(["clipboard-read", "clipboard-write"], { origin: host.origin });
    const page: Page = await session.newPage();
    page.setDefaultTimeout(5_000);

    // Sign in on the host's own page: the console's `authorize` reads the host's session cookie.
    await page.goto(`${host.origin}/signin`);
    await page.getByLabel("Name").fill("Olivia");
    await page.getByLabel("Role").selectOption("owner");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${host.consoleUrl}/keys`);
    await expect(page.locator("h1").textContent()).resolves.toBe("API keys");
    expect(await page.locator("header").textContent()).toContain("signed in as Olivia (owner)");

    // A key: created, shown once, copied, used, revoked.
    await page.getByLabel("Name").fill("Browser key");
    await page.getByLabel("jobs:read").check();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("#new-key").textContent()) ?? "";
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    const copied = page.getByRole("button", { name: "Copied" });
    await copied.waitFor({ state: "visible" });
    expect(await copied.count()).toBe(1);
    expect(await page.getByRole("button", { name: "Copy", exact: true }).count()).toBe(0);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect((await api(key)).status).toBe(200);
    await page.goto(`${host.consoleUrl}/keys`);
    expect(await page.content()).not.toContain(key);
    const row = page.getByRole("row", { name: /Browser key/ });
    await row.getByRole("link", { name: "Revoke…" }).click();
    await page.getByRole("button", { name: "Revoke the key" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toContain("The key was revoked");
    expect((await api(key)).status).toBe(401);

    // Usage: the chart and the requests just made.
    await page.getByRole("link", { name: "Usage" }).click();
    const chart = page.getByRole("img", { name: /Requests per day for the last 30 days/ });
    expect(await chart.isVisible()).toBe(true);
    // The call made with the key while it worked (a revoked key's calls belong to no company).
    const requests = page.getByRole("table", { name: "Requests, newest first" });
    expect(await requests.getByRole("row").filter({ hasText: "/jobs" }).filter({ hasText: "200" }).count()).toBe(1);

    // Webhooks: an endpoint for the local receiver, a test, a failure, a resend, a recovery.
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("Address (https)").fill(host.receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const endpointId = /\/webhooks\/(we_[^?]+)/.exec(page.url())?.[1] ?? "";
    expect(endpointId).not.toBe("");
    await page.getByRole("button", { name: "Reveal signing secret" }).click();
    expect(await page.locator("#signing-secret").textContent()).toMatch(/^whsec_/);
    expect(page.url()).not.toContain("whsec_");
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toBe("The test event was delivered.");
    expect(await page.locator(`tr[id^="dlv_"]`).first().textContent()).toContain("ok, thanks");

    host.receiver.answer = { status: 500, body: "receiver is down" };
    await host.api.jobs.create(COMPANY_A, { title: "Welder" });
    await until(async () => (await deliveriesOf(endpointId)).some((d) => d.status === "failed"), "a failed delivery");
    await page.reload();
    const failed = page.locator("tr[id^='dlv_']").filter({ hasText: "job.created" }).first();
    expect(await failed.textContent()).toContain("receiver is down");
    expect(await failed.locator("td.status-failed").first().textContent()).toBe("failed");

    host.receiver.answer = { status: 200, body: "back up" };
    await failed.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toBe("The delivery was queued to be sent again.");
    await until(async () => (await deliveriesOf(endpointId)).every((d) => d.status === "succeeded"), "the resend");

    host.receiver.answer = { status: 503, body: "down again" };
    await host.api.jobs.create(COMPANY_A, { title: "Plumber" });
    await host.api.jobs.create(COMPANY_A, { title: "Painter" });
    await until(
      async () => (await deliveriesOf(endpointId)).filter((d) => d.status === "failed").length === 2,
      "two failed deliveries",
    );
    host.receiver.answer = { status: 200, body: "recovered" };
    await page.getByRole("button", { name: "Recover" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toContain("were queued to be sent again");
    await until(async () => (await deliveriesOf(endpointId)).every((d) => d.status === "succeeded"), "the recovery");
    await page.reload();
    expect(await page.locator("main").textContent()).toContain("recovered");

    await page.getByRole("link", { name: "Audit log" }).click();
    const audit = (await page.locator("main table").textContent()) ?? "";
    for (const action of [
      "key.created",
      "key.revoked",
      "webhook_endpoint.deliveries_recovered",
      "webhook_delivery.resent",
    ]) {
      expect(audit).toContain(action);
    }
    expect(audit).toContain("Olivia");
    await session.close();
  });

  /**
   * Submits a form built in the page (the fields given, nothing else) and waits for the page it
   * leads to; resolves with that answer's status.
   */
  async function postFrom(page: Page, action: string, fields: Record<string, string> = {}): Promise<number> {
    const loaded = page.waitForEvent("load");
    const answered = page.waitForResponse(
      (response) => response.url().endsWith(action) && response.request().method() === "POST",
    );
    await page.evaluate(
      ([target, values]) => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = target;
        for (const [name, value] of Object.entries(values)) {
          const input = document.createElement("input");
          input.type = "hidden";
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      [action, fields] as const,
    );
    const answer = await answered;
    await loaded;
    return answer.status();
  }

  it("lets a member change nothing and see no secret; refuses forged forms; hides other companies' records", async (context) => {
    if (!browser) return context.skip();
    const { key } = await host.api.keys.create({ companyId: COMPANY_A, name: "Target key", scopes: ["jobs:read"] });
    const target = (await host.api.keys.list(COMPANY_A)).find((record) => record.name === "Target key");
    const { endpoint, secret } = await host.dispatcher.endpoints.create({
      companyId: COMPANY_A,
      url: host.receiver.url,
      events: ["job.created"],
    });
    const url = new URL(host.origin);

    // A member reads the keys and the endpoint, with no form, no secret, and every change refused.
    const memberSession = await browser.newContext();
    await memberSession.addCookies([
      { name: "test_user", value: encodeURIComponent("member:co_acme:Max"), url: host.origin },
    ]);
    const member = await memberSession.newPage();
    await member.goto(`${host.consoleUrl}/keys`);
    expect(await member.getByRole("row", { name: /Target key/ }).count()).toBe(1);
    expect(await member.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await member.getByRole("link", { name: "Revoke…" }).count()).toBe(0);
    await member.goto(`${host.consoleUrl}/webhooks/${endpoint.id}`);
    expect(await member.locator("main").textContent()).toContain(endpoint.url);
    expect(await member.getByRole("button").count()).toBe(0);
    // Only the hint that tells secrets apart (`whsec_` and 4 characters), never the secret.
    expect(await member.content()).toContain(`${secret.slice(0, 10)}…`);
    expect(await member.content()).not.toContain(secret);
    // Forms the member builds in the page (no CSRF token: the member's pages have none).
    expect(await postFrom(member, `${BASE_PATH}/keys/${target?.id}/revoke`)).toBe(403);
    expect(await postFrom(member, `${BASE_PATH}/webhooks/${endpoint.id}/reveal`)).toBe(403);
    expect(await member.content()).not.toContain(secret);
    await memberSession.close();

    // An owner's own page, a form forged in it without the CSRF token: refused, nothing changes.
    const ownerSession = await browser.newContext();
    await ownerSession.addCookies([
      { name: "test_user", value: encodeURIComponent("owner:co_acme:Olivia"), url: host.origin },
    ]);
    const owner = await ownerSession.newPage();
    await owner.goto(`${host.consoleUrl}/keys`);
    expect(await postFrom(owner, `${BASE_PATH}/keys/${target?.id}/revoke`)).toBe(403);
    expect(await postFrom(owner, `${BASE_PATH}/keys/${target?.id}/revoke`, { _csrf: "1.forged" })).toBe(403);
    expect((await host.api.keys.get(COMPANY_A, target?.id ?? "")).revokedAt).toBeNull();

    // The owner of another company: the first company's key and endpoint ids answer 404.
    const otherSession = await browser.newContext();
    await otherSession.addCookies([
      { name: "test_user", value: encodeURIComponent(`owner:${COMPANY_B}:Oscar`), url: host.origin },
    ]);
    const other = await otherSession.newPage();
    for (const path of [`/keys/${target?.id}/revoke`, `/webhooks/${endpoint.id}`, `/webhooks/${endpoint.id}/delete`]) {
      const answer = await other.goto(`${host.consoleUrl}${path}`);
      expect({ path, status: answer?.status() }).toEqual({ path, status: 404 });
    }
    // With a token of its own page, a change aimed at them is 404 too, and changes nothing.
    await other.goto(`${host.consoleUrl}/keys`);
    const csrf = (await other.locator('input[name="_csrf"]').first().getAttribute("value")) ?? "";
    expect(await postFrom(other, `${BASE_PATH}/keys/${target?.id}/revoke`, { _csrf: csrf })).toBe(404);
    expect(await postFrom(other, `${BASE_PATH}/webhooks/${endpoint.id}/reveal`, { _csrf: csrf })).toBe(404);
    expect(await other.content()).not.toContain(secret);
    expect((await host.api.keys.get(COMPANY_A, target?.id ?? "")).revokedAt).toBeNull();
    await otherSession.close();

    // An owner signed in to the host visits a page of another origin (same site, another port)
    // whose form posts to the console: the browser sends the cookie, the console refuses.
    const evil: Server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end(
        `<!doctype html><form method="post" action="${host.consoleUrl}/keys/${target?.id}/revoke">
           <input type="hidden" name="_csrf" value="1.forged"><button>Win a prize</button></form>`,
      );
    });
    await new Promise<void>((resolve) => evil.listen(0, url.hostname, resolve));
    await owner.goto(`http://${url.hostname}:${(evil.address() as AddressInfo).port}/`);
    const [answer] = await Promise.all([
      owner.waitForResponse((response) => response.url().includes("/revoke")),
      owner.getByRole("button", { name: "Win a prize" }).click(),
    ]);
    expect(answer.status()).toBe(403);
    expect((await host.api.keys.get(COMPANY_A, target?.id ?? "")).revokedAt).toBeNull();
    expect((await api(key)).status).toBe(200);
    await ownerSession.close();
    await new Promise<void>((resolve) => evil.close(() => resolve()));
  });

  it("never acts twice: a reload after a new key, double clicks, a form sent twice at once (keys, endpoints)", async (context) => {
    if (!browser) return context.skip();
    const session = await browser.newContext();
    await session.addCookies([
      { name: "test_user", value: encodeURIComponent("owner:co_acme:Rita"), url: host.origin },
    ]);
    const page = await session.newPage();
    page.setDefaultTimeout(5_000);
    // Chromium asks before it sends a form again on reload: accept, as a hurried person would.
    page.on("dialog", (dialog) => void dialog.accept());
    const named = async (name: string) =>
      (await host.api.keys.list(COMPANY_A)).filter((record) => record.name === name).length;
    // A slow server, as under load: both sendings of a form are under way at once.
    const slow = <T extends object, K extends keyof T>(target: T, method: K) => {
      const original = target[method] as (...args: unknown[]) => Promise<unknown>;
      target[method] = (async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return original.apply(target, args);
      }) as T[K];
      return () => {
        target[method] = original as T[K];
      };
    };
    /**
     * Sends the form of `button` twice at once, into two new tabs, as a browser does when a second
     * click gets through (Chromium itself drops a second submission of a form while the first is
     * pending; a second tab, another browser or a retrying network do not). Resolves with the tabs,
     * on the pages the two answers led to.
     */
    const sendTwice = async (button: string): Promise<Page[]> => {
      const tabs: Page[] = [];
      const opened = (tab: Page) => void tabs.push(tab);
      session.on("page", opened);
      await page.evaluate((name) => {
        const submit = [...document.querySelectorAll("button")].find((item) => item.textContent?.trim() === name);
        const form = submit?.closest("form");
        if (!form) throw new Error(`no form for ${name}`);
        for (const target of ["first-tab", "second-tab"]) {
          form.target = target;
          form.submit();
        }
      }, button);
      await until(async () => tabs.length === 2, "two tabs");
      session.off("page", opened);
      await Promise.all(tabs.map((tab) => tab.waitForLoadState()));
      expect(tabs[0]?.url()).toBe(tabs[1]?.url()); // The repeat answers as the first did.
      return tabs;
    };
    // Create a key, then reload the page that shows it: no second key, and the key is not shown again.
    await page.goto(`${host.consoleUrl}/keys`);
    await page.getByLabel("Name").fill("Reloaded key");
    await page.getByLabel("jobs:read").check();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("#new-key").textContent()) ?? "";
    expect(key).toMatch(/^svc_live_/);
    expect(page.url()).toMatch(new RegExp(`^${host.consoleUrl}/keys\\?shown=[\\w-]+$`));
    expect(page.url()).not.toContain(key);
    await page.reload();
    expect(await page.locator("#new-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect(await page.locator("main").textContent()).toContain("The new key was shown once and is not shown again");
    expect(await named("Reloaded key")).toBe(1);
    await page.goBack().catch(() => undefined);
    await page.goForward().catch(() => undefined);
    expect(await named("Reloaded key")).toBe(1);

    // A double click on Create key: one key, shown on the page the browser ends on.
    await page.goto(`${host.consoleUrl}/keys`);
    await page.getByLabel("Name").fill("Double-clicked key");
    await page.getByLabel("jobs:read").check();
    await page.getByRole("button", { name: "Create key" }).dblclick();
    await page.waitForURL(/\/keys\?shown=/);
    expect(await page.locator("#new-key").textContent()).toMatch(/^svc_live_/);
    await page.reload();
    expect(await named("Double-clicked key")).toBe(1);

    // The same form sent twice at once: one key, shown once on the page both sendings lead to.
    await page.goto(`${host.consoleUrl}/keys`);
    await page.getByLabel("Name").fill("Twice-sent key");
    await page.getByLabel("jobs:read").check();
    const fastKeys = slow(host.api.keys, "create");
    const keyTabs = await sendTwice("Create key").finally(fastKeys);
    expect(keyTabs[0]?.url()).toMatch(/\/keys\?shown=/);
    const shownIn = await Promise.all(keyTabs.map((tab) => tab.locator("#new-key").count()));
    expect(shownIn).toContain(1); // The tab that opened its page first shows the key.
    await Promise.all(keyTabs.map((tab) => tab.close()));
    expect(await named("Twice-sent key")).toBe(1);

    // A double click on Add endpoint, then a reload: one endpoint.
    await page.goto(`${host.consoleUrl}/webhooks`);
    await page.getByLabel("Address (https)").fill(host.receiver.url);
    await page.getByLabel("Description (optional)").fill("Double-clicked endpoint");
    await page.getByRole("button", { name: "Add endpoint" }).dblclick();
    await page.waitForURL(/\/webhooks\/we_/);
    await page.reload();
    // And sent twice at once.
    await page.goto(`${host.consoleUrl}/webhooks`);
    await page.getByLabel("Address (https)").fill(host.receiver.url);
    await page.getByLabel("Description (optional)").fill("Double-clicked endpoint");
    const fastEndpoints = slow(host.dispatcher.endpoints, "create");
    const endpointTabs = await sendTwice("Add endpoint").finally(fastEndpoints);
    const created = endpointTabs[0]?.url() ?? "";
    expect(created).toMatch(/\/webhooks\/we_[^?]+\?done=endpoint-created$/);
    await Promise.all(endpointTabs.map((tab) => tab.close()));
    await page.goto(created);
    await page.reload();
    const endpoints = (await host.dispatcher.endpoints.list(COMPANY_A)).filter(
      (endpoint) => endpoint.description === "Double-clicked endpoint",
    );
    expect(endpoints).toHaveLength(2); // One from the double click, one from the form sent twice.

    // Reveal the signing secret, reload: shown once, and in no URL.
    await page.getByRole("button", { name: "Reveal signing secret" }).dblclick();
    await page.waitForURL(/\?shown=/);
    const secret = (await page.locator("#signing-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    expect(page.url()).not.toContain(secret);
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await session.close();
  });

  it("signs a person in from a portal link, and the token leaves the address at once", async (context) => {
    if (!browser) return context.skip();
    const session = await browser.newContext();
    const page = await session.newPage();
    const link = await host.console.portalLink({ companyId: COMPANY_A, role: "admin", actor: "Ada (admin)" });
    await page.goto(`${host.origin}${link}`);
    expect(page.url()).toBe(`${host.consoleUrl}/keys`);
    expect(await page.locator("header").textContent()).toContain("signed in as Ada (admin) (admin)");
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(1);
    // The session is the cookie, scoped to the console's path: a second visit needs no link.
    await page.goto(`${host.consoleUrl}/usage`);
    expect(await page.locator("h1").textContent()).toBe("Usage");
    await session.close();
  });

  it("serves every kind of page with no Nu HTML checker error and no axe-core violation", async (context) => {
    if (!browser) return context.skip();
    if (!javaRuns("@hireport/console")) return context.skip();
    const started = Date.now();
    const pages = new PageCollector();
    const job = await host.api.jobs.create(COMPANY_A, { title: "Page checker", status: "active" });
    await host.api.applications.create(COMPANY_A, {
      job_id: job.id,
      candidate: { name: "Tim Berners-Lee", email: "tim@example.com" },
    });
    const signedIn = async (role: string, company = COMPANY_A) => {
      const session = await browser?.newContext();
      if (!session) throw new Error("no browser");
      await session.addCookies([
        { name: "test_user", value: encodeURIComponent(`${role}:${company}:Pat`), url: host.origin },
      ]);
      const tab = pages.watch(await session.newPage());
      tab.setDefaultTimeout(5_000);
      return tab;
    };
    /** Turns off the browser's own checks of the form of `button`, so the server's refusal shows. */
    const noValidate = (tab: Page, button: string) =>
      tab.locator("form", { has: tab.getByRole("button", { name: button }) }).evaluate((form: HTMLFormElement) => {
        form.noValidate = true;
      });

    // Signed out.
    const anonymous = pages.watch(await (await browser.newContext()).newPage());
    await anonymous.goto(`${host.consoleUrl}/keys`);
    await pages.collect(anonymous, "signed out: sign in first", 401);
    const link = await host.console.portalLink({ companyId: COMPANY_A, role: "owner", actor: "Pat" });
    await anonymous.goto(`${host.origin}${link.slice(0, -6)}AAAAAA`);
    await pages.collect(anonymous, "portal link that cannot be used", 401);
    await anonymous.context().close();

    const page = await signedIn("owner");
    // Keys.
    await page.goto(`${host.consoleUrl}/keys`);
    await pages.collect(page, "keys");
    await noValidate(page, "Create key");
    await page.getByRole("button", { name: "Create key" }).click();
    await pages.collect(page, "keys: the form refused", 422);
    await page.getByLabel("Name").fill("Checked key");
    await page.getByLabel("jobs:read").check();
    await page.getByRole("button", { name: "Create key" }).click();
    await pages.collect(page, "keys: a new key, shown once");
    await page.reload();
    await pages.collect(page, "keys: the new key's page again, the key not shown");
    await page
      .getByRole("row", { name: /Checked key/ })
      .getByRole("link", { name: "Revoke…" })
      .click();
    await pages.collect(page, "revoke a key: confirm");
    await page.getByRole("button", { name: "Revoke the key" }).click();
    await pages.collect(page, "keys: after a revoke");

    // Usage.
    await page.goto(`${host.consoleUrl}/usage`);
    await pages.collect(page, "usage");
    await page.goto(`${host.consoleUrl}/usage?status=abc&from=yesterday&to=2026-02-31`);
    await pages.collect(page, "usage: filters refused", 400);

    // Webhooks: the list, an endpoint, its deliveries, its forms.
    await page.goto(`${host.consoleUrl}/webhooks`);
    // An address the browser takes and the server refuses (not http or https).
    await page.getByLabel("Address (https)").fill("ftp://example.com/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await pages.collect(page, "webhooks: the form refused", 422);
    await page.getByLabel("Address (https)").fill(host.receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await pages.collect(page, "endpoint: just created");
    await page.goto(`${host.consoleUrl}/webhooks`);
    await pages.collect(page, "webhooks");
    await page.goBack();
    await page.getByRole("button", { name: "Reveal signing secret" }).click();
    await pages.collect(page, "endpoint: the signing secret, shown once");
    host.receiver.answer = { status: 500, body: "receiver is down" };
    await page.getByRole("button", { name: "Send test event" }).click();
    await pages.collect(page, "endpoint: a failed delivery");
    host.receiver.answer = { status: 200, body: "ok, thanks" };
    await page.getByRole("button", { name: "Send test event" }).click();
    await pages.collect(page, "endpoint: deliveries, failed and delivered");
    // The health charts have a bar for the hour of the two attempts (two if the hour turned); their table is opened for axe.
    expect(await page.locator('svg[aria-labelledby="health-rate-title health-rate-desc"] rect').count()).toBe(1);
    await page.reload();
    await openDetails(page);
    await pages.collect(page, "endpoint: health, the figures' table open");
    await page.getByRole("link", { name: "Failed" }).click();
    await pages.collect(page, "endpoint: deliveries, only the failed");
    await noValidate(page, "Recover");
    await page.getByLabel("Send again every failed delivery created since (UTC)").fill("");
    await page.getByRole("button", { name: "Recover" }).click();
    await pages.collect(page, "endpoint: recovery refused", 422);
    await page.getByLabel("Address (https)").fill("ftp://example.com/hooks");
    await page.getByRole("button", { name: "Save" }).click();
    await pages.collect(page, "endpoint: the edit form refused", 422);
    await page.getByRole("button", { name: "Pause" }).click();
    await pages.collect(page, "endpoint: paused");
    await page.getByRole("link", { name: "Delete…" }).click();
    await pages.collect(page, "delete an endpoint: confirm");
    await page.goto(`${host.consoleUrl}/webhooks`);
    await page.getByRole("link", { name: "The event types" }).click();
    await openDetails(page);
    await pages.collect(page, "webhook event catalog, the schemas open");

    // The audit log and candidates.
    await page.goto(`${host.consoleUrl}/audit`);
    await pages.collect(page, "audit log");
    await page.goto(`${host.consoleUrl}/candidates`);
    await pages.collect(page, "candidates");
    await noValidate(page, "Download the export");
    await page.locator("#export-email").fill("");
    await page.getByRole("button", { name: "Download the export" }).click();
    await pages.collect(page, "candidates: the export refused", 422);
    await page.goto(`${host.consoleUrl}/candidates`);
    await page.locator("#erase-email").fill("tim@example.com");
    await page
      .locator("form", { has: page.locator("#erase-email") })
      .getByRole("button")
      .click();
    await pages.collect(page, "candidates: erase, review");
    await page.getByRole("button", { name: "Erase the data" }).click();
    await pages.collect(page, "candidates: erased");
    // Search engines: a job with a taken notice and a refused one.
    const indexed = await host.api.jobs.create(COMPANY_A, { title: "Baker", description: "Bake.", status: "active" });
    const noticeAt = new Date("2026-11-20T09:30:00.000Z");
    await host.storage.jobIndex.record({
      companyId: COMPANY_A,
      jobId: indexed.id,
      service: "indexnow",
      seq: 1,
      action: "updated",
      notifiedAt: noticeAt,
      status: 202,
      error: null,
      closesAt: null,
    });
    await host.storage.jobIndex.record({
      companyId: COMPANY_A,
      jobId: indexed.id,
      service: "google",
      seq: 1,
      action: "updated",
      notifiedAt: noticeAt,
      status: 403,
      error: "The service answered 403: Permission denied.",
      closesAt: null,
    });
    await page.goto(`${host.consoleUrl}/indexing`);
    await pages.collect(page, "search engines");
    expect(await page.locator("main table").textContent()).toContain("Permission denied.");
    await page.goto(`${host.consoleUrl}/no-such-page`);
    await pages.collect(page, "not found", 404);
    await page.context().close();

    // A member: no forms, and no candidates page.
    const member = await signedIn("member");
    await member.goto(`${host.consoleUrl}/keys`);
    await pages.collect(member, "keys, as a member");
    await member.goto(`${host.consoleUrl}/candidates`);
    await pages.collect(member, "candidates, as a member (refused)", 403);
    await member.goto(`${host.consoleUrl}/indexing`);
    await pages.collect(member, "search engines, as a member (refused)", 403);
    await member.context().close();

    const checking = Date.now();
    const html = await pages.checkHtml();
    const errors = html.filter((item) => item.type === "error");
    const warnings = html.filter((item) => item.type === "warning");
    if (warnings.length > 0) console.warn(`Nu HTML checker warnings (not failures):\n${formatHtmlMessages(warnings)}`);
    console.info(
      `console page checks: ${pages.pages.size} pages in ${Date.now() - started} ms, the Nu HTML checker ${Date.now() - checking} ms of it`,
    );
    expect(pages.pages.size).toBe(33);
    expect(formatHtmlMessages(errors), "Nu HTML checker errors").toBe("");
    expect(formatViolations(pages.violations), "axe-core violations").toBe("");
  }, 180_000);
});
