/**
 * The careers site through a real framework (Express, Fastify, or Next-style route handlers) and a
 * real client (Node's fetch): pages, structured data, feeds parsed with an XML parser, caching,
 * CORS, several companies, and the apply form with its every refusal.
 */
import { request as httpRequest } from "node:http";
import { HUMAN_REVIEW_NOTE } from "@hireport/core/extend";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Adapter, COMPANIES, startHost, type TestHost } from "./host";

const DAY = 86_400_000;
const xml = new XMLParser({ ignoreAttributes: false, cdataPropName: "#cdata", parseTagValue: false });

/** A small but real PDF: file-type knows it by its `%PDF-` signature. */
export function pdfBytes(extra = 2048): Uint8Array {
  const head = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n");
  const body = new Uint8Array(extra).map((_, i) => (i * 7) % 256);
  const tail = new TextEncoder().encode("\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
  const bytes = new Uint8Array(head.length + body.length + tail.length);
  bytes.set(head);
  bytes.set(body, head.length);
  bytes.set(tail, head.length + body.length);
  return bytes;
}

/** A Windows executable (`MZ` header) renamed `cv.pdf`. */
function exeBytes(): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
  bytes.set(new TextEncoder().encode("This program cannot be run in DOS mode."), 0x4e);
  return bytes;
}

/** A compound document (the container of Word 97-2003 files, installers, spreadsheets). */
function compoundBytes(withWordStream: boolean): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(new TextEncoder().encode("\u0000"), 8);
  const name = Buffer.from(withWordStream ? "WordDocument" : "SummaryInformation", "utf16le");
  bytes.set(name, 1024);
  return bytes;
}

export interface Application {
  fields?: Record<string, string>;
  /** Fields sent once per value (the boxes ticked of a multiple-choice question). */
  lists?: Record<string, string[]>;
  file?: { bytes: Uint8Array; name: string; type?: string } | null;
  token?: string | null;
  prefix?: string;
}

