/**
 * What erasing a candidate does to the data, stated once: the stored application
 * ({@link erasedApplication}) and the JSON texts that carry it, outbox payloads and stored
 * `Idempotency-Key` answers ({@link redactApplications}). Every storage's `candidates.erase` and
 * `idempotency.complete` follow these rules; the conformance suite checks them.
 */

import { APPLICATION_FIELDS } from "../fields/application";
import { CANDIDATE_FIELDS } from "../fields/candidate";
import { fieldDefault } from "../fields/field";
import type { ApplicationRecord, CandidateRecord } from "../model/domain";
import type { CandidateErasureResult } from "../storage";

/** The candidate's fields at their defaults, by record name (fresh lists each call). */
function candidateDefaults(): CandidateRecord {
  const candidate: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(CANDIDATE_FIELDS)) candidate[name] = fieldDefault(spec);
  return candidate as CandidateRecord;
}

/** The candidate of an erased application: every candidate field at its default (every text empty, no skills). */
export const ERASED_CANDIDATE: Readonly<CandidateRecord> = Object.freeze(candidateDefaults());

/** The Application fields that are the candidate's personal data (declared `personal`). */
const PERSONAL_FIELDS = Object.entries(APPLICATION_FIELDS).filter(([, spec]) => spec.personal);

/** What an erasure has done before its first step: a storage's `candidates.erase` counts into it. */
export function emptyErasureResult(): CandidateErasureResult {
  return { erased: [], fileIds: [], notes: 0, events: 0, attempts: 0, idempotencyRecords: 0 };
}

/**
 * The application as erasure leaves it: every candidate field and every Application field declared
 * `personal` at its default (the candidate's texts, the normalized e-mail and the cover letter
 * empty strings, the skills and the answers empty lists, the CV link and the CV file id null), and
 * `erasedAt` and `updatedAt` the erasure's time. Everything else stays true: id, reference, job,
 * stage, source, scores, tags, star, `knockedOut`, consent and its time, the human-review request time, the time
 * it arrived (and the stage history and the job's count, which live elsewhere).
 */
export function erasedApplication<T extends Omit<ApplicationRecord, "jobTitle">>(record: T, erasedAt: Date): T {
  const erased: Record<string, unknown> = { ...record, candidate: candidateDefaults() };
  for (const [name, spec] of PERSONAL_FIELDS) erased[name] = fieldDefault(spec);
  erased.erasedAt = erasedAt;
  erased.updatedAt = erasedAt;
  return erased as T;
}

/** The candidate of an erased Application as returned: every candidate field at its default, by wire name. */
function erasedWireCandidate(): Record<string, unknown> {
  const candidate: Record<string, unknown> = {};
  for (const spec of Object.values(CANDIDATE_FIELDS)) candidate[spec.wire] = fieldDefault(spec);
  return candidate;
}

/** The personal fields an Application returns, by wire name (the CV link, `resume_url`, is computed: see below). */
const PERSONAL_WIRE = PERSONAL_FIELDS.filter(([, spec]) => spec.placement !== "none").map(([, spec]) => spec);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function redactValue(value: Json, ids: ReadonlySet<string>, erasedAt: string): Json {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, ids, erasedAt));
  if (value === null || typeof value !== "object") return value;
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactValue(item, ids, erasedAt);
  const candidate = out.candidate;
  if (typeof out.id === "string" && ids.has(out.id) && candidate !== null && typeof candidate === "object") {
    out.candidate = erasedWireCandidate() as Json;
    for (const spec of PERSONAL_WIRE) if (spec.wire in out) out[spec.wire] = fieldDefault(spec) as Json;
    // The link to the CV of the erased `resumeSourceUrl` or `resumeFileId`.
    if ("resume_url" in out) out.resume_url = null;
    out.erased_at = erasedAt;
  }
  return out;
}

/**
 * A JSON text (an event's envelope, a stored answer `{ "data": Application }`) with every
 * Application in it whose `id` is one of `applicationIds` erased as its record is: the candidate's
 * texts empty and skills empty, the returned personal fields at their defaults (the cover letter
 * and the answers empty), `resume_url` null, and `erased_at` set.
 * Everything else is kept as it was. A text that does not mention any of the ids is returned
 * unchanged; one that does but is not JSON is replaced by `{"redacted":true}`.
 */
export function redactApplications(text: string, applicationIds: Iterable<string>, erasedAt: Date): string {
  const ids = new Set(applicationIds);
  if (![...ids].some((id) => text.includes(id))) return text;
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    return JSON.stringify({ redacted: true });
  }
  return JSON.stringify(redactValue(parsed, ids, erasedAt.toISOString()));
}

/** The answer an attempt stores when its event concerns an erased candidate: the receiver may have echoed their data. */
export const REDACTED_RESPONSE_BODY = "";
