import type { FieldSpec } from "@hireport/core/storage";
import type { Kysely } from "kysely";
import { strategyFor } from "../dialects/detect";
import type { ColumnTypes, DialectKind } from "../dialects/types";
import type { HireportMigration } from "./migration-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations never see the app's types.
type AnyDb = Kysely<any>;

/** The column type of a declared field's kind: short codes as short text, the rest as the initial tables store them. */
function columnType(spec: FieldSpec, ty: ColumnTypes) {
  switch (spec.kind) {
    case "number":
      return ty.double();
    case "boolean":
      return ty.bool();
    case "timestamp":
      return ty.date();
    case "date":
      return ty.text(10);
    case "code":
    case "enum":
      return ty.text(32);
    default:
      return ty.long();
  }
}

/** A non-null field's default as its column stores it (a list or a `json` value as JSON text). */
function storedDefault(spec: FieldSpec): string | number | boolean {
  if (spec.default === undefined) {
    throw new Error(
      `Field ${spec.wire} has no default to fill existing rows with: its column needs a migration of its own.`,
    );
  }
  return spec.kind === "list" || spec.kind === "json"
    ? JSON.stringify(spec.default)
    : (spec.default as string | number | boolean);
}

/**
 * Adds the column of a declared field (an entry of core's `JOB_FIELDS`, `APPLICATION_FIELDS` or
 * `CANDIDATE_FIELDS`) to `table`: its type from the field's kind, nullable when the field is, else
 * NOT NULL with every existing row at the field's default (a required `timestamp` has none: it
 * needs a migration of its own). No default stays on the column (the stores always write every
 * column), except on SQLite, which cannot drop one.
 */
export function addFieldColumnMigration(
  prefix: string,
  dialect: DialectKind | undefined,
  table: "job" | "application",
  spec: FieldSpec,
): HireportMigration {
  const name = `${prefix}${table}`;
  if (!spec.nullable) storedDefault(spec);
  return {
    async up(db: AnyDb) {
      const strategy = strategyFor(db, dialect);
      const type = columnType(spec, strategy.columnTypes);
      if (spec.nullable) {
        await db.schema.alterTable(name).addColumn(spec.column, type).execute();
        return;
      }
      const value = storedDefault(spec);
      if (strategy.kind === "mysql") {
        // MySQL refuses a literal default on a text column: add it nullable, fill it, then require it.
        await db.schema.alterTable(name).addColumn(spec.column, type).execute();
        await db.updateTable(name).set(spec.column, value).execute();
        await db.schema
          .alterTable(name)
          .modifyColumn(spec.column, type, (c) => c.notNull())
          .execute();
        return;
      }
      await db.schema
        .alterTable(name)
        .addColumn(spec.column, type, (c) => c.notNull().defaultTo(value))
        .execute();
      if (strategy.kind === "postgres") {
        await db.schema
          .alterTable(name)
          .alterColumn(spec.column, (c) => c.dropDefault())
          .execute();
      }
    },
    async down(db: AnyDb) {
      await db.schema.alterTable(name).dropColumn(spec.column).execute();
    },
  };
}