export function defineCareersSuite(adapter: Adapter): void {
  describe(`the careers site through ${adapter}`, () => {
    let host: TestHost;
    let open: { id: string }[];

    const url = (path: string) => `${host.origin}${path}`;
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(url(path), { headers, redirect: "manual" });

    /** A GET with a `Host` header of our choosing (fetch keeps its own). */
    const getWithHost = (path: string, hostName: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { port } = new URL(host.origin);
        const call = httpRequest({ host: "127.0.0.1", port, path, headers: { host: hostName } }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            body += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        call.on("error", reject);
        call.end();
      });

    const getWithHostAsResponse = async (path: string, hostName: string) => {
      const answer = await new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
        const { port } = new URL(host.origin);
        const call = httpRequest({ host: "127.0.0.1", port, path, headers: { host: hostName } }, (response) => {
          response.resume();
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string> }),
          );
        });
        call.on("error", reject);
        call.end();
      });
      return new Response(null, { status: answer.status, headers: answer.headers });
    };

    async function createJob(companyId: string, input: Record<string, unknown> = {}) {
      return host.api.jobs.create(companyId, {
        title: "Backend Engineer",
        description: 'Build the API.\n\nWork with <people> & "systems".',
        short_description: "Build the API.",
        location: "London, UK",
        department: "Engineering",
        employment_type: "full_time",
        salary_min: 50_000,
        salary_max: 70_000,
        status: "active",
        required_skills: ["TypeScript", "SQL"],
        ...input,
      });
    }

    const tokenOf = (html: string) => /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? null;

    /** Opens the job's page (the form and its token), waits like a person, and sends the form. */
    async function apply(jobId: string, application: Application = {}): Promise<Response> {
      const prefix = application.prefix ?? "";
      let token = application.token;
      if (token === undefined) {
        token = tokenOf(await (await get(`${prefix}/jobs/${jobId}`)).text());
        host.clock.advance(5_000);
      }
      const form = new FormData();
      if (token !== null) form.set("form_token", token);
      const fields = {
        name: "Grace Hopper",
        email: `grace.${Math.random().toString(36).slice(2)}@example.com`,
        phone: "+44 20 7946 0000",
        location: "London",
        skills: "TypeScript, SQL",
        cover_letter: "I would like to build it.",
        consent: "yes",
        website: "",
        ...application.fields,
      };
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      for (const [name, values] of Object.entries(application.lists ?? {})) {
        for (const value of values) form.append(name, value);
      }
      const file = application.file === undefined ? { bytes: pdfBytes(), name: "grace.pdf" } : application.file;
      if (file)
        form.set("resume", new Blob([file.bytes as BlobPart], { type: file.type ?? "application/pdf" }), file.name);
      return fetch(url(`${prefix}/jobs/${jobId}/apply`), { method: "POST", body: form, redirect: "manual" });
    }

    /** Moves the clock past every per-address window, so that each test starts with a fresh allowance. */
    const freshWindows = () => host.clock.advance(DAY + 61_000);

    beforeAll(async () => {
      host = await startHost(adapter);
      open = [await createJob(COMPANIES.acme, { title: "Platform Engineer" }), await createJob(COMPANIES.acme)];
    });
    afterAll(async () => {
      await host?.close();
    });
    beforeEach(() => freshWindows());

    it("lists the public jobs at /jobs, with landmarks, lang, and links to each job's page", async () => {
      const answer = await get("/jobs");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await answer.text();
      expect(html).toMatch(/^<!doctype html><html lang="en">/);
      expect(html).toContain('<main id="main">');
      for (const job of open) expect(html).toContain(`href="/jobs/${job.id}"`);
      expect(html).toContain("Platform Engineer");
      const root = await get("/");
      expect(root.status).toBe(302);
      expect(root.headers.get("location")).toBe("/jobs");
    });

    it("gives every public job's public_url a page with JobPosting data Google can read", async () => {
      const job = open[1] as { id: string };
      const record = await host.api.jobs.get(COMPANIES.acme, job.id);
      const publicUrl = host.api.publicJobs.url(record) as string;
      expect(publicUrl).toBe(url(`/jobs/${job.id}`));
      const answer = await fetch(publicUrl);
      expect(answer.status).toBe(200);
      const html = await answer.text();
      const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
      expect(scripts).toHaveLength(1);
      const data = JSON.parse(scripts[0]?.[1] ?? "{}");
      expect(data["@context"]).toBe("https://schema.org/");
      expect(data["@type"]).toBe("JobPosting");
      // Google's required properties.
      expect(data.title).toBe("Backend Engineer");
      expect(data.description).toBe("<p>Build the API.</p><p>Work with &lt;people> &amp; &quot;systems&quot;.</p>");
      expect(new Date(data.datePosted).toISOString()).toBe(record.publishedAt?.toISOString());
      expect(data.hiringOrganization).toMatchObject({ "@type": "Organization", name: "Acme Ltd", sameAs: host.origin });
      expect(data.jobLocation).toEqual({
        "@type": "Place",
        address: { "@type": "PostalAddress", addressLocality: "London", addressCountry: "GB" },
      });
      // The recommended ones hireport has.
      expect(data.employmentType).toBe("FULL_TIME");
      expect(data.baseSalary).toEqual({
        "@type": "MonetaryAmount",
        currency: "GBP",
        value: { "@type": "QuantitativeValue", minValue: 50000, maxValue: 70000, unitText: "YEAR" },
      });
      expect(data.identifier).toEqual({ "@type": "PropertyValue", name: "Acme Ltd", value: record.reference });
      expect(data.directApply).toBe(true);
      expect(data.url).toBe(publicUrl);
      // The page's text is escaped, never markup.
      expect(html).toContain("Work with &lt;people> &amp; &quot;systems&quot;.");
    });

    it("marks remote work as TELECOMMUTE and gives validThrough from the closing date", async () => {
      const job = await createJob(COMPANIES.acme, { location: "Remote (UK)", closing_date: "2026-12-31" });
      const html = await (await get(`/jobs/${job.id}`)).text();
      const data = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "{}");
      expect(data.jobLocationType).toBe("TELECOMMUTE");
      expect(data.applicantLocationRequirements).toEqual({ "@type": "Country", name: "GB" });
      expect(data.jobLocation).toBeUndefined();
      expect(data.validThrough).toBe("2027-01-01T00:00:00.000Z");
      await host.api.jobs.close(COMPANIES.acme, job.id);
    });

    it("gives a job's place parts in words on its page, in its JobPosting address and in the Indeed feed", async () => {
      const job = await createJob(COMPANIES.acme, {
        location: "Leeds office",
        country: "GB",
        region: "West Yorkshire",
        locality: "Leeds",
        postal_code: "LS1 4DY",
        workplace_type: "hybrid",
      });
      const html = await (await get(`/jobs/${job.id}`)).text();
      expect(html).toContain("<li>Leeds, West Yorkshire, United Kingdom (hybrid)</li>");
      const data = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "{}");
      expect(data.jobLocation).toEqual({
        "@type": "Place",
        address: {
          "@type": "PostalAddress",
          addressLocality: "Leeds",
          addressRegion: "West Yorkshire",
          postalCode: "LS1 4DY",
          addressCountry: "GB",
        },
      });
      expect(data.jobLocationType).toBeUndefined();
      const list = await (await get("/jobs")).text();
      expect(list).toContain("Leeds, West Yorkshire, United Kingdom (hybrid)");
      const entry = [xml.parse(await (await get("/feeds/jobs.xml")).text()).source.job]
        .flat()
        .find((item: { referencenumber: { "#cdata": string } }) => item.referencenumber["#cdata"] === job.reference);
      const cdata = (name: string) => entry?.[name]?.["#cdata"];
      expect([cdata("city"), cdata("state"), cdata("country"), cdata("postalcode"), cdata("remotetype")]).toEqual([
        "Leeds",
        "West Yorkshire",
        "GB",
        "LS1 4DY",
        "Hybrid remote",
      ]);
      const json = (await (await get("/jobs.json?limit=100")).json()) as { data: Record<string, unknown>[] };
      expect(json.data.find((item) => item.id === job.id)).toMatchObject({
        country: "GB",
        region: "West Yorkshire",
        locality: "Leeds",
        postal_code: "LS1 4DY",
        workplace_type: "hybrid",
        remote: false,
      });
      await host.api.jobs.close(COMPANIES.acme, job.id);
    });

    it("gives a job whose place names no country the company's default country (defaultCountry), and none without one", async () => {
      const addressOf = async (path: string) => {
        const html = await (await get(path)).text();
        return JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "{}")
          .jobLocation?.address;
      };
      const acme = await createJob(COMPANIES.acme, { location: "Leeds" });
      expect(await addressOf(`/jobs/${acme.id}`)).toEqual({
        "@type": "PostalAddress",
        addressLocality: "Leeds",
        addressCountry: "GB",
      });
      const globex = await createJob(COMPANIES.globex, { location: "Leeds" });
      expect(await addressOf(`/c/globex/jobs/${globex.id}`)).toEqual({
        "@type": "PostalAddress",
        addressLocality: "Leeds",
      });
      await host.api.jobs.close(COMPANIES.acme, acme.id);
      await host.api.jobs.close(COMPANIES.globex, globex.id);
    });

    it("keeps a closed, paused, draft, hidden or expired job off every page and feed, its page 410; never public is 404", async () => {
      const closed = await createJob(COMPANIES.acme, { title: "Closed Role" });
      await host.api.jobs.close(COMPANIES.acme, closed.id);
      const paused = await createJob(COMPANIES.acme, { title: "Paused Role" });
      await host.api.jobs.update(COMPANIES.acme, paused.id, { status: "paused" });
      const draft = await createJob(COMPANIES.acme, { title: "Draft Role" });
      await host.api.jobs.update(COMPANIES.acme, draft.id, { status: "draft" });
      const hidden = await createJob(COMPANIES.acme, { title: "Hidden Role" });
      await host.api.jobs.setHidden(COMPANIES.acme, hidden.id, true);
      const today = host.clock.now().toISOString().slice(0, 10);
      const expired = await createJob(COMPANIES.acme, { title: "Expired Role", closing_date: today });
      host.clock.advance(DAY);
      const neverPublic = await host.api.jobs.create(COMPANIES.acme, { title: "Never Public Role" });
      const gone = [closed, paused, draft, hidden, expired];

      const pages = [
        await (await get("/jobs")).text(),
        await (await get("/jobs.json?limit=100")).text(),
        await (await get("/feeds/jobs.xml")).text(),
        await (await get("/feeds/jobs.rss")).text(),
        await (await get("/sitemap.xml")).text(),
      ];
      for (const text of pages) {
        for (const job of [...gone, neverPublic]) expect(text).not.toContain(job.id);
        expect(text).toContain(open[0]?.id);
      }
      for (const job of gone) {
        const answer = await get(`/jobs/${job.id}`);
        expect(answer.status, job.title).toBe(410);
        const html = await answer.text();
        expect(html).not.toContain("application/ld+json");
        expect(html).toContain("no longer open");
      }
      expect((await get(`/jobs/${neverPublic.id}`)).status).toBe(404);
      expect((await get("/jobs/job_nothing_here")).status).toBe(404);
      // Applying to a job that is not public is refused the same way.
      expect((await apply(closed.id, { token: "x" })).status).toBe(410);
      expect((await host.api.applications.list(COMPANIES.acme, { jobId: closed.id })).data).toHaveLength(0);
    });

    it("publishes every public job in the Indeed XML feed, the RSS feed and the sitemap", async () => {
      const record = await host.api.jobs.get(COMPANIES.acme, open[1]?.id as string);
      const indeed = await get("/feeds/jobs.xml");
      expect(indeed.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      const source = xml.parse(await indeed.text()).source;
      expect(source.publisher).toBe("Acme Ltd");
      expect(source.publisherurl).toBe(host.origin);
      const jobs = [source.job].flat();
      const entry = jobs.find(
        (job: { referencenumber: { "#cdata": string } }) => job.referencenumber["#cdata"] === record.reference,
      );
      const cdata = (name: string) => entry?.[name]?.["#cdata"];
      expect(cdata("title")).toBe("Backend Engineer");
      expect(new Date(cdata("date")).toISOString().slice(0, 10)).toBe(record.publishedAt?.toISOString().slice(0, 10));
      expect(cdata("url")).toBe(url(`/jobs/${record.id}`));
      expect(cdata("company")).toBe("Acme Ltd");
      expect(cdata("city")).toBe("London");
      expect(cdata("country")).toBe("GB");
      expect(cdata("description")).toContain("<p>Build the API.</p>");
      expect(cdata("salary")).toBe("£50,000 – £70,000 a year");
      expect(cdata("jobtype")).toBe("fulltime");

      const rss = xml.parse(await (await get("/feeds/jobs.rss")).text()).rss;
      expect(rss["@_version"]).toBe("2.0");
      expect(rss.channel.title).toBe("Jobs at Acme Ltd");
      expect(rss.channel.link).toBe(url("/jobs"));
      const item = [rss.channel.item].flat().find((i: { link: string }) => i.link === url(`/jobs/${record.id}`));
      expect(item.title).toBe("Backend Engineer");
      expect(item.guid["#text"]).toBe(url(`/jobs/${record.id}`));
      expect(item.guid["@_isPermaLink"]).toBe("true");
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);

      const urls = [xml.parse(await (await get("/sitemap.xml")).text()).urlset.url].flat();
      const page = urls.find((u: { loc: string }) => u.loc === url(`/jobs/${record.id}`));
      expect(page.lastmod).toBe(record.updatedAt.toISOString());
      const publicCount = (await host.api.publicJobs.list(COMPANIES.acme, { limit: 100 })).data.length;
      expect(jobs).toHaveLength(publicCount);
      expect(urls).toHaveLength(publicCount + 1);
    });

    it("answers every public GET with an ETag and Cache-Control, and 304 to If-None-Match", async () => {
      for (const path of [
        "/jobs",
        `/jobs/${open[0]?.id}`,
        "/jobs.json",
        "/feeds/jobs.xml",
        "/feeds/jobs.rss",
        "/sitemap.xml",
      ]) {
        const first = await get(path);
        expect(first.status, path).toBe(200);
        const etag = first.headers.get("etag") as string;
        expect(etag, path).toMatch(/^(W\/)?"[\w-]+"$/);
        expect(first.headers.get("cache-control"), path).toMatch(/^public, /);
        await first.arrayBuffer();
        const again = await get(path, { "if-none-match": etag });
        expect(again.status, path).toBe(304);
        expect(await again.text()).toBe("");
        expect(again.headers.get("etag")).toBe(etag);
        expect((await get(path, { "if-none-match": '"something-else"' })).status, path).toBe(200);
      }
      // A change of the job changes the page's tag.
      const before = (await get(`/jobs/${open[0]?.id}`)).headers.get("etag") as string;
      await host.api.jobs.update(COMPANIES.acme, open[0]?.id as string, { department: "Platform" });
      expect((await get(`/jobs/${open[0]?.id}`, { "if-none-match": before })).status).toBe(200);
    });

    it("changes the tag of every list, feed and page that shows a job when the job changes", async () => {
      const paths = [
        "/jobs",
        `/jobs/${open[1]?.id}`,
        "/jobs.json",
        "/feeds/jobs.xml",
        "/feeds/jobs.rss",
        "/sitemap.xml",
      ];
      const tags = new Map<string, string>();
      for (const path of paths) {
        const answer = await get(path);
        tags.set(path, answer.headers.get("etag") as string);
        await answer.arrayBuffer();
      }
      host.clock.advance(1_000);
      await host.api.jobs.update(COMPANIES.acme, open[1]?.id as string, { title: "Senior Backend Engineer" });
      for (const path of paths) {
        const again = await get(path, { "if-none-match": tags.get(path) as string });
        expect(again.status, path).toBe(200);
        expect(again.headers.get("etag"), path).not.toBe(tags.get(path));
        expect(await again.text(), path).toContain(path === "/sitemap.xml" ? "<lastmod>" : "Senior Backend Engineer");
        // The new tag answers 304 again, with no body.
        const repeat = await get(path, { "if-none-match": again.headers.get("etag") as string });
        expect(repeat.status, path).toBe(304);
        expect(await repeat.text(), path).toBe("");
      }
      await host.api.jobs.update(COMPANIES.acme, open[1]?.id as string, { title: "Backend Engineer" });
    });

    it("serves /jobs.json to any origin, with no personal data, in keyset pages", async () => {
      const answer = await get("/jobs.json?limit=1", { origin: "https://elsewhere.example" });
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      const body = (await answer.json()) as { data: Record<string, unknown>[]; has_more: boolean; next_cursor: string };
      expect(body.data).toHaveLength(1);
      expect(body.has_more).toBe(true);
      expect(Object.keys(body.data[0] ?? {})).not.toContain("applications_count");
      expect(body.data[0]).toMatchObject({ url: expect.stringContaining("/jobs/job_"), title: expect.any(String) });
      const next = (await (await get(`/jobs.json?limit=1&cursor=${encodeURIComponent(body.next_cursor)}`)).json()) as {
        data: { id: string }[];
      };
      expect(next.data[0]?.id).not.toBe(body.data[0]?.id);
      const preflight = await fetch(url("/jobs.json"), { method: "OPTIONS" });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect((await get("/jobs.json?limit=500")).status).toBe(400);
    });

    it("answers /jobs.json 404 for a company hireport does not know, and an empty list for one with no public jobs", async () => {
      for (const path of [
        "/c/unknown/jobs.json",
        "/c/unknown/jobs.json?limit=500",
        "/c/unknown/jobs.json?cursor=nope",
      ]) {
        const answer = await get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.headers.get("content-type"), path).toContain("text/html");
      }
      expect((await fetch(url("/c/unknown/jobs.json"), { method: "HEAD" })).status).toBe(404);
      expect((await fetch(url("/c/unknown/jobs.json"), { method: "POST", body: "x" })).status).toBe(404);
      expect((await fetch(url("/c/unknown/jobs.json"), { method: "OPTIONS" })).status).toBe(404);

      await host.api.companies.upsert({ id: "co_hollow", name: "Hollow Ltd" });
      const empty = await get("/c/hollow/jobs.json");
      expect(empty.status).toBe(200);
      expect(empty.headers.get("access-control-allow-origin")).toBe("*");
      expect(await empty.json()).toEqual({ data: [], has_more: false, next_cursor: null });
      const etag = empty.headers.get("etag") as string;
      expect((await get("/c/hollow/jobs.json", { "if-none-match": etag })).status).toBe(304);
      expect((await get("/c/hollow/jobs.json?limit=500")).status).toBe(400);
      expect((await get("/c/hollow/jobs.json?cursor=nope")).status).toBe(400);
      expect((await get("/jobs.json?cursor=nope")).status).toBe(400);
      const post = await fetch(url("/jobs.json"), { method: "POST", body: "x" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
    });

    it("serves several companies on one host, by path segment and by host name, each only its own jobs", async () => {
      const globexJob = await createJob(COMPANIES.globex, { title: "Globex Welder" });
      const initechJob = await createJob(COMPANIES.initech, { title: "Initech Printer Fixer" });
      const globex = await (await get("/c/globex/jobs")).text();
      expect(globex).toContain("Globex Welder");
      expect(globex).toContain(`href="/c/globex/jobs/${globexJob.id}"`);
      expect(globex).not.toContain("Initech Printer Fixer");
      expect(globex).not.toContain("Platform Engineer");
      expect(globex).toContain("--hrc-accent:#8a2be2");
      expect((await get(`/c/globex/jobs/${globexJob.id}`)).status).toBe(200);
      // Another company's job is not there.
      expect((await get(`/c/globex/jobs/${initechJob.id}`)).status).toBe(404);
      expect((await get(`/jobs/${globexJob.id}`)).status).toBe(404);
      const record = await host.api.jobs.get(COMPANIES.globex, globexJob.id);
      expect(host.api.publicJobs.url(record)).toBe(url(`/c/globex/jobs/${globexJob.id}`));
      const feed = await (await get("/c/globex/feeds/jobs.xml")).text();
      expect(feed).toContain("Globex Welder");
      expect(feed).not.toContain("Platform Engineer");
      const byHost = await getWithHost("/jobs", "initech.jobs.test");
      expect(byHost.status).toBe(200);
      expect(byHost.body).toContain("Initech Printer Fixer");
      expect(byHost.body).not.toContain("Globex Welder");
      expect((await getWithHost("/jobs", "nobody.jobs.test")).status).toBe(404);
      expect((await get("/c/unknown/jobs")).status).toBe(404);
    });

    it("takes an application with its CV through core's write path: source, consent, file, event", async () => {
      const job = open[0] as { id: string };
      const bytes = pdfBytes(300_000);
      const answer = await apply(job.id, {
        fields: { email: "ada@example.com", name: "Ada Lovelace" },
        file: { bytes, name: "Ada CV.pdf" },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const html = await answer.text();
      expect(html).toContain("Thank you for applying");
      const [application] = (await host.api.applications.list(COMPANIES.acme, { jobId: job.id })).data.filter(
        (a) => a.candidate.email === "ada@example.com",
      );
      expect(application).toMatchObject({
        source: "careers_site",
        consent: true,
        candidate: { name: "Ada Lovelace", skills: ["TypeScript", "SQL"], phone: "+44 20 7946 0000" },
        coverLetter: "I would like to build it.",
        stage: "new",
      });
      expect(application?.consentAt?.getTime()).toBe(host.clock.now().getTime());
      expect(application?.resumeFileId).toMatch(/^fil_/);
      const created = (await host.events(COMPANIES.acme)).filter((event) => event.type === "application.created");
      expect(created.some((event) => JSON.parse(event.payload).data.id === application?.id)).toBe(true);
      // The CV link the API gives downloads the same bytes, from the careers site's own mount.
      const key = (await host.api.keys.create({ companyId: COMPANIES.acme, name: "t", scopes: ["applications:read"] }))
        .key;
      const read = (await (
        await fetch(url(`/api/public/v1/applications/${application?.id}`), {
          headers: { authorization: `Bearer ${key}` },
        })
      ).json()) as { data: { resume_url: string } };
      const cvPath = new URL(read.data.resume_url).pathname;
      const cv = await get(cvPath);
      expect(cv.status).toBe(200);
      expect(cv.headers.get("content-type")).toBe("application/pdf");
      expect(cv.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''Ada%20CV.pdf");
      expect(cv.headers.get("x-content-type-options")).toBe("nosniff");
      expect(new Uint8Array(await cv.arrayBuffer())).toEqual(bytes);
    });

    it("refuses a renamed executable, an installer and broken text, and keeps nothing", async () => {
      const job = open[1] as { id: string };
      const files = await host.countFiles(COMPANIES.acme);
      const before = (await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 })).data.length;
      const cases = [
        { bytes: exeBytes(), name: "cv.pdf", type: "application/pdf" },
        { bytes: compoundBytes(false), name: "cv.doc", type: "application/msword" },
        { bytes: new Uint8Array([0x68, 0x69, 0x00, 0x21]), name: "cv.txt", type: "text/plain" },
        { bytes: new Uint8Array([0xc3, 0x28, 0x41]), name: "cv.txt", type: "text/plain" },
      ];
      for (const file of cases) {
        freshWindows();
        const answer = await apply(job.id, { file });
        expect(answer.status, file.name).toBe(422);
        const html = await answer.text();
        expect(html).toContain('id="resume-error"');
        expect(html).toContain('aria-describedby="resume-hint resume-error"');
      }
      expect((await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 })).data).toHaveLength(
        before,
      );
      expect(await host.countFiles(COMPANIES.acme)).toBe(files);
      // Real Word 97, RTF and UTF-8 text CVs pass.
      for (const file of [
        { bytes: compoundBytes(true), name: "cv.doc" },
        { bytes: new TextEncoder().encode("{\\rtf1\\ansi Grace}"), name: "cv.rtf" },
        { bytes: new TextEncoder().encode("Grace Hopper — Zürich 日本"), name: "cv" },
      ]) {
        freshWindows();
        expect((await apply(job.id, { file })).status, file.name).toBe(200);
      }
      expect(await host.countFiles(COMPANIES.acme)).toBe(files + 3);
    });

    it("limits a flood from one address: 5 a minute by default, refused with 429 and Retry-After", async () => {
      const job = open[1] as { id: string };
      const html = await (await get(`/jobs/${job.id}`)).text();
      const token = tokenOf(html);
      host.clock.advance(5_000);
      const answers: Response[] = [];
      for (let i = 0; i < 7; i++) answers.push(await apply(job.id, { token }));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(Number(answers[5]?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await answers[5]?.text()).toContain("Too many applications");
      host.clock.advance(61_000);
      expect((await apply(job.id)).status).toBe(200);
    });

    it("gives the form back on a wrong e-mail with everything typed kept, the error tied to its field", async () => {
      const job = open[1] as { id: string };
      const files = await host.countFiles(COMPANIES.acme);
      const answer = await apply(job.id, {
        fields: { email: "grace-at-example.com", name: "Grace <Hopper>", cover_letter: "Line one\nLine & two" },
      });
      expect(answer.status).toBe(422);
      const html = await answer.text();
      expect(html).toContain('value="grace-at-example.com"');
      expect(html).toContain('value="Grace &lt;Hopper>"');
      // Forms send line breaks as CRLF.
      expect(html).toContain("Line one\r\nLine &amp; two</textarea>");
      expect(html).toContain('value="+44 20 7946 0000"');
      expect(html).toContain('id="email-error"');
      expect(html).toMatch(/id="email"[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/);
      expect(html).toContain("Must be a valid e-mail address");
      expect(html).toContain('<a href="#email">');
      // The file is not kept: the form asks for it again.
      expect(html).toContain("please choose it again");
      expect(await host.countFiles(COMPANIES.acme)).toBe(files);
    });

    it("refuses a missing consent, the honeypot, a forged token and a form sent too quickly", async () => {
      const job = open[1] as { id: string };
      const count = async () =>
        (await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 })).data.length;
      const before = await count();
      const noConsent = await apply(job.id, { fields: { consent: "" } });
      expect(noConsent.status).toBe(422);
      expect(await noConsent.text()).toContain('id="consent-error"');
      freshWindows();
      const bot = await apply(job.id, { fields: { website: "https://spam.example" } });
      expect(bot.status).toBe(422);
      expect(await bot.text()).toContain("Leave this field empty");
      freshWindows();
      expect((await apply(job.id, { token: "forged.token.value" })).status).toBe(422);
      freshWindows();
      const otherJobToken = tokenOf(await (await get(`/jobs/${open[0]?.id}`)).text());
      host.clock.advance(5_000);
      expect((await apply(job.id, { token: otherJobToken })).status).toBe(422);
      freshWindows();
      const token = tokenOf(await (await get(`/jobs/${job.id}`)).text());
      host.clock.advance(1_000);
      const quick = await apply(job.id, { token });
      expect(quick.status).toBe(422);
      expect(await quick.text()).toContain("quicker than a person");
      expect(await count()).toBe(before);
    });

    describe("the job's questions", () => {
      const QUESTIONS = [
        { id: "why", label: "Why this job?", type: "long_text", required: true, help: "A few lines are enough." },
        { id: "visa", label: "Do you need a visa?", type: "yes_no", required: true },
        {
          id: "years",
          label: "Years of TypeScript",
          type: "single_choice",
          required: true,
          choices: [
            { value: "0", label: "Less than one", knockout: true },
            { value: "3", label: "Three or more" },
          ],
        },
        {
          id: "tools",
          label: "Tools you use",
          type: "multiple_choice",
          choices: [
            { value: "git", label: "Git" },
            { value: "k8s", label: "Kubernetes" },
          ],
        },
        { id: "notice", label: "Notice in weeks", type: "number" },
        { id: "start", label: "Earliest start", type: "date" },
        { id: "nick", label: "Nickname", type: "short_text" },
      ] as const;
      const good = {
        q_why: "I like <APIs> & queues.",
        q_visa: "no",
        q_years: "3",
        q_notice: "4",
        q_start: "2026-09-01",
        q_nick: "Amazing Grace",
      };
      let job: { id: string };
      beforeAll(async () => {
        job = await createJob(COMPANIES.acme, { title: "Questions Engineer", questions: QUESTIONS });
      });
      const stored = async (email: string) =>
        (await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 })).data.find(
          (application) => application.candidate.email === email,
        );

      it("asks each question with a labelled control, choices in a fieldset with a legend, with the pay, consent and retention", async () => {
        const html = await (await get(`/jobs/${job.id}`)).text();
        expect(html).toContain("<legend>Questions about this job</legend>");
        expect(html).toMatch(/<label for="q-why">Why this job\? \(required\)<\/label>/);
        expect(html).toMatch(/<textarea id="q-why" name="q_why" required[^>]*aria-describedby="q-why-hint"/);
        expect(html).toContain('<p class="hint" id="q-why-hint">A few lines are enough.</p>');
        expect(html).toMatch(/<fieldset class="question"><legend>Do you need a visa\? \(required\)<\/legend>/);
        expect(html).toMatch(/<input type="radio" id="q-visa-0" name="q_visa" value="yes"/);
        expect(html).toMatch(/<input type="radio" id="q-years-1" name="q_years" value="3"/);
        expect(html).toMatch(/<input type="checkbox" id="q-tools-1" name="q_tools" value="k8s"/);
        expect(html).toMatch(/<input type="text" inputmode="decimal" value autocomplete="off" id="q-notice"/);
        expect(html).toMatch(/<input type="date" value id="q-start" name="q_start"/);
        expect(html).toContain('<label for="q-nick">Nickname</label>');
        // Which answer knocks out is never on the page.
        expect(html).not.toContain("knockout");
        expect(html).toContain("<strong>Pay:</strong> £50,000 – £70,000 a year");
        expect(html).toContain('aria-describedby="retention-hint"');
        expect(html).toContain("until you ask for it to be deleted");
      });

      it("stores the answers with the application, the same confirmation for a knockout, which is flagged", async () => {
        const kept = await apply(job.id, {
          fields: { ...good, email: "kept@example.com" },
          lists: { q_tools: ["k8s", "git"] },
        });
        expect(kept.status).toBe(200);
        const keptHtml = await kept.text();
        const application = await stored("kept@example.com");
        expect(application?.knockedOut).toBe(false);
        expect(application?.answers).toEqual([
          {
            questionId: "why",
            label: "Why this job?",
            type: "long_text",
            value: "I like <APIs> & queues.",
            text: "I like <APIs> & queues.",
          },
          { questionId: "visa", label: "Do you need a visa?", type: "yes_no", value: false, text: "No" },
          {
            questionId: "years",
            label: "Years of TypeScript",
            type: "single_choice",
            value: "3",
            text: "Three or more",
          },
          {
            questionId: "tools",
            label: "Tools you use",
            type: "multiple_choice",
            value: ["git", "k8s"],
            text: "Git, Kubernetes",
          },
          { questionId: "notice", label: "Notice in weeks", type: "number", value: 4, text: "4" },
          { questionId: "start", label: "Earliest start", type: "date", value: "2026-09-01", text: "2026-09-01" },
          { questionId: "nick", label: "Nickname", type: "short_text", value: "Amazing Grace", text: "Amazing Grace" },
        ]);
        const created = (await host.events(COMPANIES.acme)).find(
          (event) => event.type === "application.created" && JSON.parse(event.payload).data.id === application?.id,
        );
        expect(JSON.parse(created?.payload ?? "{}").data.answers).toHaveLength(7);
        freshWindows();
        const out = await apply(job.id, { fields: { ...good, q_years: "0", email: "out@example.com" } });
        expect(out.status).toBe(200);
        // The candidate reads what everyone reads (only the links differ).
        const strip = (html: string) => html.replace(/\/review\/[^"]+/g, "/review/…");
        expect(strip(await out.text())).toBe(strip(keptHtml));
        expect(await stored("out@example.com")).toMatchObject({ knockedOut: true, stage: "new" });
      });

      it("gives the form back with each question's error tied to it and what was answered kept", async () => {
        const answer = await apply(job.id, {
          fields: {
            q_why: "  ",
            q_visa: "maybe",
            q_years: "7",
            q_notice: "four",
            q_start: "2026-02-30",
            q_nick: "Gr<ace>",
            email: "bad@example.com",
          },
          lists: { q_tools: ["git", "svn"] },
        });
        expect(answer.status).toBe(422);
        const html = await answer.text();
        expect(html).toMatch(/<textarea id="q-why"[^>]*aria-invalid="true" aria-describedby="q-why-hint q-why-error"/);
        expect(html).toContain('<p class="field-error" id="q-why-error">Answer this question.</p>');
        expect(html).toContain('<p class="field-error" id="q-visa-error">Choose Yes or No.</p>');
        expect(html).toMatch(/id="q-years-0"[^>]*aria-invalid="true" aria-describedby="q-years-error"/);
        expect(html).toContain('id="q-tools-error"');
        expect(html).toContain('<p class="field-error" id="q-notice-error">Enter a number, such as 3 or 2.5.</p>');
        expect(html).toContain('id="q-start-error"');
        expect(html).not.toContain('id="q-nick-error"');
        // Kept: the text typed, the box ticked; the list above the form links to each question.
        expect(html).toMatch(/value="four"[^>]*id="q-notice"/);
        expect(html).toMatch(/value="Gr&lt;ace>"[^>]*id="q-nick"/);
        expect(html).toMatch(/id="q-tools-0" name="q_tools" value="git" checked/);
        expect(html).toContain('<a href="#q-years-0">Years of TypeScript: ');
        expect(html).toContain('<a href="#q-why">Why this job?: Answer this question.</a>');
        expect(await stored("bad@example.com")).toBeUndefined();
      });

      it("takes answers as JSON from a host's own front end, and names the question of each error", async () => {
        const token = await host.careers.formToken({ companyId: COMPANIES.acme, jobId: job.id });
        host.clock.advance(4_000);
        const body = {
          form_token: token,
          name: "Dorothy Vaughan",
          email: "dorothy@example.com",
          consent: true,
          resume: { filename: "dv.pdf", content_base64: Buffer.from(pdfBytes(1000)).toString("base64") },
          q_why: "Fortran.",
          q_visa: false,
          q_years: "3",
          q_tools: ["git"],
          q_notice: 2,
        };
        const send = (content: unknown) =>
          fetch(url(`/jobs/${job.id}/apply`), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(content),
          });
        expect((await send(body)).status).toBe(201);
        expect((await stored("dorothy@example.com"))?.answers.map((a) => [a.questionId, a.value])).toEqual([
          ["why", "Fortran."],
          ["visa", false],
          ["years", "3"],
          ["tools", ["git"]],
          ["notice", 2],
        ]);
        freshWindows();
        const again = await host.careers.formToken({ companyId: COMPANIES.acme, jobId: job.id });
        host.clock.advance(4_000);
        const bad = await send({
          ...body,
          form_token: again,
          email: "dot2@example.com",
          q_visa: undefined,
          q_tools: ["x"],
        });
        expect(bad.status).toBe(422);
        const error = ((await bad.json()) as { error: { fields: { field: string }[] } }).error;
        expect(error.fields.map((f) => f.field).sort()).toEqual(["q_tools", "q_visa"]);
      });
    });

    it("answers a duplicate exactly as a new application, and stores nothing more", async () => {
      const job = open[1] as { id: string };
      const fields = { email: "twice@example.com" };
      const first = await (await apply(job.id, { fields })).text();
      freshWindows();
      const files = await host.countFiles(COMPANIES.acme);
      const second = await apply(job.id, { fields: { email: " TWICE@example.com " } });
      expect(second.status).toBe(200);
      const withoutLinks = (html: string) => html.replace(/\/review\/[\w.-]+/g, "/review/LINK");
      expect(withoutLinks(await second.text())).toBe(withoutLinks(first));
      const stored = (await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 })).data;
      expect(stored.filter((a) => a.candidate.email.toLowerCase().includes("twice"))).toHaveLength(1);
      expect(await host.countFiles(COMPANIES.acme)).toBe(files);
    });

    it("gives a human-review link that records the request once and emits application.updated", async () => {
      const job = open[0] as { id: string };
      const html = await (await apply(job.id, { fields: { email: "review.me@example.com" } })).text();
      const link = /href="(\/review\/[\w.-]+)"/.exec(html)?.[1] as string;
      expect(link).toBeTruthy();
      const confirm = await get(link);
      expect(confirm.status).toBe(200);
      expect(confirm.headers.get("cache-control")).toBe("no-store");
      expect(await confirm.text()).toContain("Ask for a person to review my application");
      const [application] = (
        await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 })
      ).data.filter((a) => a.candidate.email === "review.me@example.com");
      expect(application?.humanReviewRequestedAt).toBeNull();
      const updatedBefore = (await host.events(COMPANIES.acme)).filter((e) => e.type === "application.updated").length;
      for (let i = 0; i < 2; i++) {
        const done = await fetch(url(link), { method: "POST", body: new URLSearchParams({}) });
        expect(done.status).toBe(200);
        expect(await done.text()).toContain("Your request is recorded");
      }
      const after = await host.api.applications.get(COMPANIES.acme, application?.id as string);
      expect(after.humanReviewRequestedAt).not.toBeNull();
      const updated = (await host.events(COMPANIES.acme)).filter((e) => e.type === "application.updated");
      expect(updated).toHaveLength(updatedBefore + 1);
      expect(JSON.parse(updated.at(-1)?.payload ?? "{}").data).toMatchObject({
        id: application?.id,
        human_review_requested: true,
      });
      expect((await host.api.applications.notes(COMPANIES.acme, after.id)).map((n) => n.body)).toEqual([
        HUMAN_REVIEW_NOTE,
      ]);
      expect((await get("/review/not-a-token")).status).toBe(404);
    });

    it("takes JSON from a host's own front end, with a token from careers.formToken", async () => {
      const job = open[0] as { id: string };
      const token = await host.careers.formToken({ companyId: COMPANIES.acme, jobId: job.id });
      host.clock.advance(4_000);
      const body = {
        form_token: token,
        name: "Katherine Johnson",
        email: "katherine@example.com",
        skills: ["Orbital mechanics", "Fortran"],
        consent: true,
        resume: { filename: "kj.pdf", content_base64: Buffer.from(pdfBytes(1000)).toString("base64") },
      };
      const answer = await fetch(url(`/jobs/${job.id}/apply`), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(201);
      const data = ((await answer.json()) as { data: { human_review_url: string } }).data;
      expect(data.human_review_url).toMatch(new RegExp(`^${host.origin}/review/`));
      freshWindows();
      const again = await host.careers.formToken({ companyId: COMPANIES.acme, jobId: job.id });
      host.clock.advance(4_000);
      const bad = await fetch(url(`/jobs/${job.id}/apply`), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, form_token: again, email: "nope", consent: false }),
      });
      expect(bad.status).toBe(422);
      const error = ((await bad.json()) as { error: { fields: { field: string }[] } }).error;
      expect(error.fields.map((f) => f.field).sort()).toEqual(["consent", "email"]);
    });

    it("sends nosniff on every kind of answer, and a CSP that loads nothing on the feeds, the sitemap and the CV route", async () => {
      const job = open[0] as { id: string };
      expect((await apply(job.id, { fields: { email: "headers@example.com" } })).status).toBe(200);
      const { data } = await host.api.applications.list(COMPANIES.acme, { jobId: job.id, limit: 100 });
      const withCv = data.find((application) => application.candidate.email === "headers@example.com");
      expect(withCv?.resumeFileId).toMatch(/^fil_/);
      const key = (await host.api.keys.create({ companyId: COMPANIES.acme, name: "h", scopes: ["applications:read"] }))
        .key;
      /** A fresh CV link (the clock moves a day between cases, past a link's life). */
      const cvPath = async () => {
        const read = (await (
          await fetch(url(`/api/public/v1/applications/${withCv?.id}`), { headers: { authorization: `Bearer ${key}` } })
        ).json()) as { data: { resume_url: string } };
        return new URL(read.data.resume_url).pathname;
      };
      const documentCsp = /^default-src 'none';.*\bsandbox\b/;
      const cases: { name: string; answer: () => Promise<Response>; status: number; csp?: RegExp }[] = [
        { name: "redirect /", answer: () => get("/"), status: 302 },
        { name: "job list", answer: () => get("/jobs"), status: 200, csp: /^default-src 'none'/ },
        { name: "job page", answer: () => get(`/jobs/${job.id}`), status: 200, csp: /^default-src 'none'/ },
        { name: "unknown job", answer: () => get("/jobs/job_nope"), status: 404, csp: /^default-src 'none'/ },
        { name: "unknown page", answer: () => get("/nowhere"), status: 404 },
        { name: "jobs.json", answer: () => get("/jobs.json"), status: 200 },
        { name: "jobs.json 404", answer: () => getWithHostAsResponse("/jobs.json", "nobody.jobs.test"), status: 404 },
        { name: "jobs.json OPTIONS", answer: () => fetch(url("/jobs.json"), { method: "OPTIONS" }), status: 204 },
        { name: "Indeed feed", answer: () => get("/feeds/jobs.xml"), status: 200, csp: documentCsp },
        { name: "RSS feed", answer: () => get("/feeds/jobs.rss"), status: 200, csp: documentCsp },
        { name: "sitemap", answer: () => get("/sitemap.xml"), status: 200, csp: documentCsp },
        { name: "405", answer: () => fetch(url("/jobs"), { method: "DELETE" }), status: 405 },
        { name: "review 404", answer: () => get("/review/not-a-token"), status: 404 },
        {
          name: "apply JSON 400",
          answer: () =>
            fetch(url(`/jobs/${job.id}/apply`), {
              method: "POST",
              body: "{",
              headers: { "content-type": "application/json" },
            }),
          status: 400,
        },
        { name: "apply form 422", answer: () => apply(job.id, { token: null }), status: 422 },
        { name: "CV download", answer: async () => get(await cvPath()), status: 200, csp: documentCsp },
        {
          name: "CV link not valid (JSON 404)",
          answer: () => get("/files/cv/not-a-token"),
          status: 404,
          csp: documentCsp,
        },
        {
          name: "CV link POST (JSON 405)",
          answer: async () => fetch(url(await cvPath()), { method: "POST" }),
          status: 405,
          csp: documentCsp,
        },
      ];
      for (const { name, answer, status, csp } of cases) {
        freshWindows();
        const response = await answer();
        expect(response.status, name).toBe(status);
        expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
        if (csp) expect(response.headers.get("content-security-policy") ?? "", name).toMatch(csp);
        await response.arrayBuffer();
      }
    });

    it("says pay the way people read it on the job page, in the RSS feed and in Indeed's salary", async () => {
      const job = await createJob(COMPANIES.acme, {
        title: "Baker",
        salary_min: 12.5,
        salary_max: 14,
        salary_period: "hour",
      });
      const page = await (await get(`/jobs/${job.id}`)).text();
      expect(page).toContain("£12.50 – £14.00 an hour");
      const rss = await (await get("/feeds/jobs.rss")).text();
      expect(rss).toContain("£12.50 – £14.00 an hour");
      const indeed = xml.parse(await (await get("/feeds/jobs.xml")).text());
      const jobs = [indeed.source.job].flat() as { title: { "#cdata": string }; salary?: { "#cdata": string } }[];
      expect(jobs.find((item) => item.title["#cdata"] === "Baker")?.salary?.["#cdata"]).toBe("£12.50 – £14.00 an hour");
      // The API takes only ISO 4217 codes and the five periods now; a job stored before that keeps
      // what it was given, and the site must still read it right.
      const annum = await createJob(COMPANIES.acme, { title: "Chef" });
      await host.storage.jobs.update(COMPANIES.acme, annum.id, {
        salaryPeriod: "annum",
        salaryCurrency: "pounds",
        updatedAt: new Date(),
      });
      const chef = await (await get(`/jobs/${annum.id}`)).text();
      expect(chef).toContain("50,000 pounds – 70,000 pounds a year");
      expect(chef).not.toMatch(/a annum|a hour/);
      // Not an ISO 4217 code: no baseSalary in the structured data.
      const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(chef)?.[1] ?? "{}");
      expect(ld).not.toHaveProperty("baseSalary");
      await host.api.jobs.close(COMPANIES.acme, job.id);
      await host.api.jobs.close(COMPANIES.acme, annum.id);
    });

    it("sends security headers on its pages: CSP with no script, nosniff, frame-ancestors, a form that posts to itself", async () => {
      const answer = await get(`/jobs/${open[0]?.id}`);
      const csp = answer.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toMatch(/style-src 'sha256-[\w+/=]+'/);
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await answer.text();
      expect(html).toContain(`action="/jobs/${open[0]?.id}/apply"`);
      expect(html).toContain('enctype="multipart/form-data"');
      expect(html).toContain('<a href="/privacy">privacy notice</a>');
      expect((await fetch(url("/jobs"), { method: "DELETE" })).status).toBe(405);
    });
  });
}
