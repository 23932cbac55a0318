/**
 * A candidate's personal data end to end, on SQLite, Postgres and MariaDB (issue 16): the person
 * applies through the careers site over HTTP (a real Express or Fastify server, a multipart form
 * with a PDF CV kept by `kyselyFileStore` in the same database) and asks for a human review; the
 * company's systems add a second application for them over the API with a key, a note and a stage
 * move. The export holds all of it, and its CV link downloads the uploaded bytes; after an erasure
 * by e-mail address, a raw scan of every text column of every table of the prefix (read from the
 * database's catalog) finds neither the address nor the name, the CV's file and chunk rows are
 * gone, the old CV links answer 404, and another applicant's data and file are untouched.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CandidateExport } from "@hireport/core";
import { HUMAN_REVIEW_NOTE } from "@hireport/core/extend";
import { kyselyConformanceInspector } from "@hireport/kysely/testing";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDialect } from "../../kysely/test/helpers/databases";
import { pdfBytes } from "./support/careers-suite";
import { type Adapter, COMPANIES, startHost, type TestHost } from "./support/host";

const NAME = "Zoë Quintana-Øster";
/** As she types it into the form; the API's caller sends it in lower case, with spaces around. */
const EMAIL = "Zoe.Quintana@Example.ORG";
const PHONE = "+351 21 000 0000";
/** Her text fields as she types them into the form, and as the export returns them. */
const PROFILE = {
  name: NAME,
  email: EMAIL,
  phone: PHONE,
  location: "Lisboa",
  linkedin_url: "https://www.linkedin.com/in/zoe-quintana",
  current_title: "Head of Data",
};
const COVER = "I have led data teams at Quintana Analytics for six years.";
const API_COVER = "Sourced by our recruiter: Zoë Quintana-Øster, strong in analytics.";
const NOTE = "Phoned Zoë Quintana-Øster: prefers Lisbon, notice period 2 months.";
/** Her answer to the job's question on the site's form. */
const ANSWER = "My grandmother Inês lives in Alfama.";
const CV_FILENAME = `${NAME} CV.pdf`;
const CV_LINK = "https://files.example.org/zoe-quintana-oster.pdf";
const BYSTANDER = { name: "Sam Bystander", email: "sam.bystander@example.net" };
/**
 * The applicants' own address (any 127/8 address is this machine): the site's, in job links, is
 * 127.0.0.1, so a scan can tell the two apart.
 */
const APPLICANT_ADDRESS = "127.0.0.9";
/** The texts that identify her: none may be left in any table after the erasure. */
const TRACES = [EMAIL, NAME, "Quintana", "Øster", PHONE, COVER, API_COVER, NOTE, ANSWER];

/** Each dialect behind one of the two server frameworks, so both reach every step. */
const PLAN: { dialect: TestDialect; adapter: Adapter }[] = [
  { dialect: "sqlite", adapter: "express" },
  { dialect: "postgres", adapter: "fastify" },
  { dialect: "mysql", adapter: "express" },
];

/** A real PDF of a little more than `size` bytes, with its owner's name inside. */
function cvOf(owner: string, size: number): Uint8Array {
  const pdf = pdfBytes(size);
  const name = new TextEncoder().encode(`%% CV of ${owner}\n`);
  const bytes = new Uint8Array(pdf.length + name.length);
  bytes.set(pdf);
  bytes.set(name, pdf.length);
  return bytes;
}

/** Sends a form from `localAddress`, as a browser on another machine would (fetch cannot choose its address). */
async function postFrom(
  localAddress: string,
  target: string,
  form: FormData,
): Promise<{ status: number; body: string }> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const { hostname, port, pathname } = new URL(target);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: hostname,
        port,
        path: pathname,
        method: "POST",
        localAddress,
        headers: {
          "content-type": encoded.headers.get("content-type") ?? "",
          "content-length": String(body.byteLength),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    call.on("error", reject);
    call.end(body);
  });
}

interface Applied {
  id: string;
  at: Date;
  /** The confirmation page's human-review link (a path of the site). */
  reviewPath: string;
}

