import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ERASED_CANDIDATE } from "../src/applications/erasure";
import { APPLICATION_FIELDS } from "../src/fields/application";
import { CANDIDATE_FIELDS } from "../src/fields/candidate";
import { createShape, field, fieldDefault } from "../src/fields/field";
import { CANDIDATE_DEFAULTS } from "./support/spec-fields";

describe("the boolean and timestamp field kinds", () => {
  it("a boolean is false unless declared otherwise or nullable, and is returned as a boolean", () => {
    const flag = field({ kind: "boolean", wire: "flag" });
    expect(flag.default).toBe(false);
    expect(field({ kind: "boolean", wire: "flag", nullable: true }).default).toBeNull();
    expect(field({ kind: "boolean", wire: "flag", default: true }).default).toBe(true);
    expect(flag.output.safeParse(true).success).toBe(true);
    expect(flag.output.safeParse(1).success).toBe(false);
  });

  it("a timestamp is returned as UTC ISO 8601 text; one that is not nullable must be required, and has no default", () => {
    expect(() => field({ kind: "timestamp", wire: "seen_at" })).toThrow(
      "Field seen_at: a timestamp that is not nullable is required (it has no default).",
    );
    const seenAt = field({ kind: "timestamp", wire: "seen_at", required: true });
    expect(seenAt.default).toBeUndefined();
    expect(seenAt.output.safeParse("2026-03-31T09:30:00.000Z").success).toBe(true);
    expect(seenAt.output.safeParse("2026-03-31T10:30:00+01:00").success).toBe(false);
    const maybe = field({ kind: "timestamp", wire: "seen_at", nullable: true });
    expect(maybe.default).toBeNull();
    expect(maybe.output.safeParse(null).success).toBe(true);
  });
});

describe("fields without an input check", () => {
  it("are not patched unless declared so; fields with one are", () => {
    expect(field({ kind: "text", wire: "kept" }).patch).toBe(false);
    expect(field({ kind: "text", wire: "kept", patch: true }).patch).toBe(true);
    expect(field({ kind: "text", wire: "sent", input: z.string() }).patch).toBe(true);
    expect(field({ kind: "text", wire: "sent", input: z.string(), patch: false }).patch).toBe(false);
  });

  it("cannot be part of a request body", () => {
    const kept = field({ kind: "text", wire: "kept" });
    expect(kept.input).toBeUndefined();
    expect(() => createShape({ kept })).toThrow("Field kept has no input check: no request body takes it.");
  });

  it("a json field without one declares what it returns", () => {
    expect(() => field({ kind: "json", wire: "things", default: [] })).toThrow(
      "A json field without an input check declares its output.",
    );
  });
});

describe("the Application's declared fields", () => {
  it("hand out a fresh copy of a list default each time", () => {
    const first = fieldDefault(APPLICATION_FIELDS.tags);
    first.push("changed");
    expect(fieldDefault(APPLICATION_FIELDS.tags)).toEqual([]);
    expect(fieldDefault(CANDIDATE_FIELDS.skills)).not.toBe(fieldDefault(CANDIDATE_FIELDS.skills));
  });

  it("let an update write the stage, the score, the tags, the star and the review request, and nothing else", () => {
    const patched = Object.entries(APPLICATION_FIELDS)
      .filter(([, spec]) => spec.patch)
      .map(([name]) => name);
    expect(patched).toEqual(["stage", "overallScore", "tags", "starred", "humanReviewRequestedAt"]);
  });

  it("declare as personal exactly the data erasure clears besides the candidate", () => {
    const personal = Object.entries(APPLICATION_FIELDS)
      .filter(([, spec]) => spec.personal)
      .map(([name]) => name);
    expect(personal).toEqual(["emailNormalized", "coverLetter", "resumeSourceUrl", "resumeFileId", "answers"]);
    // Every text empty and every list empty, whatever the candidate's fields.
    expect(Object.keys(ERASED_CANDIDATE)).toEqual(Object.keys(CANDIDATE_FIELDS));
    for (const value of Object.values(ERASED_CANDIDATE))
      expect(value === "" || (Array.isArray(value) && value.length === 0)).toBe(true);
    expect(ERASED_CANDIDATE).toMatchObject({ name: "", email: "", linkedinUrl: "", skills: [] });
    expect(Object.isFrozen(ERASED_CANDIDATE)).toBe(true);
  });

  it("the candidate body takes name and email as required, the rest with their defaults", () => {
    const body = z.strictObject(createShape(CANDIDATE_FIELDS));
    expect(body.parse({ name: " Ada ", email: " ada@example.com " })).toEqual({
      name: "Ada",
      email: "ada@example.com",
      ...CANDIDATE_DEFAULTS,
    });
    expect(body.safeParse({ name: "Ada" }).success).toBe(false);
  });
});
