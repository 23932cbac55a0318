import type { CandidateRecord, JobRecord } from "../model/domain";

/** Scores an application when it arrives. Advice for a person, never a decision. */
export type ScoringFunction = (input: { job: JobRecord; candidate: CandidateRecord }) => number | Promise<number>;

/** What the CV route serves for an application: a redirect, or the file itself. */
export type ResumeSource = { redirect: string } | { body: Uint8Array; contentType: string; filename?: string } | null;
