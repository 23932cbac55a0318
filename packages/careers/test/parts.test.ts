/**
 * The parts of the careers site that need no server: options checked at creation, where a job is
 * (from its free-text location), its type of work, the JSON-LD escaping, the CV's file name, the
 * tags of answers.
 */
import { createHash } from "node:crypto";
import { createPublicApi, type JobRecord } from "@hireport/core";
import { memoryFileStore, memoryStorage } from "@hireport/core/memory";
import { jobFieldDefaults } from "@hireport/core/storage";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { cvFilename } from "../src/apply/cv-type";
import { indeedFeed } from "../src/feeds/indeed";
import {
  countryCodeOfName,
  countryName,
  createCareers,
  employmentTypeOf,
  jobPosting,
  jobView,
  parseLocation,
  resolveTheme,
  scriptJson,
} from "../src/index";
import { currencyCodeOf, salaryTextOf, salaryUnitOf } from "../src/pay";
import { cspHash, etagOf } from "../src/responses";

const api = createPublicApi({
  storage: memoryStorage(),
  fileStore: memoryFileStore(),
  publicBaseUrl: "https://jobs.example.com",
  fileTokenSecret: "parts-test-secret-0123456789-abcdefghijk",
});
const valid = {
  api,
  resolveCompany: () => "co_a",
  secret: "parts-test-secret-0123456789-abcdefghijk",
  privacyNoticeUrl: "/privacy",
};

describe("createCareers options", () => {
  it("names the bad option in a TypeError", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: "short" }, /secret must be at least 32/],
      [{ privacyNoticeUrl: undefined }, /privacyNoticeUrl is required/],
      [{ privacyNoticeUrl: "javascript:alert(1)" }, /privacyNoticeUrl must be an https/],
      [{ resolveCompany: "co_a" }, /resolveCompany is required/],
      [{ basePath: "careers" }, /basePath must be a path/],
      [{ theme: { accentColor: "red;}" } }, /accentColor must be a hex colour/],
      [{ theme: { logoUrl: "//evil.example/logo.png" } }, /logoUrl must be an https/],
      [{ limits: { perMinute: 0 } }, /limits.perMinute must be a whole number/],
      [{ limits: { pageSize: 101 } }, /limits.pageSize/],
      [{ cspSources: { script: ["https://a.example; script-src *"] } }, /cspSources.script/],
      [{ api: {} }, /api must be the object createPublicApi returned/],
      [{ defaultCountry: "UK" }, /defaultCountry must be an ISO 3166-1 alpha-2 code .*"UK"/],
      [{ defaultCountry: "gb" }, /defaultCountry must be an ISO 3166-1 alpha-2 code/],
      [{ defaultCountry: "United Kingdom" }, /defaultCountry must be an ISO 3166-1 alpha-2 code/],
    ];
    for (const [override, message] of cases) {
      expect(() => createCareers({ ...valid, ...override } as never), JSON.stringify(override)).toThrow(message);
    }
    expect(() => createCareers(valid)).not.toThrow();
    expect(() => createCareers({ ...valid, defaultCountry: "GB" })).not.toThrow();
    expect(() => createCareers({ ...valid, defaultCountry: () => null })).not.toThrow();
  });

  // Regression: without a file store the first applicant with a CV got a 500; now creation fails.
  it("refuses an api without a fileStore at creation, naming the option", () => {
    const withoutFiles = createPublicApi({
      storage: memoryStorage(),
      publicBaseUrl: "https://jobs.example.com",
      fileTokenSecret: "parts-test-secret-0123456789-abcdefghijk",
    });
    expect(() => createCareers({ ...valid, api: withoutFiles })).toThrow(TypeError);
    expect(() => createCareers({ ...valid, api: withoutFiles })).toThrow(
      /api has no fileStore.*createPublicApi a fileStore/,
    );
  });

  it("refuses an api without public job pages (publicJobPages: false): the site is those pages", () => {
    const withoutPages = createPublicApi({
      storage: memoryStorage(),
      publicBaseUrl: "https://jobs.example.com",
      fileTokenSecret: "parts-test-secret-0123456789-abcdefghijk",
      fileStore: memoryFileStore(),
      publicJobPages: false,
    });
    expect(() => createCareers({ ...valid, api: withoutPages })).toThrow(/api was created with publicJobPages: false/);
  });
});

