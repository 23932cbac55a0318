/**
 * Each form acts once. Every page's CSRF token carries a random form id; a change claims the pair
 * (form id, the path it posts to) before it runs:
 * - in the storage, through `api.throttle` (one hit allowed, atomic across processes): a repeat of
 *   the same form (a double click, a form sent again) is refused and answers 303 to its page with
 *   "already done";
 * - in this process, for a minute, the first answer is kept: a repeat that arrives while (or just
 *   after) the first runs gets that same answer, so that a double click still leads to the page of
 *   the first (with the new key it shows once).
 * A reload of the page after a change is a GET (every change answers 303), and repeats nothing.
 * The storage's claim lasts the throttle's day window (the UTC day of the first sending): a form
 * kept open across midnight and sent again then would act again, which no reload or double click
 * does.
 */
import { createHash } from "node:crypto";
import type { ApiResponse } from "@hireport/core";
import type { ResolvedConsoleOptions } from "./options";

/** How long this process keeps a form's first answer for its repeats. */
const KEEP_MS = 60_000;

export interface OnceGuard {
  /**
   * Runs `action` when the form `form` of `companyId` was never sent to `path`; otherwise answers
   * as its first sending did (in this process) or with `repeated()`.
   */
  run(
    companyId: string,
    form: string,
    path: string,
    action: () => Promise<ApiResponse>,
    repeated: () => ApiResponse,
  ): Promise<ApiResponse>;
}

export function createOnceGuard(options: ResolvedConsoleOptions): OnceGuard {
  const recent = new Map<string, { at: number; answer: Promise<ApiResponse> }>();

  function forget(now: number): void {
    for (const [key, entry] of recent) {
      if (now - entry.at < KEEP_MS) break; // Insertion order: the rest are newer.
      recent.delete(key);
    }
  }

  return {
    run(companyId, form, path, action, repeated) {
      const now = performance.now();
      forget(now);
      const key = createHash("sha256")
        .update(JSON.stringify([companyId, form, path]))
        .digest("base64url");
      const found = recent.get(key);
      if (found) return found.answer;
      const answer = (async () => {
        const claim = await options.api.throttle(`console:once:${key}`, { perMinute: 1, perDay: 1 });
        return claim.allowed ? action() : repeated();
      })();
      recent.set(key, { at: now, answer });
      // A failure is answered by the caller (each repeat too); nothing is left unhandled here.
      answer.catch(() => undefined);
      return answer;
    },
  };
}
