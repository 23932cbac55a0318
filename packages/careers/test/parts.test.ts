/**
 * The parts of the careers site that need no server: options checked at creation, where a job is
 * (from its free-text location), its type of work, the JSON-LD escaping, the CV's file name, the
 * tags of answers.
 */
import { createHash } from "node:crypto";
import { createPublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { describe, expect, it } from "vitest";
import { cvFilename } from "../src/apply/cv-type";
import { createCareers, employmentTypeOf, parseLocation, scriptJson } from "../src/index";
import { cspHash, etagOf } from "../src/responses";

const api = createPublicApi({
  storage: memoryStorage(),
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
    ];
    for (const [override, message] of cases) {
      expect(() => createCareers({ ...valid, ...override } as never), JSON.stringify(override)).toThrow(message);
    }
    expect(() => createCareers(valid)).not.toThrow();
  });
});

describe("a job's place and type", () => {
  it("reads a city and a country, or remote work and where applicants must be", () => {
    expect(parseLocation("London, UK")).toEqual({ text: "London, UK", city: "London", country: "UK", remote: false });
    expect(parseLocation("Berlin")).toEqual({ text: "Berlin", city: "Berlin", country: null, remote: false });
    expect(parseLocation("Remote (UK)")).toMatchObject({ remote: true, country: "UK", city: null });
    expect(parseLocation("remote - Europe")).toMatchObject({ remote: true, country: "Europe" });
    expect(parseLocation("Remote")).toMatchObject({ remote: true, country: null });
    expect(parseLocation("")).toMatchObject({ city: null, country: null, remote: false });
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
