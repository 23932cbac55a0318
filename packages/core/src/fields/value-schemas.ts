/**
 * Building blocks of the request and response schemas: the input limits
 * (docs/api-reference.md#limits-at-a-glance) and the field types that enforce them. Every limit lives once: here, or
 * in the declaration of the one field it belongs to (`fields/`); the zod schemas enforce it and the
 * OpenAPI document (generated from the same schemas) publishes it.
 */
import * as z from "zod";
import { formatNumber } from "../base/format-number";
import { isCountryCode } from "./country-codes";

/** Text lengths, list sizes and number ranges enforced on input (a field's own may be in its declaration). */
export const LIMITS = {
  /** Job title. */
  title: 200,
  /** Job short description. */
  shortDescription: 500,
  /** Job description. */
  description: 50_000,
  /** Recruiter note added with PATCH /applications/{id}. */
  note: 10_000,
  /** Names and labels: department, location, employment type, candidate name, currency… */
  label: 200,
  /** E-mail address (RFC 5321 path limit). */
  email: 254,
  /** Web addresses. */
  url: 2_048,
  /** Items in a list of strings (skills, tags, benefits…). */
  listItems: 100,
  /** Characters in one list item. */
  listItem: 200,
  /** Identifiers sent by clients (job_id, path id). */
  id: 200,
  /** Paging cursor. */
  cursor: 512,
  /** Postal code of a job's place (`postal_code`). */
  postalCode: 20,
  /** Largest salary amount accepted. */
  salary: 1_000_000_000_000,
  /** Largest number of positions of a job. */
  positions: 100_000,
  /** Smallest page size. */
  pageMin: 1,
  /** Largest page size. */
  pageMax: 100,
  /** Page size when `limit` is not sent. */
  pageDefault: 25,
  /** Questions of one job's apply form. */
  questions: 30,
  /** Characters of a question's `id` (letters, digits, `_` and `-`). */
  questionId: 50,
  /** Characters of a question's `label`. */
  questionLabel: 500,
  /** Characters of a question's `help` text. */
  questionHelp: 1_000,
  /** Choices of one choice question. */
  choices: 50,
  /** Characters of a choice's `value`. */
  choiceValue: 100,
  /** Characters of an answer to a `short_text` question. */
  shortAnswer: 500,
  /** Characters of an answer to a `long_text` question. */
  longAnswer: 10_000,
  /** Largest absolute value of an answer to a `number` question. */
  numberAnswer: 1_000_000_000_000,
} as const;

const DATE_EXAMPLE = "2026-03-31";

/**
 * An error option that words format failures (`invalid_format`) and leaves every other issue
 * (missing, wrong type, too long) to the general messages of `validation.ts`.
 */
export function formatError(message: string) {
  return { error: (issue: { code?: string }) => (issue.code === "invalid_format" ? message : undefined) };
}

/** What a refused character in text input is told. */
export const UNSTORABLE_TEXT_MESSAGE = "Must not contain the NUL character (U+0000) or an unpaired UTF-16 surrogate.";

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether every database stores the text exactly as sent: Postgres refuses the NUL character, and
 * an unpaired surrogate is not Unicode (it would be replaced by U+FFFD, or refused, on the way in).
 */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && !UNPAIRED_SURROGATE.test(value);
}

/** A refinement that refuses text {@link isStorableText} refuses. */
const storable = [isStorableText, { message: UNSTORABLE_TEXT_MESSAGE }] as const;

/** Required single-line text: surrounding spaces are trimmed, then 1 to `max` characters. */
export function requiredText(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine(...storable);
}

/** Optional single-line text (a name or label): trimmed, up to `max` characters, `""` means unset. */
export function label(max: number = LIMITS.label) {
  return z
    .string()
    .trim()
    .max(max)
    .refine(...storable);
}

/** Long free text (a description, a letter): kept exactly as sent, up to `max` characters. */
export function longText(max: number) {
  return z
    .string()
    .max(max)
    .refine(...storable);
}

/** A list of short strings: up to 100 items, each trimmed and 1 to 200 characters. */
export function stringList() {
  return z
    .array(requiredText(LIMITS.listItem))
    .max(LIMITS.listItems)
    .meta({ description: `Up to ${LIMITS.listItems} items of 1 to ${LIMITS.listItem} characters each.` });
}

