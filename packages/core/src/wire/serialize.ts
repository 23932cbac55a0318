import type { ApplicationRecord, JobRecord } from "../model/domain";
import type { PublicJobRules } from "../model/public-jobs";
import type { ApplicationWire } from "../schemas/application";
import type { JobWire } from "../schemas/job";
import type { FileTokens } from "./file-tokens";
import { applicationWire } from "./generated/application-wire";
import { jobWire } from "./generated/job-wire";

export type { ApplicationWire, JobWire };

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
    return applicationWire(application, resumeUrl);
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
