import type * as z from "zod";
import type { ApplicationRecord, JobRecord } from "./domain";
import { jobWire } from "./fields/generated/job-wire";
import type { FileTokens } from "./file-tokens";
import type { PublicJobRules } from "./public-jobs";
import type { applicationSchema } from "./schemas/application";
import type { jobSchema } from "./schemas/job";

/** The Job as returned, exactly its fields: the output type of the schema that documents it. */
export type JobWire = z.output<typeof jobSchema>;

/** The Application as returned, exactly its fields: the output type of the schema that documents it. */
export type ApplicationWire = z.output<typeof applicationSchema>;

export interface SerializerOptions {
  publicBaseUrl: string;
  filesPath: string;
  fileTokens: FileTokens;
  /** The public-job rule, which gives `public_url`. */
  publicJobs: PublicJobRules;
  /** When the host serves CVs itself, every application gets a link. */
  hostServesResumes: boolean;
}

/** Turns domain records into the wire shapes of the API (snake_case, ISO 8601 UTC). */
export class Serializer {
  readonly #options: SerializerOptions;

  constructor(options: SerializerOptions) {
    this.#options = options;
  }

  /** The job's page on its company's careers site while the job is public, else null. */
  publicUrl(job: JobRecord): string | null {
    return this.#options.publicJobs.url(job);
  }

  job(job: JobRecord): JobWire {
    return jobWire(job, this.publicUrl(job));
  }

  async application(application: ApplicationRecord): Promise<ApplicationWire> {
    return this.#application(application, await this.resumeUrl(application));
  }

  /** Many applications, in order: only those with a CV link wait for its signature. */
  async applications(applications: readonly ApplicationRecord[]): Promise<ApplicationWire[]> {
    const links = applications.map((application) =>
      this.#hasResumeUrl(application) ? this.resumeUrl(application) : null,
    );
    const resolved = links.some((link) => link !== null) ? await Promise.all(links) : (links as null[]);
    return applications.map((application, i) => this.#application(application, resolved[i] ?? null));
  }

  #application(application: ApplicationRecord, resumeUrl: string | null): ApplicationWire {
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
      scores: { ai_match: application.aiMatch, overall: application.overallScore },
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

  /** Whether the application gets a CV link: it has a CV (or the host serves them) and was not erased. */
  #hasResumeUrl(application: ApplicationRecord): boolean {
    if (application.erasedAt) return false;
    const hasCv = application.resumeSourceUrl !== null || application.resumeFileId !== null;
    return hasCv || this.#options.hostServesResumes;
  }

  /** A short-lived signed link to the CV, or null when the application has none (an erased one never has). */
  async resumeUrl(application: ApplicationRecord): Promise<string | null> {
    if (!this.#hasResumeUrl(application)) return null;
    const token = await this.#options.fileTokens.sign({
      applicationId: application.id,
      companyId: application.companyId,
    });
    return `${this.#options.publicBaseUrl}${this.#options.filesPath}/${token}`;
  }
}
