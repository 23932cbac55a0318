/**
 * The fields of the records the API returns, in the order of docs/api-reference.md: the one list each test of the
 * returned shapes compares against (the zod schemas, the HTTP answers).
 */

/** The exact keys of the Job, in the order of docs/api-reference.md. */
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
  // Beyond the Job table: every JobInput field written is returned.
  "short_description",
  "preferred_skills",
  "qualifications",
  "responsibilities",
  "benefits",
  "start_date",
  "positions",
] as const;

/** The exact keys of the Application, in the order of docs/api-reference.md, then the additive ones. */
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

/** The exact keys of an Application's candidate (docs/api-reference.md, Application). */
export const CANDIDATE_FIELDS = [
  "name",
  "email",
  "phone",
  "location",
  "linkedin_url",
  "current_title",
  "skills",
] as const;
