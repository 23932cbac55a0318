/**
 * Regression: a job page whose JobPosting has no `addressCountry` (the job has no `country`, its
 * `location` names none, and the site has no `defaultCountry` for its company), which Google's
 * report lists as an error, was published without a word to the host. The site now warns through
 * its `logger`, once per job however often the page is shown, naming the job and what to set.
 * Express on SQLite, pages read with Node's fetch.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMPANIES, startHost, type TestHost } from "./support/host";

interface Logged {
  message: string;
  details: Record<string, unknown> | undefined;
}

let host: TestHost;
let warnings: Logged[];

beforeEach(async () => {
  warnings = [];
  // The host's default country: GB for Acme, none for Globex.
  host = await startHost("express", {
    logger: {
      warn: (message, details) => {
        warnings.push({ message, details });
      },
      error: (message, details) => console.error(message, details),
    },
  });
});

afterEach(async () => {
  await host.close();
});

/** The job page's JobPosting, read from the page as a search engine reads it. */
async function posting(path: string, headers: Record<string, string> = {}): Promise<Record<string, unknown> | null> {
  const response = await fetch(`${host.origin}${path}`, { headers });
  if (response.status === 304) return null;
  expect(response.status).toBe(200);
  const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(await response.text())?.[1];
  return JSON.parse(script ?? "null") as Record<string, unknown>;
}

function job(companyId: string, input: Record<string, unknown>) {
  return host.api.jobs.create(companyId, { title: "Warehouse Lead", status: "active", ...input });
}

/** The warnings that name `jobId`. */
const about = (jobId: string) => warnings.filter((warning) => warning.message.includes(jobId));

describe("a job whose JobPosting has no country", () => {
  it("is warned about once per job over several renders, naming the job and the options to set", async () => {
    const leeds = await job(COMPANIES.globex, { location: "Leeds" });
    const nowhere = await job(COMPANIES.globex, { location: "" });
    const path = `/c/globex/jobs/${leeds.id}`;

    const first = await posting(path);
    expect(first?.jobLocation).toEqual({
      "@type": "Place",
      address: { "@type": "PostalAddress", addressLocality: "Leeds" },
    });
    await posting(path);
    await posting(path);
    const etag = (await fetch(`${host.origin}${path}`)).headers.get("etag") ?? "";
    expect(await posting(path, { "if-none-match": etag })).toBeNull();

    expect(about(leeds.id)).toHaveLength(1);
    const [warning] = about(leeds.id);
    expect(warning?.message).toContain("defaultCountry");
    expect(warning?.message).toContain("country");
    expect(warning?.message).toContain("addressCountry");
    expect(warning?.details).toEqual({ companyId: COMPANIES.globex, jobId: leeds.id });

    // Another such job is a warning of its own, once too.
    await posting(`/c/globex/jobs/${nowhere.id}`);
    await posting(`/c/globex/jobs/${nowhere.id}`);
    expect(about(nowhere.id)).toHaveLength(1);
    expect(warnings).toHaveLength(2);
  });

  it("is not warned about when the job has a country: its own, its location's, or the site's defaultCountry", async () => {
    const own = await job(COMPANIES.globex, { location: "Leeds", country: "GB" });
    const named = await job(COMPANIES.globex, { location: "Leeds, United Kingdom" });
    const byDefault = await job(COMPANIES.acme, { location: "Leeds" });
    const remote = await job(COMPANIES.globex, { location: "Remote" });

    for (const path of [`/c/globex/jobs/${own.id}`, `/c/globex/jobs/${named.id}`, `/jobs/${byDefault.id}`]) {
      const address = (await posting(path))?.jobLocation as { address?: Record<string, unknown> } | undefined;
      expect(address?.address?.addressCountry, path).toBe("GB");
    }
    // Fully remote work has no address to carry a country (jobLocationType TELECOMMUTE).
    expect((await posting(`/c/globex/jobs/${remote.id}`))?.jobLocationType).toBe("TELECOMMUTE");

    expect(warnings).toEqual([]);
  });
});
