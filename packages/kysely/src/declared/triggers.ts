/**
 * Triggers that move a declared row's change time when the product changes it without moving it
 * (a screen, a script or plain SQL that forgets `updated_at`), so that the change detector and
 * `updated_since` see the change. Generated from the declaration, per dialect, as SQL a host runs
 * in its own migration (`changeTriggerSql`) or installs at once (`installChangeTriggers`).
 *
 * - jobs and applications: an update that leaves the change time as it was (and, where the count is
 *   stored, the applications count too: hireport's own `+ 1` is no change of the job) sets it to the
 *   database's current time;
 * - a person table: an update of a person row sets the change time of every application naming it.
 */
import { type Kysely, sql } from "kysely";
import { detectDialect } from "../dialects/detect";
import type { DialectKind } from "../dialects/types";
import type { AnyDomainDeclaration } from "./declaration";
import { DeclarationError } from "./errors";
import { type DomainPlan, domainPlan, type FieldColumn } from "./plan";

/** A SQL identifier, quoted for the dialect. */
function quote(dialect: DialectKind, name: string): string {
  return dialect === "mysql" ? `\`${name.replaceAll("`", "``")}\`` : `"${name.replaceAll('"', '""')}"`;
}

/** The database's current time, as the dialect's default codec stores a moment. */
function nowSql(dialect: DialectKind): string {
  if (dialect === "postgres") return "date_trunc('milliseconds', now())";
  if (dialect === "mysql") return "utc_timestamp(3)";
  return "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
}

function changeTime(what: string, table: string, column: FieldColumn | undefined): string {
  if (!column) throw new DeclarationError(`${what} (${table}) has no change time column.`);
  if (column.custom) {
    throw new DeclarationError(
      `${what} (${table}).${column.column} has a codec of its own: its trigger must be written by hand, in the codec's format.`,
    );
  }
  return column.column;
}

/** Names of the triggers (and Postgres functions): `<table>_hireport_touch`. */
const triggerName = (table: string) => `${table}_hireport_touch`.slice(0, 63);

function touchRow(dialect: DialectKind, table: string, id: string, updated: string, count: string | null): string[] {
  const q = (name: string) => quote(dialect, name);
  const name = triggerName(table);
  const unchanged = (row: string, other: string) =>
    [
      `${row}.${q(updated)} = ${other}.${q(updated)}`,
      ...(count ? [`${row}.${q(count)} = ${other}.${q(count)}`] : []),
    ].join(" and ");
  if (dialect === "postgres") {
    // Only a real change: the row's other columns differ, the change time and the count do not.
    const rest = (row: string) => `to_jsonb(${row}) - '${updated}'${count ? ` - '${count}'` : ""}`;
    return [
      `create or replace function ${q(name)}() returns trigger language plpgsql as $$
begin
  if ${unchanged("new", "old")} and ${rest("new")} is distinct from ${rest("old")} then
    new.${q(updated)} := ${nowSql(dialect)};
  end if;
  return new;
end $$`,
      `drop trigger if exists ${q(name)} on ${q(table)}`,
      `create trigger ${q(name)} before update on ${q(table)} for each row execute function ${q(name)}()`,
    ];
  }
  if (dialect === "mysql") {
    return [
      `drop trigger if exists ${q(name)}`,
      `create trigger ${q(name)} before update on ${q(table)} for each row
begin
  if ${unchanged("new", "old")} then set new.${q(updated)} = ${nowSql(dialect)}; end if;
end`,
    ];
  }
  return [
    `drop trigger if exists ${q(name)}`,
    `create trigger ${q(name)} after update on ${q(table)} for each row when ${unchanged("new", "old")}
begin
  update ${q(table)} set ${q(updated)} = ${nowSql(dialect)} where ${q(id)} = new.${q(id)};
end`,
  ];
}

function touchApplications(dialect: DialectKind, plan: DomainPlan): string[] {
  const person = plan.applications.candidate;
  if (person.from === null) return [];
  const q = (name: string) => quote(dialect, name);
  const apps = plan.applications;
  const updated = changeTime("applications", apps.table, apps.columns.get("updatedAt"));
  const name = triggerName(person.table);
  const touch = `update ${q(apps.table)} set ${q(updated)} = ${nowSql(dialect)} where ${q(person.from)} = new.${q(person.idColumn)}`;
  if (dialect === "postgres") {
    return [
      `create or replace function ${q(name)}() returns trigger language plpgsql as $$
begin
  ${touch};
  return new;
end $$`,
      `drop trigger if exists ${q(name)} on ${q(person.table)}`,
      `create trigger ${q(name)} after update on ${q(person.table)} for each row when (old.* is distinct from new.*) execute function ${q(name)}()`,
    ];
  }
  return [
    `drop trigger if exists ${q(name)}`,
    `create trigger ${q(name)} after update on ${q(person.table)} for each row
begin
  ${touch};
end`,
  ];
}

/**
 * The SQL statements, one per string, that install the change-time triggers of a declared domain's
 * tables on `dialect`: run them in the product's own migration (they replace earlier versions of
 * themselves). @throws `DeclarationError` for a change time column with a codec of its own
 */
export function changeTriggerSql(domain: { readonly declaration: object }, dialect: DialectKind): string[] {
  const plan = domainPlan(domain.declaration as AnyDomainDeclaration, dialect);
  const { jobs, applications: apps } = plan;
  return [
    ...touchRow(
      dialect,
      jobs.table,
      jobs.idColumn,
      changeTime("jobs", jobs.table, jobs.columns.get("updatedAt")),
      jobs.countColumn,
    ),
    ...touchRow(
      dialect,
      apps.table,
      apps.idColumn,
      changeTime("applications", apps.table, apps.columns.get("updatedAt")),
      null,
    ),
    ...touchApplications(dialect, plan),
  ];
}

/** Runs {@link changeTriggerSql} on `db` (its dialect detected), one statement after the other. */
export async function installChangeTriggers(
  // biome-ignore lint/suspicious/noExplicitAny: any product database.
  db: Kysely<any>,
  domain: { readonly declaration: object },
  options: { dialect?: DialectKind } = {},
): Promise<void> {
  for (const statement of changeTriggerSql(domain, options.dialect ?? detectDialect(db))) {
    await sql.raw(statement).execute(db);
  }
}
