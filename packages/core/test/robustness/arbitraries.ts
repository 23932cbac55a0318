/**
 * fast-check arbitraries of the robustness suite: hostile query parameters, JSON values, raw
 * bodies, content types and paths, and valid JobInputs and candidates with the values the API is
 * expected to store for them.
 */
import * as fc from "fast-check";
import { isStorableText } from "../../src/fields/value-schemas";

/** Keys that pollute prototypes when a parser or a merge is careless. */
export const PROTO_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
] as const;

/** Every query parameter any list endpoint knows. */
export const QUERY_NAMES = ["status", "limit", "cursor", "updated_since", "job_id", "stage"] as const;

const tricky = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\uFEFF",
  "\ud800",
  "\udfff",
  "😀",
  "e\u0301",
  "٣",
  "１",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "00",
  "1e3",
  "0x10",
  "1.5",
  " 25",
  "101",
  "100",
  "25",
  "999999",
  "1000000",
  "open",
  "all",
  "closed",
  "draft",
  "OPEN",
  "new",
  "hired",
  "%00",
  "%E0%A4%A",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "'; drop table jobs; --",
  "a".repeat(513),
  "é".repeat(10_000),
);

/** Strings a client might send: random text, any code point, graphemes and known troublemakers. */
export const weirdString = fc.oneof(
  tricky,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.nat().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
);

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));

/** Date-like text near the accepted forms: odd months, days, hours, offsets, fractions. */
export const dateLike = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")),
      fc.constantFrom("+275760", "-000001", "20260"),
    ),
    two(19),
    two(39),
    fc.option(
      fc.tuple(
        two(29),
        two(69),
        two(69),
        fc.constantFrom("", ".9", ".999", ".123456789"),
        fc.constantFrom("Z", "z", "", "+00:00", "-23:59", "+23:59", "+24:00", "+14:00", "-12:00", "+0100", "+01"),
      ),
      { nil: undefined },
    ),
  )
  .map(([year, month, day, time]) => {
    const date = `${year}-${month}-${day}`;
    if (!time) return date;
    const [hh, mm, ss, fraction, zone] = time;
    return `${date}T${hh}:${mm}:${ss}${fraction}${zone}`;
  });

/** A query object, built with own properties (so `__proto__` is a real parameter), values possibly repeated. */
export const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...QUERY_NAMES) },
        { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
      fc.oneof(
        { weight: 4, arbitrary: weirdString },
        { weight: 2, arbitrary: dateLike },
        { weight: 1, arbitrary: fc.array(weirdString, { minLength: 0, maxLength: 3 }) },
      ),
    ),
    { maxLength: 5 },
  )
  .map((entries) => Object.fromEntries(entries) as Record<string, string | string[]>);

/** Numbers at the edges: huge, tiny, negative zero, unsafe integers, NaN and infinities (a JavaScript host may pass them). */
export const weirdNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(
    1e308,
    -1e308,
    2 ** 53 + 2,
    -(2 ** 53),
    -0,
    5e-324,
    0.1,
    1.5,
    -1,
    0,
    1e12,
    1e12 + 1,
    100_000,
    100_001,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
);

/** Nested arrays and objects `depth` levels deep, built without recursion. */
export function nested(depth: number, leaf: unknown = "x"): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

/** The JSON text of `nested(depth)`, built without recursion. */
export function nestedText(depth: number): string {
  let open = "";
  let close = "";
  for (let level = depth - 1; level >= 0; level--) {
    if (level % 2 === 0) {
      open += "[";
      close = `]${close}`;
    } else {
      open += '{"a":';
      close = `}${close}`;
    }
  }
  // Built from the outside in: the outermost level is depth - 1.
  return `${open}"x"${close}`;
}

/** Any value a field might get: wrong types, edge numbers, odd strings, nested and unknown-keyed objects. */
export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  weirdNumber,
  weirdString,
  dateLike,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(weirdString, { maxLength: 4 }),
  fc.array(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 100, maxLength: 102 }),
  fc
    .array(
      fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 })),
      {
        maxLength: 3,
      },
    )
    .map((entries) => Object.fromEntries(entries)),
  fc.integer({ min: 1, max: 2_000 }).map((depth) => nested(depth)),
);

/** Content types, right and wrong. */
export const contentType = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=UTF8",
    "application/json; charset=latin1",
    'application/json; charset="utf-16"',
    "APPLICATION/JSON",
    "application/vnd.api+json",
    "application/jsonp",
    "application/json-patch+json",
    "text/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "",
  ),
  fc.string({ maxLength: 30 }),
);