/** An e-mail address, up to 254 characters. */
export function email() {
  // Trimmed before it is checked, so " ada@example.com " is accepted as "ada@example.com".
  return z
    .string()
    .trim()
    .max(LIMITS.email)
    .check(z.email(formatError("Must be a valid e-mail address, such as ada@example.com.")))
    .refine(...storable)
    .meta({ examples: ["ada@example.com"] });
}

/** An https address with a real host name (not an IP address or `localhost`), up to 2,048 characters. */
export function httpsUrl() {
  const message = "Must be a full https address with a host name, such as https://files.example.com/cv.pdf.";
  return z
    .url({ protocol: /^https$/, hostname: z.regexes.domain, ...formatError(message) })
    .max(LIMITS.url)
    .regex(/^https:\/\//i)
    .refine(...storable)
    .meta({ format: "uri", examples: ["https://files.example.com/cv.pdf"] });
}

/** A web address (http or https) up to 2,048 characters, or `""` for none. */
export function webUrlOrEmpty() {
  const message = `Must be a web address starting with https:// (or http://) of at most ${formatNumber(LIMITS.url)} characters, or an empty string.`;
  const url = z
    .url({ protocol: /^https?$/, hostname: z.regexes.domain, error: message })
    .max(LIMITS.url)
    .regex(/^https?:\/\//i)
    .refine(...storable)
    .meta({ format: "uri" });
  return z.union([z.literal(""), url], { error: message });
}

/** A real calendar date `YYYY-MM-DD` (2026-02-30 is refused). */
export function isoDate() {
  return z.iso
    .date(formatError(`Must be a real calendar date in the form YYYY-MM-DD, such as ${DATE_EXAMPLE}.`))
    .meta({ examples: [DATE_EXAMPLE] });
}

/** A UTC time stamp as returned by the API: `2026-03-31T09:30:00.000Z`. */
export function utcDateTime() {
  return z.iso.datetime().meta({ description: "UTC time, ISO 8601.", examples: ["2026-03-31T09:30:00.000Z"] });
}

/** The periods a salary amount may be given per (`salary_period`). */
export const SALARY_PERIODS = ["hour", "day", "week", "month", "year"] as const;

/** A period of {@link SALARY_PERIODS}. */
export type SalaryPeriod = (typeof SALARY_PERIODS)[number];

let knownCurrencies: ReadonlySet<string> | undefined;

/** Whether `code` is an ISO 4217 code this runtime's `Intl` knows (the list is read once). */
export function isCurrencyCode(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf("currency"));
  return knownCurrencies.has(code);
}

/** What a refused `salary_currency` is told. */
export const CURRENCY_CODE_MESSAGE = "Must be an ISO 4217 currency code of three upper-case letters, such as GBP.";

/** An ISO 4217 currency code: three upper-case letters that `Intl.supportedValuesOf("currency")` lists. */
export function currencyCode() {
  return z
    .string()
    .regex(/^[A-Z]{3}$/, { error: CURRENCY_CODE_MESSAGE })
    .refine(isCurrencyCode, { error: CURRENCY_CODE_MESSAGE, abort: true })
    .meta({ description: "ISO 4217 currency code (three upper-case letters).", examples: ["GBP"] });
}

/** What a refused `country` is told. */
export const COUNTRY_CODE_MESSAGE =
  "Must be an ISO 3166-1 alpha-2 country code of two upper-case letters, such as GB (the United Kingdom) or DE.";

/** An ISO 3166-1 alpha-2 country code: two upper-case letters the standard assigns (`GB`; not `gb` or `UK`). */
export function countryCode() {
  return z
    .string()
    .regex(/^[A-Z]{2}$/, { error: COUNTRY_CODE_MESSAGE })
    .refine(isCountryCode, { error: COUNTRY_CODE_MESSAGE, abort: true })
    .meta({ description: "ISO 3166-1 alpha-2 country code (two upper-case letters).", examples: ["GB"] });
}

/** Where a job's work is done (`workplace_type`): at its place, partly there and partly remote, or fully remote. */
export const WORKPLACE_TYPES = ["on_site", "hybrid", "remote"] as const;

/** A type of {@link WORKPLACE_TYPES}. */
export type WorkplaceType = (typeof WORKPLACE_TYPES)[number];

/** An identifier sent by a client: 1 to 200 characters. */
export function idString() {
  return z
    .string()
    .min(1)
    .max(LIMITS.id)
    .refine(...storable);
}
