/**
 * The event catalog page: every event type with its description, an example body and the JSON
 * Schema of its envelope (from core's `eventCatalog`), each example valid against its schema as a
 * JSON Schema validator (Ajv, draft 2020-12, formats checked) reads it; linked from the webhooks page.
 */

import { eventCatalog } from "@hireport/core/extend";
import { EVENT_TYPES } from "@hireport/core/schemas";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventAnchor } from "../src/pages/event-catalog-page";
import { getPage, startHost, type TestHost, userCookie } from "./support/host";

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

/** The text of an element's HTML, its entities decoded. */
function decode(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("eventCatalog", () => {
  it("lists every event type and the test event, each example valid against its own JSON Schema only", () => {
    const catalog = eventCatalog();
    expect(catalog.map((entry) => entry.type)).toEqual([...EVENT_TYPES, "webhook.test"]);
    const ajv = validator();
    for (const entry of catalog) {
      expect(entry.description.length).toBeGreaterThan(10);
      expect(entry.example.type).toBe(entry.type);
      const validate = ajv.compile(entry.schema);
      expect(validate(entry.example), `${entry.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      // The schema is strict: an unknown field, or another type, is refused.
      expect(validate({ ...entry.example, extra: 1 })).toBe(false);
      const other = catalog.find((candidate) => candidate.type !== entry.type);
      expect(validate({ ...entry.example, type: other?.type })).toBe(false);
    }
  });
});

describe("the event catalog page", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost();
  });

  afterAll(async () => {
    await host?.close();
  });

  it("shows each type under a heading with an anchor, its example and schema as JSON; the webhooks page links to it", async () => {
    const webhooks = await getPage(host, "/webhooks", userCookie("member"));
    expect(webhooks.text).toMatch(/<a href="[^"]*\/webhooks\/events">The event types<\/a>/);
    const page = await getPage(host, "/webhooks/events", userCookie("member"));
    expect(page.status).toBe(200);
    const ajv = validator();
    for (const entry of eventCatalog()) {
      const anchor = eventAnchor(entry.type);
      expect(page.text).toContain(`<a href="#${anchor}"><code>${entry.type}</code></a>`);
      const section = new RegExp(`<section aria-labelledby="${anchor}">([\\s\\S]*?)</section>`).exec(page.text)?.[1];
      expect(section, entry.type).toBeDefined();
      expect(section).toContain(`<h2 id="${anchor}"><code>${entry.type}</code></h2>`);
      const blocks = [...(section ?? "").matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
        decode(m[1] ?? ""),
      );
      expect(blocks).toHaveLength(2);
      const [example, schema] = blocks.map((block) => JSON.parse(block));
      expect(example).toEqual(entry.example);
      expect(schema).toEqual(entry.schema);
      expect(blocks[0]).toBe(JSON.stringify(entry.example, null, 2));
      expect(ajv.validate(schema, example)).toBe(true);
    }
  });
});