describe("a job's place and type", () => {
  it("reads a city, a region and a country (as its ISO code), or remote work and where applicants must be", () => {
    expect(parseLocation("London, UK")).toEqual({
      text: "London, UK",
      city: "London",
      region: null,
      country: "GB",
      remote: false,
    });
    expect(parseLocation("Berlin")).toEqual({
      text: "Berlin",
      city: "Berlin",
      region: null,
      country: null,
      remote: false,
    });
    expect(parseLocation("Leeds, West Yorkshire, United Kingdom")).toMatchObject({
      city: "Leeds",
      region: "West Yorkshire",
      country: "GB",
    });
    expect(parseLocation("Leeds, West Yorkshire")).toMatchObject({
      city: "Leeds",
      region: "West Yorkshire",
      country: null,
    });
    expect(parseLocation("Munich, Germany")).toMatchObject({ city: "Munich", country: "DE" });
    expect(parseLocation("Germany")).toMatchObject({ city: null, country: "DE" });
    expect(parseLocation("Austin, TX, U.S.A.")).toMatchObject({ city: "Austin", region: "TX", country: "US" });
    // A US state's code is not read as a country: CA is California here, not Canada.
    expect(parseLocation("San Francisco, CA")).toMatchObject({ city: "San Francisco", region: "CA", country: null });
    expect(parseLocation("Remote (UK)")).toMatchObject({ remote: true, country: "GB", city: null });
    expect(parseLocation("Remote - Germany")).toMatchObject({ remote: true, country: "DE" });
    expect(parseLocation("remote - Europe")).toMatchObject({ remote: true, country: null });
    expect(parseLocation("Remote")).toMatchObject({ remote: true, country: null });
    expect(parseLocation("")).toMatchObject({ city: null, country: null, remote: false });
    // Names in the page's language too.
    expect(parseLocation("München, Deutschland", "de")).toMatchObject({ city: "München", country: "DE" });
    expect(parseLocation("Lyon, Frankreich")).toMatchObject({ city: "Lyon", region: "Frankreich", country: null });
  });

  it("maps country names, short names and common aliases to ISO codes, and names a code in the page's language", () => {
    const names = {
      UK: "GB",
      "U.K.": "GB",
      "United Kingdom": "GB",
      "great britain": "GB",
      England: "GB",
      USA: "US",
      "United States": "US",
      Germany: "DE",
      Ireland: "IE",
      "Côte d’Ivoire": "CI",
      "Hong Kong": "HK",
      Czechia: "CZ",
      "Czech Republic": "CZ",
      Europe: null,
      Anywhere: null,
      CA: null,
      "": null,
    };
    for (const [name, code] of Object.entries(names)) expect(countryCodeOfName(name), name).toBe(code);
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName("GB", "de")).toBe("Vereinigtes Königreich");
    expect(countryName("DE", "fr")).toBe("Allemagne");
  });

  it("maps the stored type of work to Google's values", () => {
    expect(employmentTypeOf("full_time")).toBe("FULL_TIME");
    expect(employmentTypeOf("Part-time")).toBe("PART_TIME");
    expect(employmentTypeOf("contract")).toBe("CONTRACTOR");
    expect(employmentTypeOf("Internship")).toBe("INTERN");
    expect(employmentTypeOf("something else")).toBeNull();
  });
});

describe("escaping", () => {
  it("keeps a job's text from closing the JSON-LD script element", () => {
    const text = scriptJson({ title: "</script><script>alert(1)</script> & \u2028" });
    expect(text).not.toContain("<");
    expect(text).not.toContain(">");
    expect(text).not.toContain("&");
    expect(JSON.parse(text)).toEqual({ title: "</script><script>alert(1)</script> & \u2028" });
  });

  it("keeps the CV's name without folders or control characters, with the extension of its type", () => {
    const pdf = { contentType: "application/pdf", extension: "pdf", label: "PDF" };
    expect(cvFilename("C:\\Users\\ada\\My CV.pdf", pdf)).toBe("My CV.pdf");
    expect(cvFilename("../../etc/passwd", pdf)).toBe("passwd.pdf");
    expect(cvFilename("cv.exe", pdf)).toBe("cv.exe.pdf");
    expect(cvFilename("\u0007", pdf)).toBe("cv.pdf");
  });
});

describe("answer tags", () => {
  it("tags a body with the first 27 characters of its UTF-8 SHA-256 (tags stay as clients hold them)", () => {
    const body = '{"title":"Ingénieure – Zürich ✓"}';
    const digest = createHash("sha256").update(Buffer.from(body, "utf8")).digest("base64url");
    expect(etagOf(body)).toBe(`"${digest.slice(0, 27)}"`);
    expect(etagOf(`${body} `)).not.toBe(etagOf(body));
    expect(cspHash("body{color:red}")).toBe(
      `'sha256-${createHash("sha256").update("body{color:red}").digest("base64")}'`,
    );
  });
});