for (const { dialect, adapter } of PLAN) {
  const opened = await openTestDatabase(dialect, { poolSize: 4 });
  if (!opened) continue;
  const { db, prefix } = opened;

  describe(`a candidate's data on ${dialect} through ${adapter}: careers site and API in, export out, erasure`, () => {
    let host: TestHost;
    let jobs: { careers: string; api: string };
    let key: { key: string; id: string };
    const cv = cvOf(NAME, 300_000);
    const bystanderCv = cvOf(BYSTANDER.name, 2_000);
    let bystander: Applied;
    let viaSite: Applied;
    let viaApi: { id: string; at: Date; movedAt: Date };
    let reviewedAt: Date;
    let cvFileId: string;
    let bystanderFileId: string;
    /** Where the site keeps an upload while it reads the form: nothing may stay there either. */
    const uploads = mkdtempSync(join(tmpdir(), "hireport-erasure-uploads-"));

    const url = (path: string) => `${host.origin}${path}`;
    const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(url(`/api/public/v1${path}`), {
        method,
        headers: {
          authorization: `Bearer ${key.key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    /** A CV link of the API (`https://careers.example.com/files/cv/…`), fetched from the site's own mount. */
    const download = (resumeUrl: string) => fetch(url(new URL(resumeUrl).pathname), { redirect: "manual" });

    const count = async (table: string, column: string, value: string) => {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(`${prefix}${table}`)}
        where ${sql.ref(column)} = ${value}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    };
    const countAll = async (table: string) => {
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(`${prefix}${table}`)}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    };
    /** Where (`table.column`) each identifying text still is, as a raw scan of the catalog's text columns finds it. */
    const traces = async () => {
      const found: string[] = [];
      for (const text of TRACES)
        for (const place of await kyselyConformanceInspector({ db, tablePrefix: prefix }).findText(text))
          found.push(`${text} in ${place}`);
      return found;
    };

    /** Opens the job's page (the form and its signed token), waits like a person, sends the multipart form. */
    async function applyOnSite(
      jobId: string,
      fields: Record<string, string>,
      file: { bytes: Uint8Array; name: string },
    ): Promise<Applied> {
      const page = await (await fetch(url(`/jobs/${jobId}`))).text();
      const token = /name="form_token" value="([^"]+)"/.exec(page)?.[1];
      expect(token).toBeTruthy();
      host.clock.advance(5_000);
      const form = new FormData();
      form.set("form_token", token as string);
      for (const [name, value] of Object.entries({ website: "", consent: "yes", ...fields })) form.set(name, value);
      form.set("resume", new Blob([file.bytes as BlobPart], { type: "application/pdf" }), file.name);
      const at = host.clock.now();
      const answer = await postFrom(APPLICANT_ADDRESS, url(`/jobs/${jobId}/apply`), form);
      const html = answer.body;
      expect(answer.status, html).toBe(200);
      expect(html).toContain("Thank you for applying");
      const found = (await host.api.applications.list(COMPANIES.acme, { jobId, limit: 100 })).data.filter(
        (application) => application.candidate.email === fields.email,
      );
      expect(found).toHaveLength(1);
      const reviewPath = /href="(\/review\/[\w.-]+)"/.exec(html)?.[1];
      expect(reviewPath).toBeTruthy();
      return { id: found[0]?.id as string, at, reviewPath: reviewPath as string };
    }

    beforeAll(async () => {
      host = await startHost(adapter, { uploadDirectory: uploads }, { db: db as Kysely<unknown>, tablePrefix: prefix });
      const acme = COMPANIES.acme;
      jobs = {
        careers: (
          await host.api.jobs.create(acme, {
            title: "Data Lead",
            location: "Lisbon, PT",
            status: "active",
            questions: [{ id: "why", label: "Why Lisbon?", type: "long_text" }],
          })
        ).id,
        api: (await host.api.jobs.create(acme, { title: "Analytics Engineer", status: "draft" })).id,
      };
      const created = await host.api.keys.create({
        companyId: acme,
        name: "ATS sync",
        scopes: ["applications:write"],
      });
      key = { key: created.key, id: created.record.id };

      // Another applicant to the same job, who must come out of the erasure untouched.
      bystander = await applyOnSite(
        jobs.careers,
        { name: BYSTANDER.name, email: BYSTANDER.email, cover_letter: "Hello from Sam." },
        { bytes: bystanderCv, name: "Sam Bystander CV.pdf" },
      );
      host.clock.advance(61_000);
      viaSite = await applyOnSite(
        jobs.careers,
        { ...PROFILE, skills: "SQL, Leadership", cover_letter: COVER, q_why: ANSWER },
        { bytes: cv, name: CV_FILENAME },
      );
      // She sends the form again (a double click): the same confirmation, and the second CV is not kept.
      const again = await applyOnSite(
        jobs.careers,
        { name: NAME, email: EMAIL, cover_letter: COVER },
        { bytes: cv, name: CV_FILENAME },
      );
      expect(again.id).toBe(viaSite.id);
      // She asks for a person to review it, through the confirmation page's link.
      host.clock.advance(30_000);
      reviewedAt = host.clock.now();
      const review = await fetch(url(viaSite.reviewPath), { method: "POST", body: new URLSearchParams({}) });
      expect(review.status).toBe(200);
      expect(await review.text()).toContain("Your request is recorded");

      // The company's systems add her to another job, then a recruiter writes a note and moves her on.
      host.clock.advance(60_000);
      const postedAt = host.clock.now();
      const posted = await api(
        "POST",
        "/applications",
        {
          job_id: jobs.api,
          candidate: {
            name: NAME,
            email: `  ${EMAIL.toLowerCase()} `,
            phone: PHONE,
            location: "Lisbon",
            current_title: "Head of Data",
            skills: ["SQL", "dbt"],
          },
          cover_letter: API_COVER,
          resume_url: CV_LINK,
          source: "referral",
          consent: true,
        },
        { "idempotency-key": "zoe-referral-1" },
      );
      expect(posted.status, await posted.clone().text()).toBe(201);
      const apiId = ((await posted.json()) as { data: { id: string } }).data.id;
      host.clock.advance(60_000);
      const movedAt = host.clock.now();
      const moved = await api("PATCH", `/applications/${apiId}`, {
        stage: "interview",
        note: NOTE,
        tags: ["lisbon"],
        starred: true,
      });
      expect(moved.status, await moved.clone().text()).toBe(200);
      viaApi = { id: apiId, at: postedAt, movedAt };

      cvFileId = (await host.api.applications.get(acme, viaSite.id)).resumeFileId as string;
      bystanderFileId = (await host.api.applications.get(acme, bystander.id)).resumeFileId as string;
      expect(cvFileId).toMatch(/^fil_/);
      expect(bystanderFileId).toMatch(/^fil_/);
      host.clock.advance(60_000);
    });

    afterAll(async () => {
      await host?.close();
      await opened.drop();
      rmSync(uploads, { recursive: true, force: true });
    });

    it("exports everything put in through the site and the API, with a CV link that downloads the uploaded bytes", async () => {
      const document: CandidateExport = await host.api.candidates.export(COMPANIES.acme, {
        email: ` ${EMAIL.toUpperCase()}`,
      });
      expect(document).toMatchObject({
        format: "hireport.candidate-export",
        version: 1,
        company_id: COMPANIES.acme,
        email: EMAIL.toLowerCase(),
      });
      expect(document.applications.map((application) => application.id)).toEqual([viaSite.id, viaApi.id]);
      const [site, viaKey] = document.applications;
      const read = async (id: string) =>
        ((await (await api("GET", `/applications/${id}`)).json()) as { data: { reference: string; scores: unknown } })
          .data;
      const siteRead = await read(viaSite.id);
      const apiRead = await read(viaApi.id);

      expect(site).toEqual({
        id: viaSite.id,
        reference: siteRead.reference,
        job_id: jobs.careers,
        job_title: "Data Lead",
        candidate: { ...PROFILE, skills: ["SQL", "Leadership"] },
        cover_letter: COVER,
        resume_url: expect.stringMatching(/^https:\/\/careers\.example\.com\/files\/cv\/[\w-]+\.[\w-]+\.[\w-]+$/),
        stage: "new",
        source: "careers_site",
        scores: siteRead.scores,
        tags: [],
        starred: false,
        human_review_requested: true,
        applied_at: viaSite.at.toISOString(),
        updated_at: reviewedAt.toISOString(),
        erased_at: null,
        answers: [{ question_id: "why", label: "Why Lisbon?", type: "long_text", value: ANSWER, text: ANSWER }],
        knocked_out: false,
        consent: true,
        consent_at: viaSite.at.toISOString(),
        human_review_requested_at: reviewedAt.toISOString(),
        notes: [
          {
            id: expect.stringMatching(/^note_/),
            body: HUMAN_REVIEW_NOTE,
            author: { type: "host", id: null, name: "Candidate (careers site)" },
            created_at: reviewedAt.toISOString(),
          },
        ],
        stage_history: [
          {
            id: expect.any(String),
            from_stage: null,
            to_stage: "new",
            actor: { type: "host", id: null, name: "Careers site" },
            created_at: viaSite.at.toISOString(),
          },
        ],
      });
      const keyActor = { type: "api_key", id: key.id, name: "ATS sync" };
      expect(viaKey).toEqual({
        id: viaApi.id,
        reference: apiRead.reference,
        job_id: jobs.api,
        job_title: "Analytics Engineer",
        candidate: {
          name: NAME,
          email: EMAIL.toLowerCase(),
          phone: PHONE,
          location: "Lisbon",
          linkedin_url: "",
          current_title: "Head of Data",
          skills: ["SQL", "dbt"],
        },
        cover_letter: API_COVER,
        resume_url: expect.stringMatching(/^https:\/\/careers\.example\.com\/files\/cv\//),
        stage: "interview",
        source: "referral",
        scores: apiRead.scores,
        tags: ["lisbon"],
        starred: true,
        human_review_requested: false,
        applied_at: viaApi.at.toISOString(),
        updated_at: viaApi.movedAt.toISOString(),
        erased_at: null,
        answers: [],
        knocked_out: false,
        consent: true,
        consent_at: viaApi.at.toISOString(),
        human_review_requested_at: null,
        notes: [
          {
            id: expect.stringMatching(/^note_/),
            body: NOTE,
            author: keyActor,
            created_at: viaApi.movedAt.toISOString(),
          },
        ],
        stage_history: [
          {
            id: expect.any(String),
            from_stage: null,
            to_stage: "new",
            actor: keyActor,
            created_at: viaApi.at.toISOString(),
          },
          {
            id: expect.any(String),
            from_stage: "new",
            to_stage: "interview",
            actor: keyActor,
            created_at: viaApi.movedAt.toISOString(),
          },
        ],
      });

      // The uploaded CV comes back byte for byte through the site's CV route; the API's link redirects.
      const file = await download(site?.resume_url as string);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("application/pdf");
      expect(file.headers.get("content-disposition")).toBe(
        `attachment; filename*=UTF-8''${encodeURIComponent(CV_FILENAME)}`,
      );
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(cv);
      const link = await download(viaKey?.resume_url as string);
      expect(link.status).toBe(302);
      expect(link.headers.get("location")).toBe(CV_LINK);
    });

    it("erases by e-mail: no text column of any table holds her address or name, her CV's rows are gone, the bystander stays", async () => {
      const links = (await host.api.candidates.export(COMPANIES.acme, { email: EMAIL })).applications.map(
        (application) => application.resume_url as string,
      );
      const chunksBefore = await count("file_chunk", "file_id", cvFileId);
      const bystanderChunks = await count("file_chunk", "file_id", bystanderFileId);
      // The scan sees her where she is (the name in the CV's file name included), so an empty scan means something.
      const before = await traces();
      for (const place of [
        `${EMAIL} in application.candidate_email`,
        `${EMAIL} in application.email_normalized`,
        `${EMAIL} in event.payload`,
        `${EMAIL} in idempotency.response_body`,
        `${NAME} in application.candidate_name`,
        `${NAME} in file.filename`,
        `${NOTE} in note.body`,
      ]) {
        expect(before).toContain(place);
      }
      expect(chunksBefore).toBe(2);
      expect(bystanderChunks).toBe(1);
      // The second CV of her double submission left no row behind.
      expect(await countAll("file")).toBe(2);
      expect(await countAll("file_chunk")).toBe(chunksBefore + bystanderChunks);

      const erasure = await host.api.candidates.erase(
        COMPANIES.acme,
        { email: EMAIL.toUpperCase() },
        { actor: "Privacy desk" },
      );
      expect(erasure).toMatchObject({
        applicationIds: [viaSite.id, viaApi.id],
        alreadyErased: [],
        counts: { notes: 2, files: 1, idempotencyRecords: 1 },
      });

      expect(await traces()).toEqual([]);
      expect(await count("file", "id", cvFileId)).toBe(0);
      expect(await count("file_chunk", "file_id", cvFileId)).toBe(0);
      expect(await host.countFiles(COMPANIES.acme)).toBe(1);
      expect(await countAll("file")).toBe(1);
      expect(await countAll("file_chunk")).toBe(bystanderChunks);
      for (const link of links) {
        const gone = await download(link);
        expect(gone.status).toBe(404);
        expect(await gone.text()).not.toContain("Quintana");
      }
      expect(readdirSync(uploads)).toEqual([]);
      expect((await host.api.candidates.export(COMPANIES.acme, { email: EMAIL })).applications).toEqual([]);
      // Her human-review link answers as a decoy's does and records nothing.
      const events = (await host.events(COMPANIES.acme)).length;
      const review = await fetch(url(viaSite.reviewPath), { method: "POST", body: new URLSearchParams({}) });
      expect(review.status).toBe(200);
      expect(await host.api.applications.notes(COMPANIES.acme, viaSite.id)).toEqual([]);
      expect((await host.events(COMPANIES.acme)).length).toBe(events);
      // The applications stay as anonymous records.
      const erased = await host.api.applications.get(COMPANIES.acme, viaApi.id);
      expect(erased).toMatchObject({ stage: "interview", tags: ["lisbon"], candidate: { name: "", email: "" } });
      expect(erased.erasedAt).not.toBeNull();

      // The bystander's application, file and bytes are as they were.
      const other = await host.api.applications.get(COMPANIES.acme, bystander.id);
      expect(other).toMatchObject({
        candidate: { name: BYSTANDER.name, email: BYSTANDER.email },
        coverLetter: "Hello from Sam.",
        resumeFileId: bystanderFileId,
        erasedAt: null,
      });
      expect(await count("file", "id", bystanderFileId)).toBe(1);
      expect(await count("file_chunk", "file_id", bystanderFileId)).toBe(bystanderChunks);
      const [kept] = (await host.api.candidates.export(COMPANIES.acme, { email: BYSTANDER.email })).applications;
      const file = await download(kept?.resume_url as string);
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(bystanderCv);
      expect(await kyselyConformanceInspector({ db, tablePrefix: prefix }).findText(BYSTANDER.email)).toContain(
        "application.candidate_email",
      );

      // What the site keeps of an applicant besides the application: the client's address, in the
      // per-address apply limit's counters only, which the purge removes once their window ended.
      expect(await kyselyConformanceInspector({ db, tablePrefix: prefix }).findText(APPLICANT_ADDRESS)).toEqual([
        "rate_limit.bucket_key",
      ]);
      host.clock.advance(86_400_000);
      expect((await host.api.retention.purge()).rateLimitCounters).toBeGreaterThan(0);
      expect(await kyselyConformanceInspector({ db, tablePrefix: prefix }).findText(APPLICANT_ADDRESS)).toEqual([]);
    });
  });
}
