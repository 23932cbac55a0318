import { HireportError } from "../base/errors";
import type { ApiRequest } from "../base/http-types";
import { getHeader } from "../base/request-parts";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

function tooLarge(maxBytes: number): HireportError {
  return new HireportError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
}

function checkContentType(request: ApiRequest): void {
  const type = getHeader(request.headers, "content-type");
  if (!type || !JSON_TYPE.test(type)) {
    throw new HireportError("bad_request", "Send the body as JSON with 'Content-Type: application/json'.");
  }
  const charset = CHARSET.exec(type)?.[1];
  if (charset && charset.toLowerCase() !== "utf-8" && charset.toLowerCase() !== "utf8") {
    throw new HireportError("bad_request", "Send the body in UTF-8.");
  }
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : "";
    throw new HireportError("bad_request", `The request body is not valid JSON${detail ? `: ${detail}` : "."}`);
  }
}

/**
 * The JSON body of a request, whether the host parsed it already (`body`) or passed the raw bytes
 * (`rawBody`). An empty body reads as `{}`. Malformed JSON and a wrong content type answer 400;
 * a raw body over `maxBytes` answers 413.
 */
export function readJsonBody(request: ApiRequest, maxBytes: number): unknown {
  const { body, rawBody } = request;
  if (request.bodyTooLarge && request.hostBodyLimit !== undefined) {
    throw new HireportError(
      "payload_too_large",
      `The request body is larger than the ${request.hostBodyLimit} bytes the application's own body parser accepts in front of this API (the API itself takes up to ${maxBytes} bytes).`,
    );
  }
  if (request.bodyTooLarge) throw tooLarge(maxBytes);
  if (request.bodyUnreadable) throw new HireportError("bad_request", "The request body could not be read completely.");
  if (rawBody !== undefined || typeof body === "string" || body instanceof Uint8Array) {
    const raw = rawBody ?? (body as string | Uint8Array);
    let text: string;
    if (typeof raw === "string") {
      if (raw.length > maxBytes || new TextEncoder().encode(raw).length > maxBytes) throw tooLarge(maxBytes);
      text = raw;
    } else {
      if (raw.byteLength > maxBytes) throw tooLarge(maxBytes);
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(raw);
      } catch {
        throw new HireportError("bad_request", "The request body is not valid UTF-8.");
      }
    }
    if (text.trim().length === 0) return {};
    checkContentType(request);
    return parseText(text);
  }
  if (body === undefined || body === null) return {};
  checkContentType(request);
  return body;
}
