/**
 * The candidates section of the console through a real Express app on SQLite, with Node's fetch as
 * the browser: an owner exports a candidate's data (a JSON download) and erases it after a review
 * step; a member gets 403; another company's application is 404; no address ever appears in a URL;
 * both are in the audit list with the person who did them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken } from "../src/csrf";
import {
  BASE_PATH,
  COMPANY_A,
  COMPANY_B,
  getPage,
  SECRET,
  type Sent,
  sentOf,
  startHost,
  type TestHost,
  testAuthorize,
  userCookie,
} from "./support/host";

let host: TestHost;
const EMAIL = "Maja.Lindqvist@example.se";
const NAME = "Maja Lindqvist";
let applicationIds: string[] = [];
let otherCompanyApplication = "";

beforeAll(async () => {
  host = await startHost();
  const jobs = [
    await host.api.jobs.create(COMPANY_A, { title: "Designer", status: "active" }),
    await host.api.jobs.create(COMPANY_A, { title: "Illustrator", status: "active" }),
  ];
  applicationIds = [];
  for (const job of jobs) {
    const created = await host.api.applications.create(COMPANY_A, {
      job_id: job.id,
      candidate: { name: NAME, email: EMAIL },
      cover_letter: `Hej! ${NAME}`,
    });
    applicationIds.push(created.id);
  }
  await host.api.applications.update(COMPANY_A, applicationIds[0] as string, { note: "Strong portfolio, Maja" });
  const otherJob = await host.api.jobs.create(COMPANY_B, { title: "Other", status: "active" });
  otherCompanyApplication = (
    await host.api.applications.create(COMPANY_B, { job_id: otherJob.id, candidate: { name: NAME, email: EMAIL } })
  ).id;
});

afterAll(async () => {
  await host?.close();
});

function get(path: string, cookie = userCookie("owner", COMPANY_A, "Olivia Owner")): Promise<Sent> {
  return getPage(host, path, cookie);
}

async function post(
  path: string,
  fields: Record<string, string>,
  cookie = userCookie("owner", COMPANY_A, "Olivia Owner"),
): Promise<Sent> {
  // A valid token for whoever the cookie signs in, made as the console makes its own (a member's
  // pages have no form to take one from).
  const principal = testAuthorize({ headers: { cookie } });
  if (!principal) throw new Error("no principal");
  const body = new URLSearchParams({ ...fields, _csrf: csrfToken(SECRET, principal, new Date()) });
  return sentOf(
    await fetch(`${host.consoleUrl}${path}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: host.origin },
      body,
      redirect: "manual",
    }),
  );
}

/** Every address a page links to or posts to. */
function urlsOf(html: string): string[] {
  return [...html.matchAll(/(?:href|action|src)="([^"]*)"/g)].map((match) => match[1] ?? "");
}

