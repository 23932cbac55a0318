/** The 14 application stages, in the order docs/api-reference.md#application-stages lists them. */
export const APPLICATION_STAGES = [
  "new",
  "applied",
  "applicants",
  "reviewed",
  "shortlisted",
  "technical",
  "interview",
  "interviewed",
  "offered",
  "offer_sent",
  "hired",
  "rejected",
  "withdrawn",
  "on_hold",
] as const;
export type ApplicationStage = (typeof APPLICATION_STAGES)[number];
