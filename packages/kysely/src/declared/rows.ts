/**
 * Between a declared table's rows and hireport's records: the select list of a table's columns
 * (each under a short alias of its own, so that joined tables never clash), the fields read back
 * from it, and the columns a record's fields are written to, those without a column gathered in the
 * extras object.
 */
import { type AliasedRawBuilder, sql } from "kysely";
import { strategyOf } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { FieldsPlan, TablePlan } from "./plan";

/** A select list and how to read what it selected. */
export interface Selected {
  selection: AliasedRawBuilder<unknown, string>[];
  /** The row's fields by record name (extras included, with their defaults where missing). */
  fields(row: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** The API's id of a stored one. */
export const apiId = (plan: TablePlan, stored: unknown): string =>
  plan.strip === null ? String(stored) : `${plan.strip}${String(stored)}`;

/** The stored id of an API id; null when it cannot be one of this table's (another kind's prefix). */
export function storedId(plan: TablePlan, id: string): string | null {
  if (plan.strip === null) return id;
  return id.startsWith(plan.strip) ? id.slice(plan.strip.length) : null;
}

/** Whether a company's rows may be in the table: always with a company column, else only the one company's. */
export const hasCompany = (plan: TablePlan, companyId: string): boolean =>
  plan.companyColumn !== null || plan.company === companyId;

/** The API's company of a stored row. */
export const companyOf = (plan: TablePlan, row: Readonly<Record<string, unknown>>, key: string): string =>
  plan.companyColumn === null ? (plan.company as string) : String(row[key]);

/** `alias.column` as a reference. */
export const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/**
 * The select list of `columns` of the table `alias` (each as `${alias}_${column}` made safe), dates
 * read as the storage reads its own where the driver would shift them (MySQL).
 */
export function selectColumns(
  dialect: DialectKind,
  alias: string,
  columns: readonly string[],
  dates: ReadonlySet<string>,
): AliasedRawBuilder<unknown, string>[] {
  // MySQL reads a `datetime` as local time through the driver: as UTC text, as the storage's own tables are read.
  const asText = dialect === "mysql";
  return [...new Set(columns)].map((column) =>
    (asText && dates.has(column) ? sql`cast(${ref(alias, column)} as char)` : ref(alias, column)).as(
      key(alias, column),
    ),
  );
}

/** The key of `alias.column` in a selected row. */
export const key = (alias: string, column: string): string => `${alias}__${column}`;

/** The fields of `plan` as selected under `alias`, extras included (when `withExtras`). */
export function selectFields(dialect: DialectKind, plan: FieldsPlan, alias: string, withExtras = true): Selected {
  const columns = [...plan.columns.values()];
  const names = columns.map((column) => column.column);
  if (withExtras && plan.extras !== null) names.push(plan.extras);
  const dates = new Set(columns.filter((column) => column.kind === "timestamp" && !column.custom).map((c) => c.column));
  return {
    selection: selectColumns(dialect, alias, names, dates),
    fields(row) {
      const out: Record<string, unknown> = {};
      if (withExtras && plan.extras !== null) Object.assign(out, readExtras(plan, row[key(alias, plan.extras)]));
      for (const column of columns) out[column.field] = column.codec.read(row[key(alias, column.column)], dialect);
      return out;
    },
  };
}

/** The extras object of a row: each field without a column, its default when the row has none. */
export function readExtras(plan: FieldsPlan, stored: unknown, group?: string): Record<string, unknown> {
  const parsed: Record<string, unknown> =
    typeof stored === "string" && stored !== ""
      ? JSON.parse(stored)
      : ((stored as Record<string, unknown> | null) ?? {});
  const source = group === undefined ? parsed : ((parsed[group] as Record<string, unknown> | undefined) ?? {});
  const out: Record<string, unknown> = {};
  for (const field of plan.extraFields) {
    const value = source[field.field];
    if (value === undefined) out[field.field] = field.fallback();
    else out[field.field] = field.kind === "timestamp" && typeof value === "string" ? new Date(value) : value;
  }
  return out;
}

/** The columns of a record's fields that have one (only those present in `values`). */
export function fieldColumns(
  dialect: DialectKind,
  plan: FieldsPlan,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of plan.columns.values()) {
    const value = values[column.field];
    if (value !== undefined) out[column.column] = column.codec.write(value, dialect);
  }
  return out;
}

/** The fields of `values` that `plan` keeps in its extras (only those present). */
export function extraValues(plan: FieldsPlan, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of plan.extraFields) {
    const value = values[field.field];
    if (value !== undefined) out[field.field] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/**
 * The host's `onInsert` values for a new row: a `Date` stored as a moment and a boolean as the
 * dialect's flag, everything else as given.
 */
export function insertExtras(
  dialect: DialectKind,
  onInsert: ((record: Record<string, unknown>) => Readonly<Record<string, unknown>>) | undefined,
  record: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(onInsert?.(record as Record<string, unknown>) ?? {})) {
    out[column] =
      value instanceof Date
        ? strategyOf(dialect).toDb(value)
        : typeof value === "boolean"
          ? strategyOf(dialect).bool(value)
          : value;
  }
  return out;
}
