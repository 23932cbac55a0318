/**
 * A column of the product's words for the API's values (job statuses, application stages): read
 * both ways, and written so that a word the row already holds for the value is kept.
 */
import { APPLICATION_STAGES, JOB_STATUSES } from "@hireport/core/schemas";
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { WordColumn } from "./declaration";
import { DeclarationError } from "./errors";

export interface WordPlan {
  column: string;
  /** The API's value of a stored word (the `otherwise` for an unknown one); throws when there is none. */
  read(word: unknown): string;
  /** Whether the stored word `current` reads as one of `values` (a filter; an unknown word reads as `otherwise`). */
  matches(values: readonly string[], current: Expression<unknown>): RawBuilder<SqlBool>;
  /**
   * What an update sets the column to for `value`: the word the row holds when it already reads as
   * `value` (kept exactly), else the first word declared for it.
   */
  set(value: string, current: Expression<unknown>): RawBuilder<unknown> | string;
  /** The word a new row stores for `value`. */
  write(value: string): string;
}

/** The plan of a word column; `values` are the API's (every one needs a word). */
export function wordPlan(
  what: string,
  table: string,
  declared: string | WordColumn<string, string>,
  kind: "job" | "application",
): WordPlan {
  const values: readonly string[] = kind === "job" ? JOB_STATUSES : APPLICATION_STAGES;
  const column = typeof declared === "string" ? declared : declared.column;
  const words = typeof declared === "string" ? undefined : declared.words;
  const otherwise = typeof declared === "string" ? undefined : declared.otherwise;
  if (words === undefined) {
    const known = new Set(values);
    return {
      column,
      read(word) {
        if (typeof word === "string" && known.has(word)) return word;
        if (otherwise !== undefined) return otherwise;
        throw new Error(
          `${table}.${column} holds ${JSON.stringify(word)}, which is no ${kind} ${kind === "job" ? "status" : "stage"} of the API.`,
        );
      },
      matches: (wanted, current) =>
        otherwise !== undefined && wanted.includes(otherwise)
          ? sql<SqlBool>`(${current} in (${sql.join(wanted)}) or ${current} not in (${sql.join(values)}))`
          : sql<SqlBool>`${current} in (${sql.join(wanted)})`,
      set: (value) => value,
      write: (value) => value,
    };
  }
  const byWord = new Map<string, string>();
  const byValue = new Map<string, string[]>();
  for (const [word, value] of Object.entries(words)) {
    if (!values.includes(value))
      throw new DeclarationError(
        `${what}.${column}: ${JSON.stringify(value)} is no value of the API (${values.join(", ")}).`,
      );
    byWord.set(word, value);
    byValue.set(value, [...(byValue.get(value) ?? []), word]);
  }
  const missing = values.filter((value) => !byValue.has(value));
  if (missing.length > 0) {
    throw new DeclarationError(
      `${what}.${column}: the words declare none for ${missing.join(", ")}; every value of the API needs one to be written.`,
    );
  }
  if (otherwise !== undefined && !values.includes(otherwise)) {
    throw new DeclarationError(`${what}.${column}: \`otherwise\` ${JSON.stringify(otherwise)} is no value of the API.`);
  }
  const all = [...byWord.keys()];
  const first = (value: string) => (byValue.get(value) as string[])[0] as string;
  return {
    column,
    read(word) {
      const value = typeof word === "string" ? byWord.get(word) : undefined;
      if (value !== undefined) return value;
      if (otherwise !== undefined) return otherwise;
      throw new Error(
        `${table}.${column} holds ${JSON.stringify(word)}, which the declaration's words do not name (declare it, or an \`otherwise\`).`,
      );
    },
    matches(wanted, current) {
      const own = sql.join(wanted.flatMap((value) => byValue.get(value) ?? []));
      return otherwise !== undefined && wanted.includes(otherwise)
        ? sql<SqlBool>`(${current} in (${own}) or ${current} not in (${sql.join(all)}))`
        : sql<SqlBool>`${current} in (${own})`;
    },
    set(value, current) {
      const own = sql.join(byValue.get(value) as string[]);
      const known = sql.join(all);
      return value === otherwise
        ? sql`case when ${current} in (${own}) or ${current} not in (${known}) then ${current} else ${first(value)} end`
        : sql`case when ${current} in (${own}) then ${current} else ${first(value)} end`;
    },
    write: first,
  };
}
