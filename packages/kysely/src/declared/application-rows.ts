/** Declared applications as records: the select (with the job's title and the person row) and its reader, and the rows of a new one. */
import type { ApplicationRecord } from "@hireport/core";
import { ERASED_CANDIDATE, type NewApplication } from "@hireport/core/storage";
import type { AnyDb } from "./job-store";
import type { DomainPlan, FieldColumn } from "./plan";
import {
  apiId,
  companyOf,
  extraValues,
  fieldColumns,
  key,
  readExtras,
  ref,
  selectColumns,
  selectFields,
  storedId,
} from "./rows";

type Row = Record<string, unknown>;

const rowsOf = new WeakMap<DomainPlan, ReturnType<typeof makeApplicationRows>>();

/** Declared applications' select and reader (made once per plan). */
export function applicationRows(plan: DomainPlan): ReturnType<typeof makeApplicationRows> {
  let rows = rowsOf.get(plan);
  if (!rows) {
    rows = makeApplicationRows(plan);
    rowsOf.set(plan, rows);
  }
  return rows;
}

function makeApplicationRows(plan: DomainPlan) {
  const { applications: apps, jobs, dialect } = plan;
  const person = apps.candidate;
  const separate = person.from !== null;
  const personAlias = separate ? "p" : "a";
  const appFields = selectFields(dialect, apps, "a");
  const personFields = selectFields(dialect, person, personAlias, false);
  const own = [apps.idColumn, apps.jobColumn, apps.stage.column];
  if (apps.companyColumn !== null) own.push(apps.companyColumn);
  const title = jobs.columns.get("title") as FieldColumn;
  const column = (field: string) => apps.columns.get(field) as FieldColumn;
  const emailColumn = (person.columns.get("emailNormalized") ?? apps.columns.get("emailNormalized")) as FieldColumn;

  return {
    /** The column of a field of the application row, as `a.column`. */
    at: (field: string) => ref("a", column(field).column),
    column,
    /** The normalized e-mail's column, on the application or the person row. */
    email: person.columns.has("emailNormalized") ? ref(personAlias, emailColumn.column) : ref("a", emailColumn.column),

    select(db: AnyDb) {
      let query = db
        .selectFrom(`${apps.table} as a`)
        .innerJoin(`${jobs.table} as j`, (join) =>
          join.onRef(ref("j", jobs.idColumn) as never, "=", ref("a", apps.jobColumn) as never),
        );
      if (separate) {
        query = query.innerJoin(`${person.table} as p`, (join) =>
          join.onRef(ref("p", person.idColumn) as never, "=", ref("a", person.from as string) as never),
        );
      }
      return query.select([
        ...selectColumns(dialect, "a", own, new Set()),
        ...selectColumns(dialect, "j", [title.column], new Set()),
        ...appFields.selection,
        ...personFields.selection,
      ]);
    },

    read(row: Row): ApplicationRecord {
      const fields = appFields.fields(row);
      let candidate: Row = {
        ...(apps.extras === null ? {} : readExtras(person, row[key("a", apps.extras)], "candidate")),
        ...personFields.fields(row),
      };
      if ("emailNormalized" in candidate) {
        fields.emailNormalized = candidate.emailNormalized;
        const { emailNormalized: _, ...rest } = candidate;
        candidate = rest;
      }
      // An erased application reads as erased, whatever a person row shared with others still holds.
      if (fields.erasedAt !== null) {
        candidate = structuredClone({ ...ERASED_CANDIDATE });
        fields.emailNormalized = "";
      }
      return {
        ...fields,
        id: apiId(apps, row[key("a", apps.idColumn)]),
        companyId: companyOf(apps, row, key("a", apps.companyColumn ?? "")),
        jobId: apiId(jobs, row[key("a", apps.jobColumn)]),
        jobTitle: String(title.codec.read(row[key("j", title.column)], dialect)),
        stage: apps.stage.read(row[key("a", apps.stage.column)]),
        candidate,
      } as ApplicationRecord;
    },

    /** The candidate's values as the person's columns hold them (the normalized e-mail with them when it is theirs). */
    personValues(record: NewApplication): Row {
      return person.columns.has("emailNormalized")
        ? { ...record.candidate, emailNormalized: record.emailNormalized }
        : { ...record.candidate };
    },

    /** The application row of a record (without its person reference), every column. */
    applicationRow(record: NewApplication): Row {
      const values: Row = {
        ...fieldColumns(dialect, apps, record as unknown as Row),
        [apps.idColumn]: storedId(apps, record.id) ?? record.id,
        [apps.jobColumn]: storedId(jobs, record.jobId) ?? record.jobId,
        [apps.stage.column]: apps.stage.write(record.stage),
      };
      if (!separate) Object.assign(values, fieldColumns(dialect, person, this.personValues(record)));
      if (apps.companyColumn !== null) values[apps.companyColumn] = record.companyId;
      if (apps.extras !== null) {
        values[apps.extras] = JSON.stringify({
          ...extraValues(apps, record as unknown as Row),
          candidate: extraValues(person, this.personValues(record)),
        });
      }
      return values;
    },

    /** The person row's columns of a record. */
    personRow(record: NewApplication): Row {
      return fieldColumns(dialect, person, this.personValues(record));
    },
  };
}

export type ApplicationRows = ReturnType<typeof makeApplicationRows>;
