/**
 * The Application as returned: the serializer's Application.
 * Generated from APPLICATION_FIELDS and CANDIDATE_FIELDS (packages/core/src/fields/application.ts, candidate.ts) by packages/core/scripts/generate-fields.ts.
 * Do not edit: run `pnpm --filter @hireport/core generate`.
 */
import type { ApplicationRecord } from "../../model/domain";
import type { ApplicationWire } from "../../schemas/application";

/** The Application of `application` as the API returns it, its keys in the order of `applicationSchema`. */
export function applicationWire(application: ApplicationRecord, resumeUrl: string | null): ApplicationWire {
  const { candidate } = application;
  return {
    id: application.id,
    reference: application.reference,
    job_id: application.jobId,
    job_title: application.jobTitle,
    candidate: {
      name: candidate.name,
      email: candidate.email,
      phone: candidate.phone,
      location: candidate.location,
      linkedin_url: candidate.linkedinUrl,
      current_title: candidate.currentTitle,
      skills: candidate.skills,
    },
    cover_letter: application.coverLetter,
    resume_url: resumeUrl,
    stage: application.stage,
    source: application.source,
    scores: {
      ai_match: application.aiMatch,
      overall: application.overallScore,
    },
    tags: application.tags,
    starred: application.starred,
    human_review_requested: application.humanReviewRequestedAt !== null,
    applied_at: application.appliedAt.toISOString(),
    updated_at: application.updatedAt.toISOString(),
    erased_at: application.erasedAt?.toISOString() ?? null,
    answers: application.answers.map((answer) => ({
      question_id: answer.questionId,
      label: answer.label,
      type: answer.type,
      value: answer.value,
      text: answer.text,
    })),
    knocked_out: application.knockedOut,
  };
}
