/**
 * A declaration checked and normalized once, when `declaredDomain` is called: each table's names,
 * how its ids and company are stored, each field's column and codec, and the fields kept in the
 * extras column. A mistake the types cannot catch (a field with nowhere to go, a word map that does
 * not cover the API's values) throws here, naming the table and the field.
 */
import { APPLICATION_FIELDS, CANDIDATE_FIELDS, type FieldKind, JOB_FIELDS } from "@hireport/core/storage";
import type { DialectKind } from "../dialects/types";
import { codecOf } from "./codecs";
import type { AnyDomainDeclaration, ColumnCodec, ColumnSpec, IdStyle } from "./declaration";
import { DeclarationError } from "./errors";
import { type WordPlan, wordPlan } from "./words";

/** One field as a declared table stores it. */
export interface FieldColumn {
  /** The record's name of the field. */
  field: string;
  column: string;
  kind: FieldKind;
  /** The host's own codec, if it gave one. */
  custom: ColumnCodec | undefined;
  codec: ColumnCodec;
}

/** A field kept in the extras object. */
export interface ExtraField {
  field: string;
  kind: FieldKind;
  /** A fresh default, for a row written before the field existed. */
  fallback(): unknown;
}

interface FieldInfo {
  kind: FieldKind;
  nullable: boolean;
  fallback(): unknown;
}

const clone = (value: unknown) => (value !== null && typeof value === "object" ? structuredClone(value) : value);

function infoOf(spec: { kind: FieldKind; nullable: boolean; default: unknown }): FieldInfo {
  return { kind: spec.kind, nullable: spec.nullable, fallback: () => clone(spec.default) };
}

const meta = (kind: FieldKind, nullable = false, fallback: unknown = null): FieldInfo => ({
  kind,
  nullable,
  fallback: () => fallback,
});

function fieldsOf(specs: Readonly<Record<string, { kind: FieldKind; nullable: boolean; default: unknown }>>) {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, infoOf(spec)]));
}

/** The job's fields but its ids, status and count. */
const JOB_INFO: Readonly<Record<string, FieldInfo>> = {
  reference: meta("text", false, ""),
  hidden: meta("boolean", false, false),
  createdAt: meta("timestamp"),
  updatedAt: meta("timestamp"),
  closedAt: meta("timestamp", true),
  publishedAt: meta("timestamp", true),
  ...fieldsOf(JOB_FIELDS),
};

/** The application's fields but its ids, job and stage. */
const APPLICATION_INFO: Readonly<Record<string, FieldInfo>> = (() => {
  const { stage: _, ...fields } = fieldsOf(APPLICATION_FIELDS);
  return { reference: meta("text", false, ""), ...fields };
})();

const CANDIDATE_INFO: Readonly<Record<string, FieldInfo>> = fieldsOf(CANDIDATE_FIELDS);

/** A table's name, id and company. */
export interface TablePlan {
  table: string;
  idColumn: string;
  /** The API's kind prefix (`job_`) when ids are stored without it. */
  strip: string | null;
  /** The company column, or null with one fixed company. */
  companyColumn: string | null;
  /** The one company of a single-company product, or null. */
  company: string | null;
  onInsert: ((record: Record<string, unknown>) => Readonly<Record<string, unknown>>) | undefined;
}

export interface FieldsPlan extends TablePlan {
  columns: Map<string, FieldColumn>;
  extras: string | null;
  extraFields: ExtraField[];
}

export interface JobPlan extends FieldsPlan {
  status: WordPlan;
  /** The stored count's column, or null when it is counted. */
  countColumn: string | null;
}

export interface CandidatePlan extends FieldsPlan {
  /** The application column naming the person row, or null when the candidate is on the application row. */
  from: string | null;
  shared: boolean;
  /** The product's other personal columns (of the person row, or of the application row) and their erased values. */
  erase: Readonly<Record<string, unknown>>;
}

export interface ApplicationPlan extends FieldsPlan {
  jobColumn: string;
  stage: WordPlan;
  candidate: CandidatePlan;
  /** Where the normalized e-mail is: the application row or the person row. */
  emailOn: "application" | "candidate";
}