/** Raw body text: random text, JSON texts, prototype-polluting objects, broken and odd JSON. */
export const rawText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 100 }),
  fc.json({ maxDepth: 4 }),
  fc.constantFrom(
    "",
    "   ",
    "null",
    "[]",
    "{}",
    '"text"',
    "1e999",
    "-0",
    "true",
    '{"title": "A"',
    "{'title': 'A'}",
    '{"title":"A"} x',
    '\uFEFF{"title":"A"}',
    '{"title":"A","title":"B"}',
    '{"title":"A","__proto__":{"polluted":true}}',
    '{"__proto__":{"polluted":true},"title":"A"}',
    '{"title":"A","constructor":{"prototype":{"polluted":true}}}',
    '{"job_id":"x","candidate":{"name":"A","email":"a@example.com","__proto__":{"polluted":true}}}',
    '{"stage":"new","__proto__":{"stage":"hired"}}',
    '{"title":"\\ud800"}',
    '{"title":"\\u0000"}',
    '{"salary_min":1e309}',
    '{"positions":1.0}',
    '{"positions":1e0}',
  ),
);

/** Invalid and valid UTF-8 bytes. */
export const rawBytes = fc.uint8Array({ maxLength: 120 });

/** Idempotency keys, valid and not. */
export const idempotencyKey = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom("", " ", "é", "a".repeat(255), "a".repeat(256), "key with spaces", "\u0000"),
);

// ---------------------------------------------------------------------------------------------
// Valid input
// ---------------------------------------------------------------------------------------------

/**
 * Text that is still non-empty once trimmed, of at most `max` characters, and storable: no NUL
 * character or unpaired surrogate (the API refuses those with 422, see the hostile properties).
 */
export function someText(max: number, unit: "grapheme" | "binary" = "grapheme") {
  return fc
    .string({ unit, minLength: 1, maxLength: max })
    .filter((text) => text.trim().length > 0 && isStorableText(text));
}

/** Any storable text (possibly empty or blank) of at most `max` characters. */
export function anyText(max: number) {
  return fc
    .oneof(fc.string({ unit: "grapheme", maxLength: max }), fc.string({ unit: "binary", maxLength: max }))
    .filter(isStorableText);
}

const realDate = fc
  .date({ min: new Date("1000-01-01T00:00:00.000Z"), max: new Date("9999-12-31T00:00:00.000Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

const amount = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.double({ min: 0, max: 1e12, noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.constantFrom(0, 1e12),
);

const skillList = fc.array(someText(30), { maxLength: 6 });

/** A valid JobInput (docs/api-reference.md, JobInput; only title required), salary in order. */
export const validJobInput = fc
  .record(
    {
      title: someText(60),
      description: anyText(200),
      short_description: anyText(100),
      department: anyText(40),
      location: anyText(40),
      employment_type: fc.oneof(fc.constantFrom("full_time", "part_time", "contract"), anyText(20)),
      experience_level: anyText(20),
      salary_min: fc.option(amount, { nil: null }),
      salary_max: fc.option(amount, { nil: null }),
      salary_currency: fc.constantFrom("GBP", "EUR", "USD", "JPY"),
      salary_period: fc.constantFrom("hour", "day", "week", "month", "year"),
      required_skills: skillList,
      preferred_skills: skillList,
      qualifications: skillList,
      responsibilities: skillList,
      benefits: skillList,
      closing_date: fc.option(realDate, { nil: null }),
      start_date: fc.option(realDate, { nil: null }),
      positions: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
      country: fc.option(fc.constantFrom("GB", "DE", "US", "IE", "JP"), { nil: null }),
      region: fc.option(someText(40), { nil: null }),
      locality: fc.option(someText(40), { nil: null }),
      postal_code: fc.option(fc.stringMatching(/^[A-Z0-9]{2,4} ?[A-Z0-9]{3}$/), { nil: null }),
      workplace_type: fc.option(fc.constantFrom("on_site", "hybrid", "remote"), { nil: null }),
      status: fc.constantFrom("active", "draft", "paused"),
    },
    { requiredKeys: ["title"] },
  )
  .map((input) => {
    const { salary_min: min, salary_max: max } = input;
    if (typeof min === "number" && typeof max === "number" && min > max) {
      return { ...input, salary_min: max, salary_max: min };
    }
    return input;
  });

export type ValidJobInput = typeof validJobInput extends fc.Arbitrary<infer T> ? T : never;

const label = fc.stringMatching(/^[a-z0-9]{1,12}$/);

/** E-mail addresses every validator agrees on. */
export const validEmail = fc
  .tuple(label, fc.array(label, { minLength: 1, maxLength: 2 }), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([local, domains, tld]) => `${local}@${domains.join(".")}.${tld}`);

/** A valid candidate of an ApplicationInput (docs/api-reference.md). */
export const validCandidate = fc.record(
  {
    name: someText(40),
    email: validEmail,
    phone: anyText(20),
    location: anyText(40),
    linkedin_url: fc.constantFrom("", "https://www.linkedin.com/in/ada", "http://example.com/p?q=1"),
    current_title: anyText(40),
    skills: skillList,
  },
  { requiredKeys: ["name", "email"] },
);
