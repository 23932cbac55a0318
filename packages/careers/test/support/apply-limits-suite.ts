/**
 * The apply route's limits and text rules through a real framework and a raw HTTP client: a body
 * or a CV over its limit is refused as soon as the limit is passed, with most of the body never
 * sent (the server stopped reading it); text that is not valid UTF-8 is refused naming its field,
 * in multipart and URL-encoded forms and in JSON.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pdfBytes } from "./careers-suite";
import { type Adapter, COMPANIES, startHost, type TestHost } from "./host";
import { multipart, type RawAnswer, sendRaw } from "./raw-upload";

const MiB = 1024 * 1024;
const DAY = 86_400_000;
/**
 * The most a client may have written when the answer to a 64 MiB upload arrives: the 10 MiB (or
 * 11 MiB) the server read, and the buffers of both ends of a local connection (a few MiB each).
 * A server that reads the whole body first lets the client write all 64 MiB.
 */
const MOST_WRITTEN = 40 * MiB;

export function defineApplyLimitsSuite(adapter: Adapter): void {
  /**
   * The answer came while most of the body was unsent. Next's server (and the one of these tests,
   * which does as it does) reads every body into the request as it arrives, whatever the route
   * reads: there only the answer itself is checked.
   */
  const expectAnsweredEarly = (answer: RawAnswer) => {
    if (adapter !== "next") expect(answer.writtenAtAnswer).toBeLessThan(MOST_WRITTEN);
  };

  describe(`the apply route's limits and text rules through ${adapter}`, () => {
    let host: TestHost;
    let jobId: string;

    beforeAll(async () => {
      host = await startHost(adapter);
      const job = await host.api.jobs.create(COMPANIES.acme, {
        title: "Baker",
        description: "Bake.",
        location: "London, UK",
        employment_type: "full_time",
        status: "active",
      });
      jobId = job.id;
    });
    afterAll(async () => {
      await host?.close();
    });
    beforeEach(() => host.clock.advance(DAY + 61_000));

    async function formToken(): Promise<string> {
      const html = await (await fetch(`${host.origin}/jobs/${jobId}`)).text();
      host.clock.advance(5_000);
      return /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? "";
    }

    const fields = (token: string): Record<string, string | Uint8Array> => ({
      form_token: token,
      name: "Grace Hopper",
      email: `grace.${Math.random().toString(36).slice(2)}@example.com`,
      cover_letter: "I would like to bake.",
    });
    const boundary = "----hireport-test-boundary-7f3c";
    const formType = { "content-type": `multipart/form-data; boundary=${boundary}` };
    const applications = async () =>
      (await host.api.applications.list(COMPANIES.acme, { jobId, limit: 100 })).data.length;

    // Regression: a 64 MiB CV was read to its end (2.6 s) before the 422.
    it("refuses a 64 MiB CV with 422 on the CV field as soon as it passes 10 MiB, without reading the rest", async () => {
      const before = await applications();
      const files = await host.countFiles(COMPANIES.acme);
      const head = pdfBytes(0);
      const answer = await sendRaw(
        host.origin,
        `/jobs/${jobId}/apply`,
        formType,
        multipart(boundary, fields(await formToken()), {
          name: "resume",
          filename: "huge.pdf",
          type: "application/pdf",
          content: [head, { filler: 64 * MiB }],
        }),
      );
      expect(answer.status).toBe(422);
      expect(answer.body).toContain('id="resume-error"');
      expect(answer.body).toContain("The file is larger than 10 MB");
      // The fields read before the CV (the cover letter comes before it in the form) are kept.
      expect(answer.body).toContain('value="Grace Hopper"');
      expect(answer.body).toContain("I would like to bake.</textarea>");
      expect(answer.total).toBeGreaterThan(64 * MiB);
      expectAnsweredEarly(answer);
      expect(await applications()).toBe(before);
      expect(await host.countFiles(COMPANIES.acme)).toBe(files);
    });

    it("takes a CV of exactly the limit (10 MiB)", async () => {
      const head = pdfBytes(0);
      const answer = await sendRaw(
        host.origin,
        `/jobs/${jobId}/apply`,
        formType,
        multipart(
          boundary,
          { ...fields(await formToken()), consent: "yes" },
          {
            name: "resume",
            filename: "exact.pdf",
            type: "application/pdf",
            content: [head, { filler: 10 * MiB - head.byteLength }],
          },
        ),
      );
      expect(answer.status).toBe(200);
    });

    it("refuses a form body over its limit with 413 as soon as it passes, without reading the rest", async () => {
      const answer = await sendRaw(
        host.origin,
        `/jobs/${jobId}/apply`,
        formType,
        multipart(boundary, fields(await formToken()), {
          name: "attachment",
          filename: "other.bin",
          type: "application/octet-stream",
          content: [{ filler: 64 * MiB }],
        }),
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toContain("The application is too large");
      expectAnsweredEarly(answer);
    });

    it("refuses a JSON body over its limit with 413 payload_too_large, without reading the rest", async () => {
      const text = (value: string) => new TextEncoder().encode(value);
      const answer = await sendRaw(host.origin, `/jobs/${jobId}/apply`, { "content-type": "application/json" }, [
        text('{"name":"Grace","resume":{"filename":"cv.pdf","content_base64":"'),
        { filler: 64 * MiB },
        text('"}}'),
      ]);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.code).toBe("payload_too_large");
      expectAnsweredEarly(answer);
    });

    // Regression: bytes that are not UTF-8 were taken silently as U+FFFD.
    it("refuses multipart text that is not valid UTF-8 with 422 naming the field", async () => {
      const before = await applications();
      const answer = await sendRaw(
        host.origin,
        `/jobs/${jobId}/apply`,
        formType,
        multipart(
          boundary,
          {
            ...fields(await formToken()),
            name: new Uint8Array([0x47, 0x72, 0xc3, 0x28, 0x61, 0x63, 0x65]),
            consent: "yes",
          },
          { name: "resume", filename: "cv.pdf", type: "application/pdf", content: [pdfBytes()] },
        ),
      );
      expect(answer.status).toBe(422);
      expect(answer.body).toContain('id="name-error"');
      expect(answer.body).toContain("not sent as valid UTF-8");
      expect(answer.body).not.toContain('id="email-error"');
      expect(await applications()).toBe(before);
      // Valid UTF-8 beyond ASCII is taken.
      const fine = await sendRaw(
        host.origin,
        `/jobs/${jobId}/apply`,
        formType,
        multipart(
          boundary,
          { ...fields(await formToken()), name: "Grâce Hoppér 日本", consent: "yes" },
          { name: "resume", filename: "cv.pdf", type: "application/pdf", content: [pdfBytes()] },
        ),
      );
      expect(fine.status).toBe(200);
    });

    it("refuses URL-encoded text that is not valid UTF-8 with 422 naming the field, whatever charset is declared", async () => {
      for (const type of ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8"]) {
        const body = `form_token=${await formToken()}&name=Grace&email=g%40example.com&cover_letter=Caf%E9&consent=yes`;
        const answer = await sendRaw(host.origin, `/jobs/${jobId}/apply`, { "content-type": type }, [
          new TextEncoder().encode(body),
        ]);
        expect(answer.status, type).toBe(422);
        expect(answer.body, type).toContain('id="cover_letter-error"');
        expect(answer.body, type).toContain("not sent as valid UTF-8");
      }
    });

    it("answers JSON that is not UTF-8 as the API does (400), and a lone surrogate with 422 naming the field", async () => {
      const token = await host.careers.formToken({ companyId: COMPANIES.acme, jobId });
      host.clock.advance(5_000);
      const head = new TextEncoder().encode(`{"form_token":"${token}","name":"Gr`);
      const tail = new TextEncoder().encode('ace","email":"g@example.com","consent":true}');
      const bytes = new Uint8Array([...head, 0xc3, 0x28, ...tail]);
      const broken = await fetch(`${host.origin}/jobs/${jobId}/apply`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bytes,
      });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({
        error: { code: "bad_request", message: "The request body is not valid UTF-8." },
      });
      const lone = await fetch(`${host.origin}/jobs/${jobId}/apply`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"form_token":"${token}","name":"Gr\\ud800ace","email":"g@example.com","consent":true}`,
      });
      expect(lone.status).toBe(422);
      const error = ((await lone.json()) as { error: { code: string; fields: { field: string }[] } }).error;
      expect(error.code).toBe("invalid");
      expect(error.fields.map((field) => field.field)).toEqual(["name"]);
    });
  });
}
