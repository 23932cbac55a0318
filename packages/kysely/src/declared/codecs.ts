/** How a declared column holds a field's value by default, by the field's kind and the dialect. */
import type { FieldKind } from "@hireport/core/storage";
import { strategyOf } from "../dialects/detect";
import type { DbBool, DbDate, DbNumber } from "../schema";
import { fromDb, readBool, readNumber } from "../values";
import type { ColumnCodec } from "./declaration";

/** Lists and structured values: JSON text, or the value itself when the driver parsed a `json` column. */
const json: ColumnCodec = {
  write: (value) => (value === null ? null : JSON.stringify(value)),
  read: (stored) => (typeof stored === "string" ? (stored === "" ? null : JSON.parse(stored)) : stored),
};

const moment: ColumnCodec = {
  write: (value, dialect) => (value === null ? null : strategyOf(dialect).toDb(value as Date)),
  read: (stored) => fromDb(stored as DbDate | null),
};

const flag: ColumnCodec = {
  write: (value, dialect) => (value === null ? null : strategyOf(dialect).bool(value as boolean)),
  read: (stored) => readBool(stored as DbBool | null),
};

const number: ColumnCodec = {
  write: (value) => value,
  read: (stored) => readNumber(stored as DbNumber | null),
};

/** Text of every kind: as is (a `date` is `YYYY-MM-DD` text; a driver's `Date` of a `date` column is read back as one). */
const text: ColumnCodec = {
  write: (value) => value,
  read: (stored) => (stored instanceof Date ? stored.toISOString().slice(0, 10) : stored),
};

/** The default codec of a field kind. */
export function codecOf(kind: FieldKind): ColumnCodec {
  switch (kind) {
    case "list":
    case "json":
      return json;
    case "timestamp":
      return moment;
    case "boolean":
      return flag;
    case "number":
      return number;
    default:
      return text;
  }
}
