import { createPublicApi } from "@hireport/core";
import { ROUTES } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/docs/openapi";
import { renderApiReference } from "../src/docs/reference-page";

type Json = Record<string, unknown>;

const api = createPublicApi({
  storage: memoryStorage(),
  publicBaseUrl: "https://careers.example.com",
  fileTokenSecret: "reference-secret-0123456789-abcdefghijk",
  logger: { warn: () => undefined, error: () => undefined },
});

async function page(path = "/api/public/v1/reference") {
  const response = await api.fetch(new Request(`https://api.example.com${path}`));
  return { response, html: await response.text() };
}

/** Every value of an attribute in the page. */
function attributes(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((match) => match[1] as string);
}

describe("GET {basePath}/reference", () => {
  it("answers 200 HTML without a key, with a policy that lets the page load nothing", async () => {
    const { response, html } = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toBe(await api.reference());
    expect(html).toBe(renderApiReference(api.openapi()));
  });

  it("shows every operation, with its parameters, body fields and responses", async () => {
    const { html } = await page();
    const document = api.openapi();
    const paths = document.paths as Record<string, Record<string, Json>>;
    const operationIds = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operationIds).toEqual(expect.arrayContaining([...ROUTES.map((route) => route.operationId)]));
    expect(operationIds).toEqual(expect.arrayContaining(["getOpenApiDocument", "getApiReference"]));
    const ids = new Set(attributes(html, "id"));
    for (const id of operationIds) expect(ids.has(id as string), String(id)).toBe(true);

    for (const route of ROUTES) {
      const start = html.indexOf(`id="${route.operationId}"`);
      const section = html.slice(start, html.indexOf("</section>", start));
      expect(section).toContain(route.path);
      for (const status of [route.successStatus, ...route.errorStatuses]) {
        expect(section, `${route.operationId} ${status}`).toContain(`<code>${status}</code>`);
      }
      const operation = paths[route.path]?.[route.method.toLowerCase()] as Json;
      for (const raw of (operation.parameters as Json[] | undefined) ?? []) {
        const name = typeof raw.$ref === "string" ? String(raw.$ref).split("/").pop() : raw.name;
        const shown = name === "Id" ? "id" : name === "IdempotencyKey" ? "Idempotency-Key" : name;
        expect(section, `${route.operationId} parameter ${shown}`).toContain(`<code>${shown}</code>`);
      }
    }
    // Field descriptions, nested body fields, query parameter descriptions, error codes.
    expect(html).toContain("Full description shown on the job page.");
    expect(html).toContain("<code>candidate.email</code>");
    expect(html).toContain("Page size, 1 to 100.");
    expect(html).toContain("idempotency_in_progress");
    expect(html).toContain("payload_too_large");
    for (const name of ["BadRequest", "MethodNotAllowed", "ServiceUnavailable", "RateLimited"]) {
      expect(html).toContain(`id="response-${name}"`);
    }
    for (const name of ["Job", "Application", "Me", "Error", "EventEnvelope"]) {
      expect(html).toContain(`id="schema-${name}"`);
    }
    expect(html).toContain('id="webhook-application-created"');
  });

  it("loads nothing from anywhere: no script, no external stylesheet or font, only local links", async () => {
    const { html } = await page();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/<(img|iframe|object|embed)/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(attributes(html, "src")).toEqual([]);
    for (const href of attributes(html, "href")) expect(href).toMatch(/^(#[\w-]+|openapi\.json)$/);
    expect(html.match(/<style>/g)).toHaveLength(1);
  });

  it("escapes whatever the document says: its text never becomes markup", () => {
    const document = buildOpenApiDocument();
    const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
    (document.info as Json).description = hostile;
    (document.info as Json).title = "</title><script>alert(1)</script>";
    const get = (document.paths as Record<string, Record<string, Json>>)["/me"]?.get as Json;
    get.summary = hostile;
    get.operationId = `getMe" onmouseover="alert(1)`;
    const html = renderApiReference(document);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('" onmouseover="');
    expect(html).toContain("&lt;script>alert(&quot;x&quot;)&lt;/script>");
    expect(html).toContain("&amp; &quot;quotes&quot;");
  });

  it("another method is 405 with Allow: GET", async () => {
    const response = await api.fetch(
      new Request("https://api.example.com/api/public/v1/reference", { method: "POST" }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});