export interface HistoryPlan extends TablePlan {
  application: string;
  at: FieldColumn;
  actor: { type: string; id: string; name: string };
  order: string;
  from?: string;
  to?: string;
  body?: string;
}

export interface DomainPlan {
  dialect: DialectKind;
  jobs: JobPlan;
  applications: ApplicationPlan;
  stageChanges: HistoryPlan | null;
  notes: HistoryPlan | null;
}

function tablePlan(
  what: string,
  declared: {
    table: string;
    id?: string;
    ids?: IdStyle;
    company?: string;
    onInsert?: (record: Record<string, unknown>) => Readonly<Record<string, unknown>>;
  },
  prefix: string,
  company: string | undefined,
): TablePlan {
  if (declared.company === undefined && company === undefined) {
    throw new DeclarationError(
      `${what} (${declared.table}) has no \`company\` column and the declaration names no one \`company\`.`,
    );
  }
  return {
    table: declared.table,
    idColumn: declared.id ?? "id",
    strip: declared.ids === "unprefixed" ? `${prefix}_` : null,
    companyColumn: declared.company ?? null,
    company: declared.company === undefined ? (company ?? null) : null,
    onInsert: declared.onInsert,
  };
}

function fieldColumn(field: string, info: FieldInfo, spec: ColumnSpec<string>): FieldColumn {
  const custom = typeof spec === "string" ? undefined : spec.codec;
  return {
    field,
    column: typeof spec === "string" ? spec : spec.column,
    kind: info.kind,
    custom,
    codec: custom ?? codecOf(info.kind),
  };
}

function fieldsPlan(
  what: string,
  base: TablePlan,
  infos: Readonly<Record<string, FieldInfo>>,
  columns: Readonly<Record<string, ColumnSpec<string> | undefined>>,
  extras: string | undefined,
  allowMissing = false,
): FieldsPlan {
  const planned = new Map<string, FieldColumn>();
  const extraFields: ExtraField[] = [];
  for (const [name, spec] of Object.entries(columns)) {
    const info = infos[name];
    if (!info)
      throw new DeclarationError(
        `${what} (${base.table}) declares a column for \`${name}\`, which is not one of its fields.`,
      );
    if (spec !== undefined) planned.set(name, fieldColumn(name, info, spec));
  }
  for (const [name, info] of Object.entries(infos)) {
    if (planned.has(name)) continue;
    extraFields.push({ field: name, kind: info.kind, fallback: info.fallback });
  }
  if (extras === undefined && extraFields.length > 0 && !allowMissing) {
    throw new DeclarationError(
      `${what} (${base.table}) has no column for ${extraFields.map((f) => `\`${f.field}\``).join(", ")} and no \`extras\` column to keep them in.`,
    );
  }
  return { ...base, columns: planned, extras: extras ?? null, extraFields };
}

function require(plan: FieldsPlan, what: string, fields: readonly string[]): void {
  for (const field of fields) {
    if (!plan.columns.has(field)) {
      throw new DeclarationError(
        `${what} (${plan.table}) needs a column for \`${field}\`: the stores filter or order by it.`,
      );
    }
  }
}

function historyPlan(
  what: string,
  declared: Exclude<AnyDomainDeclaration["stageChanges"] | AnyDomainDeclaration["notes"], "hireport">,
  prefix: string,
  company: string | undefined,
): HistoryPlan {
  const base = tablePlan(what, declared, prefix, company);
  const extra = declared as { from?: string; to?: string; body?: string };
  return {
    ...base,
    application: declared.application,
    at: fieldColumn("createdAt", meta("timestamp"), declared.at),
    actor: declared.actor,
    order: declared.order ?? base.idColumn,
    ...(extra.from !== undefined ? { from: extra.from } : {}),
    ...(extra.to !== undefined ? { to: extra.to } : {}),
    ...(extra.body !== undefined ? { body: extra.body } : {}),
  };
}

