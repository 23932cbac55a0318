/**
 * The rule of `applications.create` as one table of cases: what is stored before the write, what
 * happens to the job between core's read and the write, and what the storage must answer. The
 * storage conformance suite runs every case on every storage, so the rule's two implementations
 * meet the same table: core's `createApplicationInSteps` (the memory storage, `@hireport/kysely` on
 * SQLite and MySQL/MariaDB, a host's own tables) and the Postgres routine `create_application` of
 * `@hireport/kysely`, the one fast path that restates the rule in SQL. A change to one of them that
 * the other does not make fails here.
 *
 * A closed job is one case of `job_changed` at this level: closing a job moves its `updatedAt`, so
 * an application checked against the job while it was open is refused by the storage, and core,
 * reading the job again, answers 422 (the service's check, not the storage's).
 */
import type { ApplicationStage } from "../model/domain";
import { DAY, MINUTE } from "./fixtures";

/** The duplicate window core asks for: 30 days back from the new application's `appliedAt`. */
export const DUPLICATE_WINDOW_MS = 30 * DAY;

/** An application stored before the write, through `applications.create`. */
export interface PriorApplication {
  /** How long before the new application's `appliedAt` it arrived, in milliseconds (negative: after it). */
  before: number;
  /** Its normalized e-mail: the new application's, or another. @default "same" */
  email?: "same" | "other";
  /** Its job: the new application's, or another job of the company. @default "same" */
  job?: "same" | "other";
  /** The stage it is moved to once stored. @default it stays "new" */
  stage?: ApplicationStage;
}

/**
 * What happens to the job after core read it and before the write, or which job the write names:
 * - `renamed`: another title, `updatedAt` kept (the title alone must be checked);
 * - `edited`: another field, a later `updatedAt` (its questions, say);
 * - `closed`: closed, with a later `updatedAt`;
 * - `gone`: the write names a job the storage does not have;
 * - `another company's`: the write names a job of another company.
 */
export type JobChange = "renamed" | "edited" | "closed" | "gone" | "another company's";

/** What the storage must answer; a duplicate names one of the prior applications (by index). */
export type CreateCaseOutcome =
  | { outcome: "created" }
  | { outcome: "job_changed" }
  /** `existingId` is one of these prior applications (the contract does not say which when several match). */
  | { outcome: "duplicate"; oneOf: readonly number[] };

export interface ApplicationCreateCase {
  name: string;
  /** Applications stored before, oldest listed first. @default none */
  prior?: readonly PriorApplication[];
  /** @default the job stays as core read it */
  job?: JobChange;
  /** How far back from `appliedAt` the write's `duplicateSince` is. @default DUPLICATE_WINDOW_MS */
  window?: number;
  expected: CreateCaseOutcome;
}

const created = { outcome: "created" } as const;
const jobChanged = { outcome: "job_changed" } as const;
const duplicateOf = (...oneOf: number[]): CreateCaseOutcome => ({ outcome: "duplicate", oneOf });

/** The cases, each run on a company and jobs of its own. */
export const APPLICATION_CREATE_CASES: readonly ApplicationCreateCase[] = [
  { name: "a first application is created", expected: created },
  {
    name: "the same e-mail on the job a day before is a duplicate",
    prior: [{ before: DAY }],
    expected: duplicateOf(0),
  },
  {
    name: "the window is inclusive: an application at duplicateSince is a duplicate",
    prior: [{ before: DUPLICATE_WINDOW_MS }],
    expected: duplicateOf(0),
  },
  {
    name: "an application 1 ms before duplicateSince is not",
    prior: [{ before: DUPLICATE_WINDOW_MS + 1 }],
    expected: created,
  },
  {
    name: "the window is the write's duplicateSince, not a fixed 30 days",
    prior: [{ before: 10 * DAY }],
    window: 7 * DAY,
    expected: created,
  },
  {
    name: "an application stored with a later appliedAt (another process's clock) is a duplicate",
    prior: [{ before: -MINUTE }],
    expected: duplicateOf(0),
  },
  { name: "the same e-mail on another job is not", prior: [{ before: DAY, job: "other" }], expected: created },
  { name: "another e-mail on the job is not", prior: [{ before: DAY, email: "other" }], expected: created },
  {
    name: "whatever the earlier application's stage (rejected)",
    prior: [{ before: DAY, stage: "rejected" }],
    expected: duplicateOf(0),
  },
  { name: "whatever its stage (withdrawn)", prior: [{ before: DAY, stage: "withdrawn" }], expected: duplicateOf(0) },
  { name: "whatever its stage (hired)", prior: [{ before: DAY, stage: "hired" }], expected: duplicateOf(0) },
  {
    name: "of two in the window, it names one of them",
    prior: [{ before: 20 * DAY }, { before: DAY }],
    window: 40 * DAY,
    expected: duplicateOf(0, 1),
  },
  {
    name: "of two, only the one in the window counts",
    prior: [{ before: 40 * DAY }, { before: DAY }],
    expected: duplicateOf(1),
  },
  { name: "the job renamed since it was read: job_changed", job: "renamed", expected: jobChanged },
  { name: "the job changed otherwise since it was read: job_changed", job: "edited", expected: jobChanged },
  { name: "the job closed since it was read: job_changed", job: "closed", expected: jobChanged },
  { name: "the job gone: job_changed", job: "gone", expected: jobChanged },
  { name: "another company's job: job_changed", job: "another company's", expected: jobChanged },
  {
    name: "the job is checked before the duplicate rule: changed and a duplicate is job_changed",
    prior: [{ before: DAY }],
    job: "edited",
    expected: jobChanged,
  },
];
