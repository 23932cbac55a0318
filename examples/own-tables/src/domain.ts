/**
 * hireport's domain stores over the product's own tables, declared: `kyselyStorage({ db, domain })`.
 * The names are checked against the product's table types (`HostDatabase`): a table or column that
 * does not exist fails to compile.
 */
import { declaredDomain } from "@hireport/kysely";
import type { HostDatabase } from "./schema";

/** Who made a change, in the history tables. */
const actor = { type: "byType", id: "byId", name: "byName" } as const;

export const domain = declaredDomain<HostDatabase>({
  jobs: {
    table: "openings",
    company: "orgId",
    status: { column: "state", words: { open: "active", on_hold: "paused", filled: "closed", draft: "draft" } },
    applicationsCount: "applicantCount",
    columns: {
      reference: "ref",
      title: "headline",
      hidden: "unlisted",
      closingDate: "closesOn",
      publishedAt: "firstListedAt",
      closedAt: "filledAt",
      createdAt: "createdAt",
      updatedAt: "updatedAt",
    },
    // The listing's other fields, as one JSON object.
    extras: "details",
  },
  applications: {
    table: "candidacies",
    company: "orgId",
    job: "openingId",
    stage: {
      column: "pipelineStage",
      words: {
        inbox: "new",
        applied: "applied",
        pool: "applicants",
        screened: "reviewed",
        shortlist: "shortlisted",
        tech_test: "technical",
        interview_booked: "interview",
        interview_done: "interviewed",
        offer_agreed: "offered",
        offer_out: "offer_sent",
        hired: "hired",
        declined: "rejected",
        withdrew: "withdrawn",
        parked: "on_hold",
      },
    },
    columns: {
      reference: "ref",
      coverLetter: "coverNote",
      resumeSourceUrl: "cvLink",
      resumeFileId: "cvFileId",
      source: "channel",
      consent: "consentGiven",
      consentAt: "consentAt",
      aiMatch: "fitScore",
      overallScore: "rating",
      tags: "labels",
      starred: "flagged",
      humanReviewRequestedAt: "reviewRequestedAt",
      answers: "screeningAnswers",
      knockedOut: "screenedOut",
      appliedAt: "appliedAt",
      updatedAt: "updatedAt",
      erasedAt: "anonymizedAt",
    },
    // One candidate row per candidacy: each application keeps the details sent with it.
    candidate: {
      table: "candidates",
      company: "orgId",
      from: "candidateId",
      columns: {
        name: "fullName",
        email: "email",
        emailNormalized: "emailKey",
        phone: "phone",
        location: "city",
        linkedinUrl: "linkedin",
        currentTitle: "headline",
        skills: "skills",
      },
      onInsert: (application) => ({ createdAt: application.appliedAt }),
    },
  },
  stageChanges: {
    table: "pipeline_moves",
    company: "orgId",
    application: "candidacyId",
    from: "fromStage",
    to: "toStage",
    at: "movedAt",
    actor,
    order: "seq",
  },
  notes: {
    table: "recruiter_notes",
    company: "orgId",
    application: "candidacyId",
    body: "body",
    at: "writtenAt",
    actor,
    order: "seq",
  },
});
