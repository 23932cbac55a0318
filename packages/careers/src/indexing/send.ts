/**
 * One HTTP call to a search-engine service, retried with p-retry on a network error, a 429 or a
 * 5xx answer; any other answer is final. The outcome never holds a secret: the request's headers
 * and body are not in it, only the status and the first characters of the answer.
 */
import pRetry from "p-retry";

/** How a call ended, after its retries. */
export interface SendOutcome {
  /** The last status answered, or null when none was (a network error). */
  status: number | null;
  /** Whether the service took it (2xx). */
  ok: boolean;
  /** Whether trying again later may help (a network error, 429, 5xx): the notice then stays pending. */
  retryable: boolean;
  /** Why it failed (no secret), or null when it succeeded. */
  error: string | null;
  /** The answer's body, read for a 2xx only (at most `MAX_BODY` characters). */
  body: string;
  /** The answer's `Content-Type`, for a 2xx only (null otherwise, or when it has none). */
  contentType: string | null;
}

/** Retries of a call that may help, and the waits between them. */
export interface RetrySettings {
  retries: number;
  minTimeoutMs: number;
  maxTimeoutMs: number;
}

const MAX_ERROR_TEXT = 200;
/** Enough for a batch answer of a hundred parts. */
const MAX_BODY = 1_048_576;

class RetryableAnswer extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(`The service answered ${status}.`);
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_ERROR_TEXT ? `${flat.slice(0, MAX_ERROR_TEXT)}…` : flat;
}

/** Why an answer with `status` failed, with the first characters of its body (no secret in them). */
export function answered(status: number, text: string): string {
  const said = excerpt(text);
  return said === "" ? `The service answered ${status}.` : `The service answered ${status}: ${said}`;
}

/** Sends `request()` (a new request each try) with the retries of `settings`. */
export async function sendWithRetries(request: () => Promise<Response>, settings: RetrySettings): Promise<SendOutcome> {
  try {
    const response = await pRetry(
      async () => {
        const answer = await request();
        if (answer.status === 429 || answer.status >= 500) {
          const text = await answer.text().catch(() => "");
          throw new RetryableAnswer(answer.status, text);
        }
        return answer;
      },
      {
        retries: settings.retries,
        minTimeout: settings.minTimeoutMs,
        maxTimeout: settings.maxTimeoutMs,
        randomize: true,
      },
    );
    const text = (await response.text().catch(() => "")).slice(0, MAX_BODY);
    if (response.ok) {
      const contentType = response.headers.get("content-type");
      return { status: response.status, ok: true, retryable: false, error: null, body: text, contentType };
    }
    const error = answered(response.status, text);
    return { status: response.status, ok: false, retryable: false, error, body: "", contentType: null };
  } catch (error) {
    if (error instanceof RetryableAnswer) {
      const reason = answered(error.status, error.text);
      return { status: error.status, ok: false, retryable: true, error: reason, body: "", contentType: null };
    }
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      status: null,
      ok: false,
      retryable: true,
      error: `The service could not be reached: ${reason}${typeof cause === "string" ? ` (${cause})` : ""}.`,
      body: "",
      contentType: null,
    };
  }
}
