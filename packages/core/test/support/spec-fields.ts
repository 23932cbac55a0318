/**
 * The fields of the records the API returns, in the spec's order: the one list each test of the
 * returned shapes compares against (the zod schemas, the HTTP answers).
 */

/** The exact keys of the Job of spec 2.1, in the spec's order. */
export const JOB_FIELDS = [
  "id",
  "reference",
  "title",
  "status",
  "open",
  "description",
  "department",
  "location",
  "employment_type",
  "experience_level",
  "salary",
  "required_skills",
  "closing_date",
  "applications_count",
  "public_url",
  "created_at",
  "updated_at",
  // Beyond the 2.1 table (DESIGN.md section 4): every JobInput field written is returned.
  "short_description",
  "preferred_skills",
  "qualifications",
  "responsibilities",
  "benefits",
  "start_date",
  "positions",
] as const;

/** The exact keys of the Application of spec 2.3, in the spec's order, then the additive ones. */
export const APPLICATION_FIELDS = [
  "id",
  "reference",
  "job_id",
  "job_title",
  "candidate",
  "cover_letter",
  "resume_url",
  "stage",
  "source",
  "scores",
  "tags",
  "starred",
  "human_review_requested",
  "applied_at",
  "updated_at",
  "erased_at",
] as const;

/** The exact keys of an Application's candidate (spec 2.3). */
export const CANDIDATE_FIELDS = [
  "name",
  "email",
  "phone",
  "location",
  "linkedin_url",
  "current_title",
  "skills",
] as const;