describe("candidates' personal data in the console", () => {
  it("shows the section to owners and admins, with forms that post (no address in a URL)", async () => {
    for (const role of ["owner", "admin"]) {
      const page = await get("/candidates", userCookie(role));
      expect(page.status).toBe(200);
      expect(page.text).toContain("Export a candidate");
      expect(page.text).toContain(`action="${BASE_PATH}/candidates/export"`);
      expect(page.text).toContain(`action="${BASE_PATH}/candidates/erase/review"`);
      expect(page.text).toMatch(/<form method="post" action="[^"]*\/candidates\/export">/);
      expect(page.text).toContain(`href="${BASE_PATH}/candidates"`);
    }
    expect((await get("/keys", userCookie("member"))).text).not.toContain(`href="${BASE_PATH}/candidates"`);
  });

  it("answers 403 to a member, for the page and for every change", async () => {
    const member = userCookie("member", COMPANY_A, "Mo Member");
    const page = await get("/candidates", member);
    expect(page.status).toBe(403);
    expect(page.text).not.toContain("<form");
    expect((await post("/candidates/export", { email: EMAIL }, member)).status).toBe(403);
    expect((await post("/candidates/erase/review", { email: EMAIL }, member)).status).toBe(403);
    const erase = await post("/candidates/erase", { email: EMAIL, confirm: "yes" }, member);
    expect(erase.status).toBe(403);
    expect(erase.text).not.toContain(NAME);
    expect((await host.api.applications.get(COMPANY_A, applicationIds[0] as string)).erasedAt).toBeNull();
  });

  it("an owner downloads the export: a JSON file of every application, audited with their name", async () => {
    const sent = await post("/candidates/export", { email: ` ${EMAIL.toLowerCase()} ` });
    expect(sent.status).toBe(200);
    expect(sent.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(sent.headers.get("content-disposition")).toMatch(
      /^attachment; filename="candidate-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(sent.headers.get("cache-control")).toBe("no-store");
    const document = JSON.parse(sent.text);
    expect(document).toMatchObject({ format: "hireport.candidate-export", version: 1, company_id: COMPANY_A });
    expect(document.applications.map((application: { id: string }) => application.id)).toEqual(applicationIds);
    expect(document.applications[0]).toMatchObject({
      candidate: { name: NAME, email: EMAIL },
      notes: [{ body: "Strong portfolio, Maja" }],
    });
    const [entry] = (await host.api.audit.list(COMPANY_A)).data;
    expect(entry).toMatchObject({
      action: "candidate.exported",
      actor: { type: "host", id: "user_Olivia Owner", name: "Olivia Owner" },
      details: { applications: 2 },
    });
    const refused = await post("/candidates/export", { email: "" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("Nothing was exported");
  });

  it("an owner reviews, then erases; the applications stay anonymous and the audit names the owner", async () => {
    const review = await post("/candidates/erase/review", { email: EMAIL });
    expect(review.status).toBe(200);
    expect(review.text).toContain("Designer");
    expect(review.text).toContain("Illustrator");
    expect(review.text).toContain("Erase the data");
    expect(review.text).toMatch(/<form method="post" action="[^"]*\/candidates\/erase">/);
    for (const url of urlsOf(review.text)) expect(url.toLowerCase()).not.toContain("lindqvist");
    // Reviewing erases nothing.
    expect((await host.api.applications.get(COMPANY_A, applicationIds[0] as string)).erasedAt).toBeNull();
    expect((await post("/candidates/erase", { email: EMAIL })).status).toBe(422);

    const done = await post("/candidates/erase", { email: EMAIL, confirm: "yes" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("erased from 2 applications");
    expect(done.text).toContain("Notes deleted: 1");
    expect(done.headers.get("location")).toBeNull();
    for (const id of applicationIds) {
      const record = await host.api.applications.get(COMPANY_A, id);
      expect(record.erasedAt).not.toBeNull();
      expect(record.candidate.name).toBe("");
    }
    const [entry] = (await host.api.audit.list(COMPANY_A)).data;
    expect(entry).toMatchObject({
      action: "candidate.erased",
      actor: { type: "host", name: "Olivia Owner" },
      details: { by: "email", applications: 2, application_ids: applicationIds },
    });
    const audit = await get("/audit");
    expect(audit.text).toContain("candidate.erased");
    expect(audit.text).not.toContain(EMAIL);
    // Another company's candidate with the same address is untouched.
    expect((await host.api.applications.get(COMPANY_B, otherCompanyApplication)).candidate.name).toBe(NAME);

    const again = await post("/candidates/erase/review", { application: applicationIds[0] as string });
    expect(again.text).toContain("already erased");
    expect(again.text).not.toContain("Erase the data");
  });

  it("answers 404 for another company's application, and 422 for neither or both of address and id", async () => {
    const review = await post("/candidates/erase/review", { application: otherCompanyApplication });
    expect(review.status).toBe(404);
    const erase = await post("/candidates/erase", { application: otherCompanyApplication, confirm: "yes" });
    expect(erase.status).toBe(404);
    expect((await host.api.applications.get(COMPANY_B, otherCompanyApplication)).erasedAt).toBeNull();
    expect((await post("/candidates/erase/review", {})).status).toBe(422);
    const both = await post("/candidates/erase/review", { email: EMAIL, application: otherCompanyApplication });
    expect(both.status).toBe(422);
    expect(both.text).toContain("not both");
  });
});
