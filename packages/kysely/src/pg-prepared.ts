/**
 * Named prepared statements for hireport's hot statements on a `pg` pool. Kysely hands node-postgres
 * SQL text and values, so every statement is parsed and planned again on every call; for the short
 * reads of each API request (key admission, a page of jobs), planning costs Postgres more than
 * running them. `hardenPgPool` wraps each client's `query` so that SQL starting with
 * {@link PREPARED_MARK} (only statements hireport compiles once per shape) goes out as a named
 * statement: node-postgres parses it once per connection and Postgres keeps its plan. Every other
 * query passes through untouched.
 */
import { createHash } from "node:crypto";
import { PREPARED_MARK } from "./compiled-queries";

/** Distinct statements named at most; past it, new ones run unnamed (they stay correct). */
const MAX_NAMES = 1000;

/** The `query` and type parsers of a node-postgres client, as the wrapper sees them. */
export interface PgQueryClient {
  query(...args: never[]): unknown;
  getTypeParser?(oid: number, format?: string): (text: string) => unknown;
}

/** Postgres's type OID of `timestamptz`. */
const TIMESTAMPTZ = 1184;

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const two = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * A `timestamptz` as Postgres writes it in UTC (`2026-11-27 10:00:00.123+00`, the fraction 0 to 6
 * digits, ISO DateStyle, TimeZone UTC), read without node-postgres's general parser (a regular
 * expression and time-zone arithmetic per value): the instant as milliseconds, or NaN for any
 * other text (another offset, BC, infinity, a longer year), which the general parser then reads.
 */
export function utcTimestampMs(text: string): number {
  const end = text.length - 3;
  if (end < 19 || text.charCodeAt(end) !== 43 || text.charCodeAt(end + 1) !== 48 || text.charCodeAt(end + 2) !== 48) {
    return Number.NaN;
  }
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32) return Number.NaN;
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return Number.NaN;
  let ms = 0;
  if (end > 19) {
    if (text.charCodeAt(19) !== 46 || end > 26) return Number.NaN;
    // The first three digits of the fraction are the milliseconds (Postgres drops trailing zeros).
    for (let at = 20; at < 23; at += 1) ms = ms * 10 + (at < end ? digit(text, at) : 0);
  }
  const year = two(text, 0) * 100 + two(text, 2);
  const time =
    daysSinceEpoch(year, two(text, 5), two(text, 8)) * 86_400_000 +
    two(text, 11) * 3_600_000 +
    two(text, 14) * 60_000 +
    two(text, 17) * 1000 +
    ms;
  // Years 0 to 99 (and any non-digit) are left to the general parser, as node-postgres reads them.
  return year < 100 || !Number.isFinite(time) ? Number.NaN : time;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (month 1 to 12), by the
 * civil-calendar arithmetic of eras of 400 years: the same count `Date.UTC` gives, without its
 * argument conversions.
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * The type parsers of a marked statement: the client's own, but `timestamptz` read by
 * {@link utcTimestampMs} where it can, when the client's parser is node-postgres's default (it
 * makes a `Date` of the same instant); a host's own parser for it is kept.
 */
function typesOf(client: PgQueryClient) {
  const getTypeParser = client.getTypeParser?.bind(client);
  if (!getTypeParser) return undefined;
  const general = getTypeParser(TIMESTAMPTZ, "text");
  const sample = general("2001-02-03 04:05:06.789+00");
  if (!(sample instanceof Date) || sample.getTime() !== Date.UTC(2001, 1, 3, 4, 5, 6, 789)) return undefined;
  const timestamptz = (text: string) => {
    const ms = utcTimestampMs(text);
    return Number.isNaN(ms) ? general(text) : new Date(ms);
  };
  return {
    getTypeParser: (oid: number, format?: string) =>
      oid === TIMESTAMPTZ && (format ?? "text") === "text" ? timestamptz : getTypeParser(oid, format),
  };
}

/** The statement names of one pool, shared by its clients. */
export interface StatementNames {
  name(text: string): string | undefined;
  /** A statement's plan no longer fits (its table changed): later calls use new names. */
  renew(): void;
}

export function statementNames(): StatementNames {
  const names = new Map<string, string>();
  let generation = 0;
  return {
    name(text) {
      let name = names.get(text);
      if (name === undefined) {
        if (names.size >= MAX_NAMES) return undefined;
        const digest = createHash("sha256").update(text).digest("hex").slice(0, 24);
        name = `hireport_${digest}_${generation}`;
        names.set(text, name);
      }
      return name;
    },
    renew() {
      generation += 1;
      names.clear();
    },
  };
}

/** Postgres's answer when a prepared statement's result type changed under it (a migration). */
function planChanged(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "0A000" && String(message).includes("cached plan must not change result type");
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Wraps `client.query`: a marked statement sent as `(text, values)` with no callback (how Kysely
 * calls it) runs as the named statement of its text, its `timestamptz` values read by
 * {@link utcTimestampMs} where they can be. A plan Postgres refuses to reuse because the
 * table changed (`cached plan must not change result type`, after a migration) renews the names
 * and runs the statement once more under its new one.
 */
export function prepareMarkedStatements(client: PgQueryClient, names: StatementNames): void {
  const original = client.query as unknown as Query;
  const types = typesOf(client);
  /**
   * The constant part of each named statement's query config (`name`, `text`, `types`), by name.
   * node-postgres copies every config it is given through its own property descriptors; a config
   * that inherits these from a shared base and holds only `values` copies one property instead of
   * four, on every statement (what that saves: bench/RESULTS.md, "Claims").
   */
  const bases = new Map<string, object>();
  const baseOf = (name: string, text: string): object => {
    let base = bases.get(name);
    if (base === undefined) {
      // Names of earlier generations (see `renew`) are never asked for again.
      if (bases.size >= MAX_NAMES) bases.clear();
      base = types ? { name, text, types } : { name, text };
      bases.set(name, base);
    }
    return base;
  };
  const wrapped: Query = function (this: unknown, ...args: unknown[]) {
    const [text, values, callback] = args;
    if (typeof text !== "string" || !text.startsWith(PREPARED_MARK) || callback !== undefined) {
      return original.apply(this, args);
    }
    if (values !== undefined && !Array.isArray(values)) return original.apply(this, args);
    const run = () => {
      const name = names.name(text);
      if (name === undefined) {
        return original.call(this, types ? { text, values, types } : { text, values }) as Promise<unknown>;
      }
      const config = Object.create(baseOf(name, text)) as { values: unknown };
      config.values = values;
      return original.call(this, config) as Promise<unknown>;
    };
    return run().catch((error: unknown) => {
      if (!planChanged(error)) throw error;
      names.renew();
      return run();
    });
  };
  (client as unknown as { query: Query }).query = wrapped;
}
