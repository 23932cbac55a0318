/**
 * What erasing a candidate does to the data, stated once: the stored application
 * ({@link erasedApplication}) and the JSON texts that carry it, outbox payloads and stored
 * `Idempotency-Key` answers ({@link redactApplications}). Every storage's `candidates.erase` and
 * `idempotency.complete` follow these rules; the conformance suite checks them.
 */
import type { ApplicationRecord, CandidateRecord } from "./domain";
import type { CandidateErasureResult } from "./storage";

/** The candidate of an erased application: every text empty, no skills. */
export const ERASED_CANDIDATE: Readonly<CandidateRecord> = Object.freeze({
  name: "",
  email: "",
  phone: "",
  location: "",
  linkedinUrl: "",
  currentTitle: "",
  skills: [],
});

/** What an erasure has done before its first step: a storage's `candidates.erase` counts into it. */
export function emptyErasureResult(): CandidateErasureResult {
  return { erased: [], fileIds: [], notes: 0, events: 0, attempts: 0, idempotencyRecords: 0 };
}

/**
 * The application as erasure leaves it: the candidate's fields, the normalized e-mail and the cover
 * letter become empty strings, the skills and the answers empty lists, the CV link and the CV file id null, and
 * `erasedAt` and `updatedAt` the erasure's time. Everything else stays true: id, reference, job,
 * stage, source, scores, tags, star, `knockedOut`, consent and its time, the human-review request time, the time
 * it arrived (and the stage history and the job's count, which live elsewhere).
 */
export function erasedApplication<T extends Omit<ApplicationRecord, "jobTitle">>(record: T, erasedAt: Date): T {
  return {
    ...record,
    candidate: { ...ERASED_CANDIDATE, skills: [] },
    emailNormalized: "",
    coverLetter: "",
    resumeSourceUrl: null,
    resumeFileId: null,
    answers: [],
    erasedAt,
    updatedAt: erasedAt,
  };
}

const ERASED_WIRE_CANDIDATE = {
  name: "",
  email: "",
  phone: "",
  location: "",
  linkedin_url: "",
  current_title: "",
  skills: [],
} as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function redactValue(value: Json, ids: ReadonlySet<string>, erasedAt: string): Json {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, ids, erasedAt));
  if (value === null || typeof value !== "object") return value;
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactValue(item, ids, erasedAt);
  const candidate = out.candidate;
  if (typeof out.id === "string" && ids.has(out.id) && candidate !== null && typeof candidate === "object") {
    out.candidate = { ...ERASED_WIRE_CANDIDATE, skills: [] };
    if ("cover_letter" in out) out.cover_letter = "";
    if ("resume_url" in out) out.resume_url = null;
    if ("answers" in out) out.answers = [];
    out.erased_at = erasedAt;
  }
  return out;
}

/**
 * A JSON text (an event's envelope, a stored answer `{ "data": Application }`) with every
 * Application in it whose `id` is one of `applicationIds` erased as its record is: the candidate's
 * texts empty and skills empty, `cover_letter` empty, `resume_url` null, `answers` empty, and `erased_at` set.
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
