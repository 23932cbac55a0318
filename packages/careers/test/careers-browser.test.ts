/**
 * A candidate applies in a real browser (Debian's Chromium driven by playwright-core): opens the
 * jobs page, follows a job, fills the form, uploads a PDF and submits. The application then reads
 * back over the API with a `resume_url` that downloads the same bytes, and a local webhook receiver
 * (signature checked) gets `application.created`. A wrong e-mail first brings the form back with
 * what was typed kept.
 *
 * Every kind of page the site serves then goes through the Nu HTML checker and axe-core (see
 * ../../console/test/support/page-checks.ts): no HTML error, no accessibility violation.
 *
 * Where Chromium (or, for the page checks, Java) cannot start the test fails with CI=true, and is
 * skipped with a loud warning otherwise.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApplicationWire, createPublicApi, type PublicApi } from "@hireport/core";
import { hireportExpress } from "@hireport/express";
import { kyselyFileStore, migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher, type WebhookDispatcher } from "@hireport/webhooks";
import { verifySignature } from "@hireport/webhooks/verify";
import SQLite from "better-sqlite3";
import express from "express";
import { Kysely, SqliteDialect } from "kysely";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../../console/test/support/browser";
import { formatHtmlMessages, formatViolations, javaRuns, PageCollector } from "../../console/test/support/page-checks";
import { createCareers } from "../src/index";
import { pdfBytes } from "./support/careers-suite";

const SECRET = "browser-test-secret-0123456789-abcdefghij";
const COMPANY = "co_acme";

let browser: Browser | null = null;
let server: Server;
let receiver: Server;
let origin = "";
let api: PublicApi;
let dispatcher: WebhookDispatcher;
let db: Kysely<unknown>;
let dir: string;
const received: { body: string; signature: string | undefined }[] = [];
let signingSecret = "";

beforeAll(async () => {
  browser = await launchBrowser("@hireport/careers");

  // The address first: the API's CV links and the site's pages name it.
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  dir = mkdtempSync(join(tmpdir(), "hireport-careers-browser-"));
  db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(join(dir, "site.sqlite")) }) });
  const migration = await migrateToLatest(db);
  if (migration.error) throw migration.error;
  const storage = kyselyWebhookStorage({ db });
  dispatcher = createWebhookDispatcher({ storage, allowPrivateAddresses: true, pollIntervalMs: 100, timeoutMs: 2_000 });
  api = createPublicApi({
    storage,
    fileStore: kyselyFileStore({ db }),
    publicBaseUrl: origin,
    fileTokenSecret: SECRET,
    onEvent: () => dispatcher.notify(),
    usageFlushMs: 20,
  });
  await api.companies.upsert({ id: COMPANY, name: "Acme Ltd" });

  receiver = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: request.headers["service-signature"] as string,
      });
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const endpoint = await dispatcher.endpoints.create({
    companyId: COMPANY,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    events: ["application.created"],
  });
  signingSecret = endpoint.secret;

  const careers = createCareers({
    api,
    resolveCompany: () => COMPANY,
    secret: SECRET,
    privacyNoticeUrl: "/privacy",
    // Every test here applies from one address: more than the default 5 a minute.
    limits: { perMinute: 100 },
  });
  const app = express();
  app.use("/api/public/v1", hireportExpress(api));
  app.use(hireportExpress(careers));
  server.on("request", app);
  dispatcher.start();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  server?.closeAllConnections?.();
  await dispatcher?.stop();
  await api?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await db?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the careers site in Chromium", () => {
  it("takes a candidate from the jobs page to a stored application, its CV and its webhook", async (context) => {
    if (!browser) return context.skip();
    const job = await api.jobs.create(COMPANY, {
      title: "Site Reliability Engineer",
      description: "Keep it running.",
      location: "Manchester, UK",
      employment_type: "full_time",
      status: "active",
    });
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(5_000);
    await page.goto(`${origin}/jobs`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Jobs at Acme Ltd");
    await page.getByRole("link", { name: "Site Reliability Engineer" }).click();
    expect(page.url()).toBe(`${origin}/jobs/${job.id}`);

    const pdf = pdfBytes(64 * 1024);
    const fill = async (email: string) => {
      await page.getByLabel("Full name (required)").fill("Margaret Hamilton");
      await page.getByLabel("E-mail address (required)").fill(email);
      await page.getByLabel("Skills").fill("Go, Kubernetes");
      await page.getByLabel("Cover letter").fill("I keep systems up.");
      await page
        .getByLabel("CV (required)")
        .setInputFiles({ name: "hamilton.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) });
      await page.getByRole("checkbox").check();
    };
    // A person takes longer than the form's minimum fill time (3 s).
    await fill("margaret-at-example.com");
    await page.waitForTimeout(3_100);
    await page.getByRole("button", { name: "Send application" }).click();
    await expect(page.locator("#email-error").textContent()).resolves.toContain("valid e-mail address");
    expect(await page.getByLabel("Full name (required)").inputValue()).toBe("Margaret Hamilton");
    expect(await page.getByLabel("Cover letter").inputValue()).toBe("I keep systems up.");
    expect(await page.getByRole("checkbox").isChecked()).toBe(true);

    await page.getByLabel("E-mail address (required)").fill("margaret@example.com");
    await page
      .getByLabel("CV (required)")
      .setInputFiles({ name: "hamilton.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) });
    await page.getByRole("button", { name: "Send application" }).click();
    await expect(page.locator("h1").textContent()).resolves.toBe("Thank you for applying");
    expect(
      await page.getByRole("link", { name: "ask for a person to review my application" }).getAttribute("href"),
    ).toMatch(/^\/review\//);

    // The application over the API, and its CV.
    const { key } = await api.keys.create({ companyId: COMPANY, name: "Browser test", scopes: ["applications:read"] });
    const list = (await (
      await fetch(`${origin}/api/public/v1/applications?job_id=${job.id}`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { data: ApplicationWire[] };
    expect(list.data).toHaveLength(1);
    const application = list.data[0] as ApplicationWire;
    expect(application).toMatchObject({
      source: "careers_site",
      candidate: { name: "Margaret Hamilton", email: "margaret@example.com", skills: ["Go", "Kubernetes"] },
      cover_letter: "I keep systems up.",
    });
    const cv = await fetch(application.resume_url as string);
    expect(cv.status).toBe(200);
    expect(new Uint8Array(await cv.arrayBuffer())).toEqual(pdf);

    // The webhook receiver got application.created, signed.
    const delivery = await until(
      () => received.find((item) => JSON.parse(item.body).type === "application.created"),
      "application.created at the receiver",
    );
    await verifySignature({ payload: delivery.body, header: delivery.signature, secret: signingSecret });
    expect(JSON.parse(delivery.body).data).toMatchObject({ id: application.id, source: "careers_site" });
  }, 60_000);

  it("serves every kind of page with no Nu HTML checker error and no axe-core violation", async (context) => {
    if (!browser) return context.skip();
    if (!javaRuns("@hireport/careers")) return context.skip();
    const started = Date.now();
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    const plain = await api.jobs.create(COMPANY, { title: "Office Manager", status: "active" });
    const full = await api.jobs.create(COMPANY, {
      title: "Data Engineer",
      short_description: "Pipelines for the whole company.",
      description: "Build the pipelines.\n\nKeep them fast and correct.",
      department: "Engineering",
      location: "Manchester office",
      // The place in parts: its words (with the country's name) are on the page the checkers read.
      country: "GB",
      region: "Greater Manchester",
      locality: "Manchester",
      postal_code: "M1 1AE",
      workplace_type: "hybrid",
      employment_type: "full_time",
      experience_level: "senior",
      salary_min: 55_000,
      salary_max: 70_000,
      closing_date: inAYear,
      responsibilities: ["Design pipelines", "Review code"],
      required_skills: ["SQL", "Python"],
      preferred_skills: ["Kafka"],
      qualifications: ["A degree or the experience"],
      benefits: ["Pension", "Training budget"],
      status: "active",
    });
    const asking = await api.jobs.create(COMPANY, {
      title: "Support Engineer",
      salary_min: 30_000,
      salary_max: 36_000,
      status: "active",
      questions: [
        { id: "why", label: "Why this job?", type: "long_text", required: true, help: "A few lines are enough." },
        { id: "nick", label: "What should we call you?", type: "short_text" },
        { id: "visa", label: "Do you need a visa to work here?", type: "yes_no", required: true },
        {
          id: "shifts",
          label: "Which shift suits you?",
          type: "single_choice",
          required: true,
          choices: [
            { value: "early", label: "Early" },
            { value: "none", label: "None of them", knockout: true },
          ],
        },
        {
          id: "tools",
          label: "Tools you have used",
          type: "multiple_choice",
          help: "Tick all that apply.",
          choices: [
            { value: "zendesk", label: "Zendesk" },
            { value: "jira", label: "Jira" },
          ],
        },
        { id: "notice", label: "Notice period in weeks", type: "number" },
        { id: "start", label: "Earliest start date", type: "date" },
      ],
    });
    const closed = await api.jobs.create(COMPANY, { title: "Night Porter", status: "active" });
    await api.jobs.close(COMPANY, closed.id);
    // More jobs than a page of the list holds (25), for its second page.
    for (let n = 1; n <= 25; n++)
      await api.jobs.create(COMPANY, { title: `Warehouse Operative ${n}`, status: "active" });

    const pages = new PageCollector();
    const page = pages.watch(await (await browser.newContext()).newPage());
    page.setDefaultTimeout(5_000);
    await page.goto(`${origin}/jobs`);
    await pages.collect(page, "job list");
    await page.getByRole("link", { name: "More jobs" }).click();
    await pages.collect(page, "job list, a later page");
    await page.goto(`${origin}/jobs/${plain.id}`);
    await pages.collect(page, "job page: title only");
    await page.goto(`${origin}/jobs/${full.id}`);
    expect(await page.getByText("Manchester, Greater Manchester, United Kingdom (hybrid)").count()).toBe(1);
    await pages.collect(page, "job page: salary, place in parts, closing date, every list");

    const fill = async (email: string) => {
      await page.getByLabel("Full name (required)").fill("Grace Hopper");
      await page.getByLabel("E-mail address (required)").fill(email);
      await page
        .getByLabel("CV (required)")
        .setInputFiles({ name: "hopper.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdfBytes()) });
      await page.getByRole("checkbox").check();
    };
    await fill("grace@example.com");
    await page.getByRole("button", { name: "Send application" }).click();
    await pages.collect(page, "apply form: a notice above the form (sent too quickly)", 422);
    await page.waitForTimeout(3_100);
    await fill("grace-at-example.com");
    await page.getByLabel("Phone").fill("not a phone number at all, far too long to be one");
    await page.getByRole("button", { name: "Send application" }).click();
    await pages.collect(page, "apply form: errors beside the fields", 422);
    await fill("grace@example.com");
    await page.getByLabel("Phone").fill("");
    await page.getByRole("button", { name: "Send application" }).click();
    await pages.collect(page, "application received");

    const review =
      (await page.getByRole("link", { name: "ask for a person to review my application" }).getAttribute("href")) ?? "";
    await page.goto(`${origin}${review}`);
    await pages.collect(page, "human review: confirm");
    await page.getByRole("button", { name: "Ask for a person to review my application" }).click();
    await pages.collect(page, "human review: done");
    // A job with a question of every type: the form, then its errors beside the questions.
    await page.goto(`${origin}/jobs/${asking.id}`);
    await pages.collect(page, "job page: a question of every type, pay");
    await page.waitForTimeout(3_100);
    await page.getByLabel("Full name (required)").fill("Grace Hopper");
    await page.getByLabel("E-mail address (required)").fill("grace.questions@example.com");
    await page
      .getByLabel("CV (required)")
      .setInputFiles({ name: "hopper.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdfBytes()) });
    await page.locator("#consent").check();
    await page.getByLabel("Jira").check();
    await page.getByLabel("Notice period in weeks").fill("a month");
    await page.getByRole("button", { name: "Send application" }).click();
    await pages.collect(page, "apply form: errors beside the questions", 422);
    expect(await page.locator("#q-notice-error").textContent()).toBe("Enter a number, such as 3 or 2.5.");
    expect(await page.getByLabel("Jira").isChecked()).toBe(true);

    await page.goto(`${origin}/review/not-a-token`);
    await pages.collect(page, "human review: invalid link", 404);
    await page.goto(`${origin}/jobs/${closed.id}`);
    await pages.collect(page, "job no longer open", 410);
    await page.goto(`${origin}/no-such-page`);
    await pages.collect(page, "not found", 404);
    await page.context().close();

    const checking = Date.now();
    const html = await pages.checkHtml();
    const errors = html.filter((item) => item.type === "error");
    const warnings = html.filter((item) => item.type === "warning");
    if (warnings.length > 0) console.warn(`Nu HTML checker warnings (not failures):\n${formatHtmlMessages(warnings)}`);
    console.info(
      `careers page checks: ${pages.pages.size} pages in ${Date.now() - started} ms, the Nu HTML checker ${Date.now() - checking} ms of it`,
    );
    expect(pages.pages.size).toBe(14);
    expect(formatHtmlMessages(errors), "Nu HTML checker errors").toBe("");
    expect(formatViolations(pages.violations), "axe-core violations").toBe("");
  }, 180_000);
});
