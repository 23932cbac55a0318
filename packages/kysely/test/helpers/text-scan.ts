/**
 * A raw scan for a text in every text column of every table of a prefix, the tables and columns
 * read from the database's own catalog (`information_schema.columns` on Postgres and MySQL/MariaDB,
 * `sqlite_master` and `pragma_table_info` on SQLite): a table or column added later is scanned
 * without anyone adding it to a list. The privacy tests use it to prove that, after an erasure, no
 * hireport table holds a candidate's e-mail address or name.
 */
import { MysqlAdapter, PostgresAdapter, type RawBuilder, sql } from "kysely";
import type { AnyDb } from "./databases";

interface Column {
  table: string;
  column: string;
}

/** Text types of Postgres and MySQL/MariaDB, as `information_schema.columns.data_type` names them. */
const POSTGRES_TEXT = ["text", "character varying", "character", "json", "jsonb"];
const MYSQL_TEXT = ["char", "varchar", "tinytext", "text", "mediumtext", "longtext", "json"];

/** Every text column of the tables whose name starts with `prefix`; every column on SQLite (its types are loose). */
export async function textColumns(db: AnyDb, prefix: string): Promise<Column[]> {
  const adapter = db.getExecutor().adapter;
  let columns: Column[];
  if (adapter instanceof PostgresAdapter) {
    const { rows } = await sql<Column>`select table_name as "table", column_name as "column"
      from information_schema.columns
      where table_schema = current_schema() and data_type in (${sql.join(POSTGRES_TEXT)})`.execute(db);
    columns = rows;
  } else if (adapter instanceof MysqlAdapter) {
    const { rows } = await sql<Column>`select table_name as \`table\`, column_name as \`column\`
      from information_schema.columns
      where table_schema = database() and data_type in (${sql.join(MYSQL_TEXT)})`.execute(db);
    columns = rows;
  } else {
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
      db,
    );
    columns = [];
    for (const { name } of tables) {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db);
      columns.push(...rows.map((row) => ({ table: name, column: row.name })));
    }
  }
  return columns
    .filter((entry) => entry.table.startsWith(prefix))
    .sort((a, b) => (a.table + a.column < b.table + b.column ? -1 : 1));
}

/** `column` contains `text`, both lower-cased (a case-insensitive search), in the dialect's words. */
function contains(db: AnyDb, table: string, column: string, text: string): RawBuilder<unknown> {
  const adapter = db.getExecutor().adapter;
  const ref = sql.ref(`${table}.${column}`);
  if (adapter instanceof PostgresAdapter) return sql`strpos(lower(${ref}::text), lower(${text})) > 0`;
  if (adapter instanceof MysqlAdapter) return sql`instr(lower(${ref}), lower(${text})) > 0`;
  return sql`instr(lower(cast(${ref} as text)), lower(${text})) > 0`;
}

/**
 * The `table.column` names (without the prefix) of every text column of the prefix's tables that
 * holds `text`, compared case-insensitively; empty when none does.
 */
export async function findText(db: AnyDb, prefix: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of await textColumns(db, prefix)) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
      where ${contains(db, table, column, text)}`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) found.push(`${table.slice(prefix.length)}.${column}`);
  }
  return found;
}
