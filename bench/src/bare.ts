/**
 * The hand-written list routes of the API benchmarks' baselines (`bare-*` and `peer-fastify` in
 * src/server.ts): the same list queries as hireport through Kysely (same columns, filter, order,
 * limit + 1), the same rows serialized to the same JSON shape, a signed opaque cursor.
 */
import { createHmac } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { FILE_SECRET, TABLE_PREFIX } from "./common";
import { PUBLIC_BASE_URL } from "./hireport";
import { LIST_COMPANY } from "./seed";

interface JobRow {
  id: string;
  reference: string;
  title: string;
  status: string;
  hidden: boolean;
  description: string;
  department: string;
  location: string;
  employment_type: string;
  experience_level: string;
  salary_min: number | null;
  salary_max: number | null;
  salary_currency: string;
  salary_period: string;
  required_skills: string;
  closing_date: string | null;
  applications_count: number;
  created_at: Date;
  updated_at: Date;
  short_description: string;
  preferred_skills: string;
  qualifications: string;
  responsibilities: string;
  benefits: string;
  start_date: string | null;
  positions: number | null;
  country: string | null;
  region: string | null;
  locality: string | null;
  postal_code: string | null;
  workplace_type: string | null;
  questions: string;
}

interface ApplicationRow {
  id: string;
  reference: string;
  job_id: string;
  job_title: string;
  candidate_name: string;
  candidate_email: string;
  candidate_phone: string;
  candidate_location: string;
  candidate_linkedin_url: string;
  candidate_current_title: string;
  candidate_skills: string;
  cover_letter: string;
  resume_source_url: string | null;
  stage: string;
  source: string;
  ai_match: number;
  overall_score: number | null;
  tags: string;
  starred: boolean;
  answers: string;
  knocked_out: boolean;
  human_review_requested_at: Date | null;
  applied_at: Date;
  updated_at: Date;
  erased_at: Date | null;
}

function signCursor(at: Date, id: string): string {
  const text = Buffer.from(JSON.stringify({ t: at.getTime(), i: id })).toString("base64url");
  return `${text}.${createHmac("sha256", FILE_SECRET).update(text).digest("base64url").slice(0, 22)}`;
}

function readCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const [text, mac] = cursor.split(".");
  if (!text || mac !== createHmac("sha256", FILE_SECRET).update(text).digest("base64url").slice(0, 22)) return null;
  const body = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as { t: number; i: string };
  return { at: new Date(body.t), id: body.i };
}

function pageSize(raw: unknown): number {
  const limit = typeof raw === "string" ? Number(raw) : 25;
  return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : 25;
}

function page<R extends { id: string }, W>(rows: R[], limit: number, at: (row: R) => Date, wire: (row: R) => W) {
  const hasMore = rows.length > limit;
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return {
    data: data.map(wire),
    has_more: hasMore,
    next_cursor: hasMore && last ? signCursor(at(last), last.id) : null,
  };
}

export async function bareJobs(db: Kysely<unknown>, query: Record<string, unknown>, companyId = LIST_COMPANY) {
  const limit = pageSize(query.limit);
  const after = readCursor(typeof query.cursor === "string" ? query.cursor : undefined);
  const { rows } = await sql<JobRow>`
    select j.* from ${sql.table(`${TABLE_PREFIX}job`)} as j
    where j.company_id = ${companyId}
    ${after ? sql`and j.created_at <= ${after.at} and (j.created_at < ${after.at} or j.id < ${after.id})` : sql``}
    order by j.created_at desc, j.id desc limit ${limit + 1}`.execute(db);
  return page(
    rows,
    limit,
    (row) => row.created_at,
    (job) => ({
      id: job.id,
      reference: job.reference,
      title: job.title,
      status: job.status,
      open: job.status === "active",
      description: job.description,
      department: job.department,
      location: job.location,
      employment_type: job.employment_type,
      experience_level: job.experience_level,
      salary: { min: job.salary_min, max: job.salary_max, currency: job.salary_currency, period: job.salary_period },
      required_skills: JSON.parse(job.required_skills) as string[],
      closing_date: job.closing_date,
      applications_count: job.applications_count,
      public_url:
        job.status === "active" && !job.hidden ? `${PUBLIC_BASE_URL}/jobs/${encodeURIComponent(job.id)}` : null,
      created_at: job.created_at.toISOString(),
      updated_at: job.updated_at.toISOString(),
      short_description: job.short_description,
      preferred_skills: JSON.parse(job.preferred_skills) as string[],
      qualifications: JSON.parse(job.qualifications) as string[],
      responsibilities: JSON.parse(job.responsibilities) as string[],
      benefits: JSON.parse(job.benefits) as string[],
      start_date: job.start_date,
      positions: job.positions,
      country: job.country,
      region: job.region,
      locality: job.locality,
      postal_code: job.postal_code,
      workplace_type: job.workplace_type,
      questions: JSON.parse(job.questions) as unknown[],
    }),
  );
}

export async function bareApplications(db: Kysely<unknown>, query: Record<string, unknown>, companyId = LIST_COMPANY) {
  const limit = pageSize(query.limit);
  const after = readCursor(typeof query.cursor === "string" ? query.cursor : undefined);
  const { rows } = await sql<ApplicationRow>`
    select a.*, j.title as job_title
    from ${sql.table(`${TABLE_PREFIX}application`)} as a
    inner join ${sql.table(`${TABLE_PREFIX}job`)} as j on j.id = a.job_id
    where a.company_id = ${companyId}
    ${after ? sql`and a.applied_at <= ${after.at} and (a.applied_at < ${after.at} or a.id < ${after.id})` : sql``}
    order by a.applied_at desc, a.id desc limit ${limit + 1}`.execute(db);
  return page(
    rows,
    limit,
    (row) => row.applied_at,
    (a) => ({
      id: a.id,
      reference: a.reference,
      job_id: a.job_id,
      job_title: a.job_title,
      candidate: {
        name: a.candidate_name,
        email: a.candidate_email,
        phone: a.candidate_phone,
        location: a.candidate_location,
        linkedin_url: a.candidate_linkedin_url,
        current_title: a.candidate_current_title,
        skills: JSON.parse(a.candidate_skills) as string[],
      },
      cover_letter: a.cover_letter,
      // The seeded applications carry no CV (hireport would sign a link per row otherwise).
      resume_url: null,
      stage: a.stage,
      source: a.source,
      scores: { ai_match: a.ai_match, overall: a.overall_score },
      tags: JSON.parse(a.tags) as string[],
      starred: a.starred,
      human_review_requested: a.human_review_requested_at !== null,
      applied_at: a.applied_at.toISOString(),
      updated_at: a.updated_at.toISOString(),
      erased_at: a.erased_at?.toISOString() ?? null,
      answers: JSON.parse(a.answers) as unknown[],
      knocked_out: a.knocked_out,
    }),
  );
}
