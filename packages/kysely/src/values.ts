/** Conversions between the values of the domain records and what each dialect stores. */
import type { DbBool, DbDate, DbNumber } from "./schema";

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC: what a MySQL `datetime(3)` column holds. */
export function toMysqlDateTime(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`;
}

const NAIVE_DATE_TIME = /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;
const SHORT_OFFSET = /([+-]\d{2})$/;

/**
 * A stored date back to a `Date`. Text without an offset is UTC (MySQL `CAST(… AS CHAR)`); text
 * with one (Postgres with a custom type parser, SQLite ISO text) is read as written.
 */
export function fromDb(value: DbDate): Date;
export function fromDb(value: DbDate | null): Date | null;
export function fromDb(value: DbDate | null): Date | null {
  if (value === null || value === undefined) return null;
  // The driver made it for this row alone: nothing else holds it.
  if (value instanceof Date) return value;
  if (typeof value === "number") return new Date(value);
  const naive = NAIVE_DATE_TIME.exec(value);
  if (naive) {
    const [, y, mo, d, h, mi, s, frac] = naive;
    const ms = frac ? Number(`${frac}000`.slice(0, 3)) : 0;
    return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms));
  }
  const normalized = value.replace(" ", "T").replace(SHORT_OFFSET, "$1:00");
  const date = new Date(normalized);
  if (Number.isNaN(date.getTime())) throw new Error(`@hireport/kysely cannot read the date ${JSON.stringify(value)}.`);
  return date;
}

export function readBool(value: DbBool): boolean;
export function readBool(value: DbBool | null): boolean | null;
export function readBool(value: DbBool | null): boolean | null {
  if (value === null || value === undefined) return null;
  return value === true || value === 1 || (value as unknown) === "1" || (value as unknown) === "t";
}

export function readNumber(value: DbNumber): number;
export function readNumber(value: DbNumber | null): number | null;
export function readNumber(value: DbNumber | null): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === "number" ? value : Number(value);
}

export function readJson<T>(value: string | null, fallback: T): T {
  if (value === null || value === undefined || value === "") return fallback;
  // Most list columns are empty: a new array without the parser (a list page reads 130 of them).
  if (value === "[]") return [] as T;
  return JSON.parse(value) as T;
}
