/**
 * Runs the zod schemas on request input and turns their issues into the errors of docs/api-reference.md, Errors:
 * a body that breaks its schema is 422 `invalid` with a `fields` list (dotted paths, list items by
 * index); a bad query parameter is 400 `bad_request` naming the parameter. Every message says what
 * to send instead, in plain English.
 */
import type * as z from "zod";
import { type FieldError, HireportError } from "../base/errors";
import { formatNumber } from "../base/format-number";
import type { QueryBag } from "../base/http-types";

/** Most entries one 422 answer lists; a body with more problems is reported by its first 100. */
export const MAX_FIELD_ERRORS = 100;

/** The `field` of a problem with the body as a whole (not an object, for example). */
export const BODY_FIELD = "body";

type RawIssue = z.core.$ZodRawIssue;

/** What a JSON value is, for "Must be a string, not a number." */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : String(value);
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return "true or false";
  return typeof value;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

function lengthOf(value: unknown): number | undefined {
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  return undefined;
}

/** Plain-English message for one issue; schema-level messages (e-mail, urls, dates) take precedence. */
export function issueMessage(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "This field is required.";
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (issue.expected === "int" && typeof issue.input === "number") return "Must be a whole number.";
      return `Must be ${expected}, not ${describeValue(issue.input)}.`;
    }
    case "too_big": {
      const max = formatNumber(issue.maximum);
      const length = lengthOf(issue.input);
      if (issue.origin === "string") {
        return `Must be at most ${max} characters long${length === undefined ? "" : ` (this one has ${formatNumber(length)})`}.`;
      }
      if (issue.origin === "array") {
        return `Must have at most ${max} items${length === undefined ? "" : ` (this one has ${formatNumber(length)})`}.`;
      }
      return issue.inclusive === false ? `Must be less than ${max}.` : `Must be at most ${max}.`;
    }
    case "too_small": {
      const min = formatNumber(issue.minimum);
      if (issue.origin === "string") {
        return issue.minimum === 1 ? "Must not be empty." : `Must be at least ${min} characters long.`;
      }
      if (issue.origin === "array") return `Must have at least ${min} item${issue.minimum === 1 ? "" : "s"}.`;
      return issue.inclusive === false ? `Must be greater than ${min}.` : `Must be at least ${min}.`;
    }
    case "invalid_format":
      switch (issue.format) {
        case "email":
          return "Must be a valid e-mail address, such as ada@example.com.";
        case "url":
          return "Must be a full web address, such as https://example.com/page.";
        case "date":
          return "Must be a real calendar date in the form YYYY-MM-DD, such as 2026-03-31.";
        case "datetime":
          return "Must be a date-time with a time zone, such as 2026-03-31T09:30:00Z.";
        default:
          return `Must be in the ${issue.format} format.`;
      }
    case "invalid_value":
      if (issue.values.length === 1) return `Must be ${JSON.stringify(issue.values[0])}.`;
      return `Must be one of: ${issue.values.map(String).join(", ")}.`;
    case "unrecognized_keys":
      return "Unknown field.";
    case "invalid_union":
      return "Does not match any accepted form of this field.";
    case "not_multiple_of":
      return `Must be a multiple of ${formatNumber(issue.divisor)}.`;
    default:
      return issue.message ?? "Is not valid.";
  }
}

function pathToField(path: readonly PropertyKey[]): string {
  return path.length === 0 ? BODY_FIELD : path.map((segment) => String(segment)).join(".");
}

/** The `fields` list of a 422 answer: one entry per problem, one per unknown key. */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const fields: FieldError[] = [];
  const seen = new Set<string>();
  const push = (field: string, message: string) => {
    const key = `${field}\u0000${message}`;
    if (seen.has(key) || fields.length >= MAX_FIELD_ERRORS) return;
    seen.add(key);
    fields.push({ field, message });
  };
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) push(pathToField([...issue.path, key]), "Unknown field.");
    } else if (issue.code === "invalid_type" && issue.path.length === 0) {
      push(BODY_FIELD, `The request body must be a JSON object, not ${describeValue(issue.input)}.`);
    } else {
      push(pathToField(issue.path), issue.message);
    }
  }
  return fields;
}

/**
 * Validates a parsed JSON body (or a host method's input, named by `subject`) against a schema and
 * returns its output (defaults applied).
 * @throws HireportError `invalid` (422) with `fields`: `[{ field: "candidate.email", message }]`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, subject = "The request body"): z.output<S> {
  const result = schema.safeParse(body, { error: issueMessage, reportInput: true });
  if (result.success) return result.data;
  const fields = issuesToFieldErrors(result.error.issues);
  const [first] = fields;
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more; see error.fields)` : "";
  const summary = first ? `${first.field}: ${first.message}${more}` : "see error.fields";
  throw new HireportError("invalid", `${subject} is not valid. ${summary}`, { fields });
}

/** Quoted, shortened echo of a value for a 400 message. */
function echo(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * Turns a query (a framework's object or `URLSearchParams`) into one string per parameter.
 * @throws HireportError `bad_request` when a parameter is sent more than once.
 */
export function flattenQuery(query: QueryBag | URLSearchParams | undefined): Record<string, string> {
  if (query === undefined) return {};
  const entries: [string, string[]][] = [];
  if (query instanceof URLSearchParams) {
    for (const name of new Set(query.keys())) entries.push([name, query.getAll(name)]);
  } else {
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      entries.push([name, Array.isArray(value) ? value : [value]]);
    }
  }
  const flat: [string, string][] = [];
  for (const [name, values] of entries) {
    if (values.length === 0) continue;
    if (values.length > 1) {
      throw new HireportError(
        "bad_request",
        `Query parameter '${name}' was sent ${values.length} times; send it at most once.`,
      );
    }
    flat.push([name, values[0] as string]);
  }
  // fromEntries defines own properties, so a parameter named __proto__ is reported, not swallowed.
  return Object.fromEntries(flat);
}

/** Names of the parameters a strict query schema accepts. */
function allowedNames(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Validates a query against a strict object schema of string parameters and returns its output.
 * @throws HireportError `bad_request` (400) naming the parameter: unknown, repeated or invalid.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: QueryBag | URLSearchParams | undefined): z.output<S> {
  const flat = flattenQuery(query);
  const result = schema.safeParse(flat, { error: issueMessage });
  if (result.success) return result.data;
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      const names = issue.keys.map((key) => `'${key}'`).join(", ");
      const allowed = allowedNames(schema);
      problems.push(
        `Unknown query parameter${issue.keys.length > 1 ? "s" : ""} ${names}. ${
          allowed.length > 0 ? `This endpoint accepts: ${allowed.join(", ")}.` : "This endpoint accepts none."
        }`,
      );
    } else {
      const name = String(issue.path[0] ?? "query");
      problems.push(`Query parameter '${name}' is not valid (got ${echo(flat[name])}). ${issue.message}`);
    }
  }
  throw new HireportError("bad_request", problems.join(" "));
}
