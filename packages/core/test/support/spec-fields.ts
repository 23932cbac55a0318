/**
 * The fields of the records the API returns, in the documented order (docs/api-reference.md,
 * "Objects and fields"), and the values the tests of the Job's and the Application's shapes
 * expect: the one place each test of the returned shapes and of the create defaults compares
 * against (the zod schemas, the HTTP answers). A new Job field is added here, by hand, in each of
 * the Job lists below; a new Application field in each of the Application lists.
 */

/** The exact keys of the Job, in the documented order. */
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
  // The other JobInput fields: every JobInput field written is returned.
  "short_description",
  "preferred_skills",
  "qualifications",
  "responsibilities",
  "benefits",
  "start_date",
  "positions",
  "country",
  "region",
  "locality",
  "postal_code",
  "workplace_type",
  "questions",
] as const;

/** The exact keys of the Application, in the documented order, then the additive ones. */
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
  "answers",
  "knocked_out",
] as const;

/** Every candidate field but `name` and `email` as POST /applications stores it when the body leaves it out. */
export const CANDIDATE_DEFAULTS = {
  phone: "",
  location: "",
  linkedin_url: "",
  current_title: "",
  skills: [],
};

/** The Application fields after `knocked_out` as an application created without them returns them. */
export const APPLICATION_EXTRAS_UNSET = {};

/** What POST /applications stores for every body field but `job_id`, the candidate and `source` when the body leaves it out. */
export const APPLICATION_CREATE_DEFAULTS = {
  cover_letter: "",
  resume_url: null,
  consent: null,
  answers: [],
};

/** A valid body of POST /applications, every field set. */
export const SAMPLE_APPLICATION_BODY = {
  job_id: "job_1",
  candidate: {
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+44 20 7946 0000",
    location: "London",
    linkedin_url: "https://www.linkedin.com/in/ada",
    current_title: "Engineer",
    skills: ["Maths", "Engines"],
  },
  cover_letter: "Dear team,\n...",
  resume_url: "https://files.example.com/cv/ada.pdf",
  source: "careers-site",
  consent: true,
  answers: [
    { question_id: "why", value: "Because." },
    { question_id: "tools", value: ["git"] },
    { question_id: "years", value: 3 },
    { question_id: "visa", value: false },
  ],
};

/** A valid Application as returned (the schema tests parse it and vary it). */
export const SAMPLE_APPLICATION_WIRE = {
  id: "app_1",
  reference: "APP-1001",
  job_id: "job_1",
  job_title: "Backend Engineer",
  candidate: { name: "Ada Lovelace", email: "ada@example.com", ...CANDIDATE_DEFAULTS },
  cover_letter: "",
  resume_url: null,
  stage: "new",
  source: "api",
  scores: { ai_match: 72, overall: null },
  tags: [],
  starred: false,
  human_review_requested: false,
  applied_at: "2026-03-31T09:30:00.000Z",
  updated_at: "2026-03-31T09:30:00.000Z",
  erased_at: null,
  answers: [{ question_id: "visa", label: "Need a visa?", type: "yes_no", value: false, text: "No" }],
  knocked_out: false,
};

/** The exact keys of an Application's candidate. */
export const CANDIDATE_FIELDS = [
  "name",
  "email",
  "phone",
  "location",
  "linkedin_url",
  "current_title",
  "skills",
] as const;

/** The Job fields after `updated_at` as a job created without them returns them. */
export const JOB_EXTRAS_UNSET = {
  short_description: "",
  preferred_skills: [],
  qualifications: [],
  responsibilities: [],
  benefits: [],
  start_date: null,
  positions: null,
  country: null,
  region: null,
  locality: null,
  postal_code: null,
  workplace_type: null,
  questions: [],
};

/** What POST /jobs stores for every JobInput field but `title` when the body leaves it out. */
export const JOB_CREATE_DEFAULTS = {
  description: "",
  short_description: "",
  department: "",
  location: "",
  employment_type: "",
  experience_level: "",
  salary_min: null,
  salary_max: null,
  salary_currency: "GBP",
  salary_period: "year",
  required_skills: [],
  preferred_skills: [],
  qualifications: [],
  responsibilities: [],
  benefits: [],
  closing_date: null,
  start_date: null,
  positions: null,
  country: null,
  region: null,
  locality: null,
  postal_code: null,
  workplace_type: null,
  questions: [],
  status: "draft",
};

/** A valid Job as returned, every field set (the schema tests parse it and vary it). */
export const SAMPLE_JOB_WIRE = {
  id: "job_1",
  reference: "JOB-1001",
  title: "Backend Engineer",
  status: "active",
  open: true,
  description: "",
  department: "",
  location: "London",
  employment_type: "full_time",
  experience_level: "",
  salary: { min: null, max: 70000, currency: "GBP", period: "year" },
  required_skills: ["TypeScript"],
  closing_date: null,
  applications_count: 0,
  public_url: "https://careers.example.com/jobs/job_1",
  created_at: "2026-03-31T09:30:00.000Z",
  updated_at: "2026-03-31T09:30:00.000Z",
  short_description: "",
  preferred_skills: [],
  qualifications: ["BSc"],
  responsibilities: [],
  benefits: ["Pension"],
  start_date: "2026-06-01",
  positions: null,
  country: "GB",
  region: "Greater London",
  locality: "London",
  postal_code: "EC1A 1BB",
  workplace_type: "hybrid",
  questions: [
    {
      id: "experience",
      label: "Years of Go",
      type: "single_choice",
      required: true,
      choices: [
        { value: "none", label: "None", knockout: true },
        { value: "3_plus", label: "3 years or more", knockout: false },
      ],
      help: "",
    },
  ],
};