/** The declaration checked and normalized for `dialect`. */
export function domainPlan(declaration: AnyDomainDeclaration, dialect: DialectKind): DomainPlan {
  const company = declaration.company;
  const jobsDeclared = declaration.jobs;
  const jobs: JobPlan = {
    ...fieldsPlan(
      "jobs",
      tablePlan("jobs", jobsDeclared, "job", company),
      JOB_INFO,
      jobsDeclared.columns,
      jobsDeclared.extras,
    ),
    status: wordPlan("jobs", jobsDeclared.table, jobsDeclared.status, "job"),
    countColumn: jobsDeclared.applicationsCount === "computed" ? null : jobsDeclared.applicationsCount,
  };
  require(jobs, "jobs", ["title", "createdAt", "updatedAt", "hidden", "closingDate"]);

  const appsDeclared = declaration.applications;
  const candidateDeclared = appsDeclared.candidate as {
    table?: string;
    from?: string;
    shared?: boolean;
    erase?: Readonly<Record<string, unknown>>;
    columns: Readonly<Record<string, ColumnSpec<string> | undefined>>;
  } & Partial<Parameters<typeof tablePlan>[1]>;
  const appBase = tablePlan("applications", appsDeclared, "app", company);
  const emailOnCandidate = candidateDeclared.columns.emailNormalized !== undefined;
  const { emailNormalized: _, ...appInfo } = APPLICATION_INFO;
  const applicationFields = fieldsPlan(
    "applications",
    appBase,
    emailOnCandidate ? appInfo : APPLICATION_INFO,
    appsDeclared.columns,
    appsDeclared.extras,
    true,
  );
  const candidateInfo = emailOnCandidate
    ? { ...CANDIDATE_INFO, emailNormalized: APPLICATION_INFO.emailNormalized as FieldInfo }
    : CANDIDATE_INFO;
  const candidateBase: TablePlan =
    candidateDeclared.table === undefined
      ? appBase
      : tablePlan("applications.candidate", candidateDeclared as Parameters<typeof tablePlan>[1], "cnd", company);
  const candidateFields = fieldsPlan(
    "applications.candidate",
    candidateBase,
    candidateInfo,
    candidateDeclared.columns,
    appsDeclared.extras,
    true,
  );
  const missing = [...applicationFields.extraFields, ...candidateFields.extraFields];
  if (appsDeclared.extras === undefined && missing.length > 0) {
    throw new DeclarationError(
      `applications (${appsDeclared.table}) has no column for ${missing.map((f) => `\`${f.field}\``).join(", ")} and no \`extras\` column to keep them in.`,
    );
  }
  const applications: ApplicationPlan = {
    ...applicationFields,
    jobColumn: appsDeclared.job,
    stage: wordPlan("applications", appsDeclared.table, appsDeclared.stage, "application"),
    candidate: {
      ...candidateFields,
      from: candidateDeclared.table === undefined ? null : (candidateDeclared.from ?? null),
      shared: candidateDeclared.shared ?? false,
      erase: candidateDeclared.erase ?? {},
    },
    emailOn: emailOnCandidate && candidateDeclared.table !== undefined ? "candidate" : "application",
  };
  if (candidateDeclared.table !== undefined && candidateDeclared.from === undefined) {
    throw new DeclarationError(
      `applications.candidate (${candidateDeclared.table}) needs \`from\`: the application column naming its row.`,
    );
  }
  require(applications, "applications", ["appliedAt", "updatedAt", "erasedAt", "resumeFileId"]);
  const email = emailOnCandidate
    ? candidateFields.columns.get("emailNormalized")
    : applicationFields.columns.get("emailNormalized");
  if (email === undefined) {
    throw new DeclarationError(
      `applications (${appsDeclared.table}) needs a column for \`emailNormalized\` (on the application or the candidate): the duplicate rule reads it.`,
    );
  }
  if (applications.candidate.shared && applications.emailOn !== "candidate") {
    throw new DeclarationError(
      "a shared candidate table needs its `emailNormalized` column: the person is found by it.",
    );
  }

  return {
    dialect,
    jobs,
    applications,
    stageChanges:
      declaration.stageChanges === "hireport"
        ? null
        : historyPlan("stageChanges", declaration.stageChanges, "stg", company),
    notes: declaration.notes === "hireport" ? null : historyPlan("notes", declaration.notes, "note", company),
  };
}
