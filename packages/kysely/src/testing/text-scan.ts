/**
 * A raw scan for a text in every text column of a set of tables, the columns read from the
 * database's own catalog (`information_schema.columns` on Postgres and MySQL/MariaDB,
 * `pragma_table_info` on SQLite): a column added later is scanned without anyone adding it to a
 * list. The conformance suites use it to prove that, after an erasure, no table holds a candidate's
 * e-mail address or name.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DialectKind } from "../dialects/types";

interface Column {
  /** Postgres: the table's schema (to name it whatever the search path). */
  schema?: string;
  table: string;
  column: string;
}

/** Text types of Postgres and MySQL/MariaDB, as `information_schema.columns.data_type` names them. */
const POSTGRES_TEXT = ["text", "character varying", "character", "json", "jsonb"];
const MYSQL_TEXT = ["char", "varchar", "tinytext", "text", "mediumtext", "longtext", "json"];

/**
 * Every text column of every table of the database (every column on SQLite, whose types are loose):
 * on Postgres those of the current schema and of hireport's `schema` when it has one.
 */
async function allTextColumns(db: Kysely<unknown>, dialect: DialectKind, schema: string | null): Promise<Column[]> {
  if (dialect === "postgres") {
    const { rows } = await sql<Column>`select table_schema as "schema", table_name as "table", column_name as "column"
      from information_schema.columns
      where (table_schema = current_schema() or table_schema = ${schema ?? ""})
      and data_type in (${sql.join(POSTGRES_TEXT)})`.execute(db);
    return rows;
  }
  if (dialect === "mysql") {
    const { rows } = await sql<Column>`select table_name as \`table\`, column_name as \`column\`
      from information_schema.columns
      where table_schema = database() and data_type in (${sql.join(MYSQL_TEXT)})`.execute(db);
    return rows;
  }
  const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  const columns: Column[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db);
    columns.push(...rows.map((row) => ({ table: name, column: row.name })));
  }
  return columns;
}

/** `column` contains `text`, both lower-cased (a case-insensitive search), in the dialect's words. */
function contains(dialect: DialectKind, table: string, column: string, text: string): RawBuilder<unknown> {
  const ref = sql.ref(`${table}.${column}`);
  if (dialect === "postgres") return sql`strpos(lower(${ref}::text), lower(${text})) > 0`;
  if (dialect === "mysql") return sql`instr(lower(${ref}), lower(${text})) > 0`;
  return sql`instr(lower(cast(${ref} as text)), lower(${text})) > 0`;
}

/**
 * The `table.column` names of every text column that holds `text` (compared case-insensitively) in
 * the tables whose name starts with `prefix` (named without it) and in the tables of `others`
 * (named in full), sorted; empty when none does. On Postgres with hireport's `schema`, its tables are
 * those of that schema, the others those of the current schema.
 */
export async function findText(
  db: Kysely<unknown>,
  dialect: DialectKind,
  text: string,
  prefix: string,
  others: readonly string[] = [],
  schema: string | null = null,
): Promise<string[]> {
  const found: string[] = [];
  for (const { schema: inSchema, table, column } of await allTextColumns(db, dialect, schema)) {
    const ours = table.startsWith(prefix) && (schema === null || inSchema === schema);
    if (!ours && (!others.includes(table) || (schema !== null && inSchema === schema))) continue;
    const name = inSchema === undefined ? table : `${inSchema}.${table}`;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}
      where ${contains(dialect, name, column, text)}`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) found.push(`${ours ? table.slice(prefix.length) : table}.${column}`);
  }
  return found.sort();
}
