/**
 * Regression tests for the faults the robustness suite found, each named by what it guards.
 */
import * as fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/http/idempotency";
import { nested, nestedText } from "./arbitraries";
import { answerProblems, createSetup, type Setup, send, snapshot } from "./support";

/** The recursive form canonicalJson had before it became iterative: stored request hashes depend on it. */
function recursiveCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursiveCanonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${recursiveCanonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

describe("regressions found by the robustness suite", () => {
  let s: Setup | undefined;
  afterEach(async () => {
    await s?.api.close();
    s = undefined;
  });

  it("a deeply nested body with an Idempotency-Key answers 4xx like without the key, never 500 (stack overflow in canonicalJson)", async () => {
    s = createSetup();
    const acme = await s.tenant("acme");
    const before = await snapshot(s.storage, "acme");
    for (const [index, body] of [
      { rawBody: nestedText(200_000) },
      { rawBody: `{"title":"Deep","benefits":${nestedText(200_000)}}` },
      { body: nested(200_000) },
    ].entries()) {
      const answer = await send(s.api, {
        method: "POST",
        path: "/jobs",
        headers: {
          authorization: `Bearer ${acme.key}`,
          "content-type": "application/json",
          "idempotency-key": `deep-${index}`,
        },
        ...body,
      });
      expect(answerProblems(answer)).toEqual([]);
      expect(answer.status).toBe(422);
    }
    expect(s.logger.entries).toEqual([]);
    expect(await snapshot(s.storage, "acme")).toBe(before);
  });

  it("canonicalJson still writes ordinary bodies exactly as before, so stored Idempotency-Key hashes keep matching", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson({ b: [1, undefined, "x"], a: { d: undefined, c: null } })).toBe(
      '{"a":{"c":null},"b":[1,null,"x"]}',
    );
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"a":1,"self":"[cycle]"}');
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it("a query parameter named __proto__ is refused with 400 naming it, through api.fetch and URLSearchParams (it was dropped silently)", async () => {
    s = createSetup();
    const acme = await s.tenant("acme");
    const job = await s.api.jobs.create("acme", { title: "Engineer" });
    for (const [path, query] of [
      [`/jobs/${job.id}`, "__proto__=1"],
      ["/jobs", "__proto__=1"],
      ["/applications", "limit=5&__proto__=x"],
      ["/me", "__proto__=%7B%7D"],
    ] as const) {
      const viaFetch = await s.api.fetch(
        new Request(`https://api.example.com/api/public/v1${path}?${query}`, {
          headers: { authorization: `Bearer ${acme.key}` },
        }),
      );
      expect(viaFetch.status, `${path}?${query}`).toBe(400);
      const body = (await viaFetch.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("bad_request");
      expect(body.error.message).toContain("'__proto__'");

      const viaHandle = await send(s.api, {
        method: "GET",
        path,
        query: new URLSearchParams(query),
        headers: { authorization: `Bearer ${acme.key}` },
      });
      expect(viaHandle.status).toBe(400);
    }
    expect(({} as Record<string, unknown>)["1"]).toBeUndefined();
  });
});
