import type { ApplicationRecord, JobRecord } from "./domain";
import type { FileTokens } from "./file-tokens";

/** The Job of spec 2.1, exactly its fields. */
export interface JobWire {
  id: string;
  reference: string;
  title: string;
  status: string;
  open: boolean;
  description: string;
  department: string;
  location: string;
  employment_type: string;
  experience_level: string;
  salary: { min: number | null; max: number | null; currency: string; period: string };
  required_skills: string[];
  closing_date: string | null;
  applications_count: number;
  public_url: string | null;
  created_at: string;
  updated_at: string;
}

/** The Application of spec 2.3, exactly its fields. */
export interface ApplicationWire {
  id: string;
  reference: string;
  job_id: string;
  job_title: string;
  candidate: {
    name: string;
    email: string;
    phone: string;
    location: string;
    linkedin_url: string;
    current_title: string;
    skills: string[];
  };
  cover_letter: string;
  resume_url: string | null;
  stage: string;
  source: string;
  scores: { ai_match: number; overall: number | null };
  tags: string[];
  starred: boolean;
  applied_at: string;
  updated_at: string;
}

export interface SerializerOptions {
  publicBaseUrl: string;
  filesPath: string;
  fileTokens: FileTokens;
  /** When the host serves CVs itself, every application gets a link. */
  hostServesResumes: boolean;
}

/** Turns domain records into the wire shapes of the spec (snake_case, ISO 8601 UTC). */
export class Serializer {
  readonly #options: SerializerOptions;

  constructor(options: SerializerOptions) {
    this.#options = options;
  }

  /** `{publicBaseUrl}/jobs/{id}` while the job is active and not hidden, else null. */
  publicUrl(job: JobRecord): string | null {
    if (job.status !== "active" || job.hidden) return null;
    return `${this.#options.publicBaseUrl}/jobs/${encodeURIComponent(job.id)}`;
  }

  job(job: JobRecord): JobWire {
    return {
      id: job.id,
      reference: job.reference,
      title: job.title,
      status: job.status,
      open: job.status === "active",
      description: job.description,
      department: job.department,
      location: job.location,
      employment_type: job.employmentType,
      experience_level: job.experienceLevel,
      salary: { min: job.salaryMin, max: job.salaryMax, currency: job.salaryCurrency, period: job.salaryPeriod },
      required_skills: [...job.requiredSkills],
      closing_date: job.closingDate,
      applications_count: job.applicationsCount,
      public_url: this.publicUrl(job),
      created_at: job.createdAt.toISOString(),
      updated_at: job.updatedAt.toISOString(),
    };
  }

  async application(application: ApplicationRecord): Promise<ApplicationWire> {
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
        skills: [...candidate.skills],
      },
      cover_letter: application.coverLetter,
      resume_url: await this.resumeUrl(application),
      stage: application.stage,
      source: application.source,
      scores: { ai_match: application.aiMatch, overall: application.overallScore },
      tags: [...application.tags],
      starred: application.starred,
      applied_at: application.appliedAt.toISOString(),
      updated_at: application.updatedAt.toISOString(),
    };
  }

  /** A short-lived signed link to the CV, or null when the application has none. */
  async resumeUrl(application: ApplicationRecord): Promise<string | null> {
    if (application.resumeSourceUrl === null && !this.#options.hostServesResumes) return null;
    const token = await this.#options.fileTokens.sign({
      applicationId: application.id,
      companyId: application.companyId,
    });
    return `${this.#options.publicBaseUrl}${this.#options.filesPath}/${token}`;
  }
}