describe("pay in words", () => {
  const pay = (salaryMin: number | null, salaryMax: number | null, salaryPeriod: string, salaryCurrency = "GBP") => ({
    salaryMin,
    salaryMax,
    salaryPeriod,
    salaryCurrency,
  });

  // Regression: "£12.50 – £14 a hour" and "a annum" on the job page, in the RSS feed and the Indeed salary.
  it("says each period with its own article, never 'a hour' or 'a annum'", () => {
    expect(salaryTextOf(pay(12.5, 14, "hour"))).toBe("£12.50 – £14.00 an hour");
    expect(salaryTextOf(pay(150, 200, "day"))).toBe("£150 – £200 a day");
    expect(salaryTextOf(pay(600, null, "week"))).toBe("From £600 a week");
    expect(salaryTextOf(pay(null, 4000, "month"))).toBe("Up to £4,000 a month");
    expect(salaryTextOf(pay(50_000, 70_000, "year"))).toBe("£50,000 – £70,000 a year");
    expect(salaryTextOf(pay(50_000, 50_000, "annum"))).toBe("£50,000 a year");
    expect(salaryTextOf(pay(50_000, null, "Per Annum"))).toBe("From £50,000 a year");
    expect(salaryTextOf(pay(20, null, "hourly"))).toBe("From £20 an hour");
    expect(salaryTextOf(pay(300, null, "shift"))).toBe("From £300 per shift");
    expect(salaryTextOf(pay(null, null, "year"))).toBeNull();
    for (const period of ["hour", "Hourly", "annum", "per annum", "yearly", "HOUR"]) {
      const text = salaryTextOf(pay(10, 20, period)) ?? "";
      expect(text, period).not.toMatch(/\ba (hour|annum|hourly)\b/i);
    }
  });

  it("formats the money in the page's language with Intl, for every period", () => {
    const periods = { hour: "an hour", day: "a day", week: "a week", month: "a month", year: "a year" };
    for (const [period, words] of Object.entries(periods)) {
      for (const locale of ["en", "en-GB", "en-US", "de", "fr", "ja"]) {
        const money = new Intl.NumberFormat(locale, { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
        expect(salaryTextOf(pay(1000, 2000, period, "EUR"), locale), `${period} ${locale}`).toBe(
          `${money.format(1000)} – ${money.format(2000)} ${words}`,
        );
      }
    }
    expect(salaryTextOf(pay(50_000, null, "year", "USD"), "en-US")).toBe("From $50,000 a year");
    expect(salaryTextOf(pay(50_000, null, "year", "EUR"), "de")).toBe("From 50.000\u00a0€ a year");
    // A language tag Intl does not know falls back to English figures.
    expect(salaryTextOf(pay(50_000, null, "year"), "x-unknown-tag")).toBe("From £50,000 a year");
  });

  it("keeps a currency that is not an ISO 4217 code as text, and gives structured data only the units it knows", () => {
    expect(salaryTextOf(pay(50_000, null, "year", "pounds"))).toBe("From 50,000 pounds a year");
    expect(salaryTextOf(pay(50_000, null, "year", "gbp"))).toBe("From £50,000 a year");
    expect(currencyCodeOf("GBP")).toBe("GBP");
    expect(currencyCodeOf(" eur ")).toBe("EUR");
    for (const bad of ["£", "pounds", "GB", "GBPX", "ZZZ", ""]) expect(currencyCodeOf(bad), bad).toBeNull();
    const units = {
      hour: "HOUR",
      day: "DAY",
      week: "WEEK",
      month: "MONTH",
      year: "YEAR",
      annum: "YEAR",
      weekly: "WEEK",
    };
    for (const [period, unit] of Object.entries(units)) expect(salaryUnitOf(period), period).toBe(unit);
    expect(salaryUnitOf("shift")).toBeNull();
  });
});

const record = (overrides: Partial<JobRecord>): JobRecord => ({
  ...jobFieldDefaults(),
  id: "job_1",
  companyId: "co_a",
  reference: "JOB-1",
  title: "Baker",
  description: "Bake.",
  shortDescription: "Bake.",
  department: "",
  location: "London, UK",
  employmentType: "full_time",
  experienceLevel: "",
  salaryMin: 12.5,
  salaryMax: 14,
  salaryCurrency: "GBP",
  salaryPeriod: "hour",
  requiredSkills: [],
  preferredSkills: [],
  qualifications: [],
  responsibilities: [],
  benefits: [],
  closingDate: null,
  startDate: null,
  positions: null,
  status: "active",
  hidden: false,
  applicationsCount: 0,
  createdAt: new Date("2026-03-01T00:00:00Z"),
  updatedAt: new Date("2026-03-01T00:00:00Z"),
  closedAt: null,
  publishedAt: null,
  ...overrides,
});
const addresses = {
  url: () => "https://jobs.example.com/jobs/job_1",
  siteUrl: () => "https://jobs.example.com",
  validThrough: () => null,
};
const theme = resolveTheme({ name: "Acme" }, { id: "co_a", name: "Acme", createdAt: new Date(0) });

describe("pay in JobPosting data", () => {
  const posting = (overrides: Partial<JobRecord>) =>
    jobPosting(jobView(addresses, record(overrides), ""), theme, "https://jobs.example.com");

  it("maps each period to its unitText", () => {
    const units = { hour: "HOUR", day: "DAY", week: "WEEK", month: "MONTH", year: "YEAR", annum: "YEAR" };
    for (const [salaryPeriod, unitText] of Object.entries(units)) {
      expect(posting({ salaryPeriod }).baseSalary, salaryPeriod).toEqual({
        "@type": "MonetaryAmount",
        currency: "GBP",
        value: { "@type": "QuantitativeValue", minValue: 12.5, maxValue: 14, unitText },
      });
    }
    expect((posting({ salaryPeriod: "shift" }).baseSalary as { value: object }).value).not.toHaveProperty("unitText");
  });

  // Regression: a currency such as "£" or "pounds" went out as baseSalary.currency, which Google refuses.
  it("gives no baseSalary when the currency is not an ISO 4217 code", () => {
    for (const salaryCurrency of ["£", "pounds", "GB", "XYZ1"]) {
      expect(posting({ salaryCurrency }), salaryCurrency).not.toHaveProperty("baseSalary");
    }
    expect((posting({ salaryCurrency: "eur" }).baseSalary as { currency: string }).currency).toBe("EUR");
  });
});

describe("a job's place in JobPosting data, the Indeed feed and the page's words", () => {
  const view = (overrides: Partial<JobRecord>, lang = "en", defaultCountry: string | null = null) =>
    jobView(addresses, record(overrides), "", lang, defaultCountry);
  const posting = (overrides: Partial<JobRecord>, defaultCountry: string | null = null) =>
    jobPosting(view(overrides, "en", defaultCountry), theme, "https://jobs.example.com");
  const parser = new XMLParser({ cdataPropName: "#cdata", parseTagValue: false });
  /** The `<job>` of one job in the Indeed feed, each element's text by name. */
  const indeedJob = (overrides: Partial<JobRecord>, defaultCountry: string | null = null): Record<string, string> => {
    const text = indeedFeed({
      publisher: "Acme",
      siteUrl: "https://jobs.example.com",
      jobs: [view(overrides, "en", defaultCountry)],
      now: new Date("2026-03-02T00:00:00Z"),
    });
    const job = parser.parse(text).source.job as Record<string, { "#cdata": string }>;
    return Object.fromEntries(Object.entries(job).map(([name, value]) => [name, value["#cdata"]]));
  };
  const leeds = {
    location: "Leeds office",
    country: "GB",
    region: "West Yorkshire",
    locality: "Leeds",
    postalCode: "LS1 4DY",
  };

  it("gives the place parts as the address, the country as its ISO code", () => {
    expect(posting(leeds).jobLocation).toEqual({
      "@type": "Place",
      address: {
        "@type": "PostalAddress",
        addressLocality: "Leeds",
        addressRegion: "West Yorkshire",
        postalCode: "LS1 4DY",
        addressCountry: "GB",
      },
    });
    expect(posting(leeds)).not.toHaveProperty("jobLocationType");
    const job = indeedJob(leeds);
    expect([job.city, job.state, job.country, job.postalcode]).toEqual(["Leeds", "West Yorkshire", "GB", "LS1 4DY"]);
    expect(job).not.toHaveProperty("remotetype");
  });

  // Regression: "London, UK" gave addressCountry "UK" (a name: Google wants the ISO code), the Indeed feed <country>UK.
  it("maps a country the location text names to its ISO code, and never gives a name", () => {
    for (const [location, country] of [
      ["London, UK", "GB"],
      ["London, United Kingdom", "GB"],
      ["Berlin, Germany", "DE"],
      ["New York, NY, USA", "US"],
    ] as const) {
      const address = (posting({ location }).jobLocation as { address: Record<string, string> }).address;
      expect(address.addressCountry, location).toBe(country);
      expect(indeedJob({ location }).country, location).toBe(country);
    }
    expect((posting({ location: "New York, NY, USA" }).jobLocation as { address: object }).address).toMatchObject({
      addressLocality: "New York",
      addressRegion: "NY",
    });
    expect(indeedJob({ location: "New York, NY, USA" }).state).toBe("NY");
  });

  // Regression: "Leeds" had no addressCountry at all.
  it("uses the default country when neither the job nor its text names one", () => {
    const address = (job: Partial<JobRecord>, fallback: string | null) =>
      (posting(job, fallback).jobLocation as { address: Record<string, string> }).address;
    expect(address({ location: "Leeds" }, null)).toEqual({ "@type": "PostalAddress", addressLocality: "Leeds" });
    expect(address({ location: "Leeds" }, "GB")).toMatchObject({ addressLocality: "Leeds", addressCountry: "GB" });
    expect(indeedJob({ location: "Leeds" }, "GB").country).toBe("GB");
    // The job's own country, or the one its text names, wins over the default.
    expect(address({ location: "Leeds", country: "IE" }, "GB").addressCountry).toBe("IE");
    expect(address({ location: "Berlin, Germany" }, "GB").addressCountry).toBe("DE");
    // A job with no place at all still has the company's country.
    expect(address({ location: "" }, "GB")).toEqual({ "@type": "PostalAddress", addressCountry: "GB" });
    expect(posting({ location: "" })).not.toHaveProperty("jobLocation");
  });

  it("marks a remote job TELECOMMUTE with the country applicants must be in, as a code", () => {
    const remote = posting({ location: "Anywhere in the UK", workplaceType: "remote", country: "GB" });
    expect(remote.jobLocationType).toBe("TELECOMMUTE");
    expect(remote.applicantLocationRequirements).toEqual({ "@type": "Country", name: "GB" });
    expect(remote).not.toHaveProperty("jobLocation");
    expect(posting({ location: "Remote (Germany)" }).applicantLocationRequirements).toEqual({
      "@type": "Country",
      name: "DE",
    });
    expect(posting({ location: "Remote" }, "GB").applicantLocationRequirements).toEqual({
      "@type": "Country",
      name: "GB",
    });
    // "Europe" is no country: no requirement, and not the default country either.
    const europe = posting({ location: "Remote - Europe" }, "GB");
    expect(europe.jobLocationType).toBe("TELECOMMUTE");
    expect(europe).not.toHaveProperty("applicantLocationRequirements");
    expect(indeedJob({ location: "Remote", workplaceType: null }).remotetype).toBe("Fully remote");
    expect(indeedJob({ location: "Leeds", workplaceType: "remote" }).remotetype).toBe("Fully remote");
  });

  it("keeps a hybrid job's address (TELECOMMUTE is for fully remote work) and marks it in the Indeed feed", () => {
    const hybrid = posting({ ...leeds, workplaceType: "hybrid" });
    expect(hybrid).not.toHaveProperty("jobLocationType");
    expect((hybrid.jobLocation as { address: object }).address).toMatchObject({ addressLocality: "Leeds" });
    expect(indeedJob({ ...leeds, workplaceType: "hybrid" }).remotetype).toBe("Hybrid remote");
    // workplace_type wins over the text: "Remote" text on an on-site job is not remote.
    const onSite = posting({ location: "Remote", workplaceType: "on_site", locality: "York", country: "GB" });
    expect(onSite).not.toHaveProperty("jobLocationType");
    expect((onSite.jobLocation as { address: object }).address).toMatchObject({ addressLocality: "York" });
  });

  it("says the place in words, the country named in the page's language; free text alone stays as written", () => {
    expect(view({ ...leeds, workplaceType: "hybrid" }).location.words).toBe(
      "Leeds, West Yorkshire, United Kingdom (hybrid)",
    );
    expect(view({ ...leeds, workplaceType: "on_site" }, "de").location.words).toBe(
      "Leeds, West Yorkshire, Vereinigtes Königreich (on site)",
    );
    expect(view({ location: "", workplaceType: "remote", country: "IE" }, "fr").location.words).toBe(
      "Remote (Irlande)",
    );
    expect(view({ location: "", workplaceType: "remote" }).location.words).toBe("Remote");
    expect(view({ location: "Leeds office", country: "GB" }).location.words).toBe("Leeds office, United Kingdom");
    expect(view({ location: "London, UK" }, "en", "GB").location.words).toBe("London, UK");
    expect(view({ location: "" }).location.words).toBe("");
  });
});
