import { HireportError } from "../base/errors";
import { sha256Hex } from "../model/crypto";
import type { StoredResponse } from "../model/domain";
import type { Runtime } from "../runtime/runtime";

const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long an unfinished request holds its key before a retry may run it again. */
const LOCK_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

type CanonicalTask = { text: string } | { value: unknown } | { leave: object };

/**
 * JSON with object keys sorted, so that equal bodies hash equally whatever their key order.
 * Iterative, not recursive: a body nested 100,000 levels deep (well under the 1 MiB limit) must not
 * overflow the call stack (it would answer 500 instead of the 422 the same body gets without an
 * Idempotency-Key). A cycle, which only a JavaScript caller can build, is written as a marker.
 */
export function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const stack: CanonicalTask[] = [{ value: root }];
  const open = new Set<object>();
  while (stack.length > 0) {
    const task = stack.pop() as CanonicalTask;
    if ("text" in task) {
      out.push(task.text);
      continue;
    }
    if ("leave" in task) {
      open.delete(task.leave);
      continue;
    }
    const { value } = task;
    if (value === null || typeof value !== "object") {
      out.push(typeof value === "bigint" ? `${value}n` : (JSON.stringify(value) ?? "null"));
      continue;
    }
    if (open.has(value)) {
      out.push('"[cycle]"');
      continue;
    }
    open.add(value);
    const parts: CanonicalTask[] = [];
    if (Array.isArray(value)) {
      parts.push({ text: "[" });
      for (let index = 0; index < value.length; index++) {
        if (index > 0) parts.push({ text: "," });
        // A hole writes nothing, as Array.prototype.map and join did.
        if (Object.hasOwn(value, index)) parts.push({ value: value[index] });
      }
      parts.push({ text: "]" });
    } else {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      parts.push({ text: "{" });
      entries.forEach(([key, item], index) => {
        parts.push({ text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` }, { value: item });
      });
      parts.push({ text: "}" });
    }
    parts.push({ leave: value });
    for (let index = parts.length - 1; index >= 0; index--) stack.push(parts[index] as CanonicalTask);
  }
  return out.join("");
}

/** What a request run under an `Idempotency-Key` answered, and the application that answer holds (if any). */
export interface IdempotentAnswer {
  response: StoredResponse;
  subjectId?: string | undefined;
}

export interface IdempotentRequest {
  keyId: string;
  idempotencyKey: string;
  method: string;
  path: string;
  body: unknown;
  now: Date;
}

/**
 * `Idempotency-Key` on POST (docs/api-reference.md, Idempotency): the first answer is stored and a repeat within
 * 24 h replays it; the same key with a different request is 422; a repeat while the first is still
 * running is 409 idempotency_in_progress. A 5xx answer is not stored, so a retry runs again.
 */
export async function withIdempotency(
  runtime: Runtime,
  request: IdempotentRequest,
  run: () => Promise<IdempotentAnswer>,
): Promise<StoredResponse> {
  if (!KEY_PATTERN.test(request.idempotencyKey)) {
    throw new HireportError("bad_request", "The Idempotency-Key header must be 1 to 255 visible ASCII characters.");
  }
  const store = runtime.storage.idempotency;
  const requestHash = await sha256Hex(`${request.method} ${request.path}\n${canonicalJson(request.body)}`);
  const claim = await store.claim({
    keyId: request.keyId,
    idempotencyKey: request.idempotencyKey,
    requestHash,
    now: request.now,
    expiresAt: new Date(request.now.getTime() + REPLAY_WINDOW_MS),
    lockedUntil: new Date(request.now.getTime() + LOCK_MS),
  });
  if (claim.state !== "claimed" && claim.requestHash !== requestHash) {
    throw new HireportError("invalid", "This Idempotency-Key was already used with a different request.", {
      fields: [{ field: "Idempotency-Key", message: "Use a new key for a new request." }],
    });
  }
  if (claim.state === "in_progress") {
    throw new HireportError("idempotency_in_progress", "A request with this Idempotency-Key is still running.", {
      headers: { "retry-after": "1" },
    });
  }
  if (claim.state === "completed") {
    return { ...claim.response, headers: { ...claim.response.headers, "idempotent-replayed": "true" } };
  }
  let answer: IdempotentAnswer;
  try {
    answer = await run();
  } catch (error) {
    await store.release(request.keyId, request.idempotencyKey).catch(() => undefined);
    throw error;
  }
  const { response, subjectId } = answer;
  if (response.status >= 500) {
    await store.release(request.keyId, request.idempotencyKey);
  } else if (subjectId === undefined) {
    await store.complete(request.keyId, request.idempotencyKey, response);
  } else {
    await store.complete(request.keyId, request.idempotencyKey, response, subjectId);
  }
  return response;
}
