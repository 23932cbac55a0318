/**
 * Google's batch format (docs/careers.md, Search engine indexing): a `multipart/mixed` body whose
 * parts are `application/http` requests, each with a `Content-ID`, and an answer in the same form
 * whose parts are the HTTP responses, each with the `Content-ID` of its request prefixed by
 * `response-`. The answer is read whole (it is at most a hundred short JSON answers), so a small
 * strict reader is used: no dependency of the workspace reads `multipart/mixed` (busboy reads
 * `multipart/form-data` only), and the parts are HTTP messages, which multipart readers leave as
 * bytes anyway.
 */
import { randomUUID } from "node:crypto";

/** One call of a batch: its `Content-ID` (without angle brackets) and its JSON body. */
export interface BatchCall {
  id: string;
  body: string;
}

/** One part of a batch's answer: the `Content-ID` of the call it answers, its status and its body. */
export interface BatchAnswer {
  id: string;
  status: number;
  body: string;
}

/** A batch answer that does not follow the format: nothing in it can be trusted. */
export class BatchFormatError extends Error {}

/** A boundary that never occurs in a JSON body of URLs (RFC 2046: at most 70 characters). */
export function batchBoundary(): string {
  return `hireport_batch_${randomUUID().replaceAll("-", "")}`;
}

/**
 * The body of a batch of `POST {path}` calls with JSON bodies. The outer request's
 * `Authorization` header applies to every call, so the parts carry none.
 */
export function batchBody(path: string, calls: readonly BatchCall[], boundary: string): string {
  const lines: string[] = [];
  for (const call of calls) {
    lines.push(
      `--${boundary}`,
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      `Content-ID: <${call.id}>`,
      "",
      `POST ${path} HTTP/1.1`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(call.body, "utf8")}`,
      "",
      call.body,
    );
  }
  lines.push(`--${boundary}--`, "");
  return lines.join("\r\n");
}

/** The `boundary` parameter of a `multipart/mixed` content type, quoted or not. */
function boundaryOf(contentType: string | null): string {
  const match = /^\s*multipart\/mixed\s*;(.*)$/i.exec(contentType ?? "");
  if (!match) throw new BatchFormatError("The batch answer is not multipart/mixed.");
  for (const parameter of (match[1] ?? "").split(";")) {
    const equals = parameter.indexOf("=");
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== "boundary") continue;
    let value = parameter.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (/^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/.test(value) && !value.endsWith(" ")) return value;
    throw new BatchFormatError("The batch answer's boundary is not valid.");
  }
  throw new BatchFormatError("The batch answer has no boundary.");
}

/** Splits `text` at its first empty line: the header lines before it and what follows. */
function splitHead(text: string, what: string): { lines: string[]; rest: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) throw new BatchFormatError(`A ${what} of the batch answer has no end of headers.`);
  return { lines: text.slice(0, match.index).split(/\r?\n/), rest: text.slice(match.index + match[0].length) };
}

/** Header lines into a map of lower-case names; a line without a colon is refused. */
function headers(lines: readonly string[], what: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new BatchFormatError(`A ${what} header line of the batch answer is not a header.`);
    map.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return map;
}

/** The parts between the delimiters of `body` (RFC 2046 section 5.1.1), preamble and epilogue dropped. */
function parts(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const found: string[] = [];
  // The first delimiter starts the body or a line.
  let at = body.startsWith(delimiter) ? 0 : body.indexOf(`\n${delimiter}`);
  if (at < 0) throw new BatchFormatError("The batch answer has no part.");
  if (at > 0) at += 1;
  for (;;) {
    let after = at + delimiter.length;
    if (body.startsWith("--", after)) break;
    // Transport padding, then the end of the delimiter's line.
    while (body[after] === " " || body[after] === "\t") after++;
    if (body.startsWith("\r\n", after)) after += 2;
    else if (body[after] === "\n") after += 1;
    else throw new BatchFormatError("A delimiter of the batch answer is not followed by a line end.");
    const next = body.indexOf(`\n${delimiter}`, after);
    if (next < 0) throw new BatchFormatError("The batch answer has no closing delimiter.");
    const end = body[next - 1] === "\r" ? next - 1 : next;
    found.push(body.slice(after, Math.max(after, end)));
    at = next + 1;
  }
  if (found.length === 0) throw new BatchFormatError("The batch answer has no part.");
  return found;
}

/** The `Content-ID` of an answer part, without angle brackets and the `response-` prefix. */
function answeredId(value: string | undefined): string {
  const bare = (value ?? "").replace(/^<(.*)>$/, "$1");
  if (!bare.startsWith("response-") || bare.length === "response-".length) {
    throw new BatchFormatError("A part of the batch answer has no Content-ID of the form response-….");
  }
  return bare.slice("response-".length);
}

/** Reads a batch answer: one entry per part, in the answer's order. @throws BatchFormatError */
export function parseBatchAnswer(contentType: string | null, body: string): BatchAnswer[] {
  const boundary = boundaryOf(contentType);
  return parts(body, boundary).map((part) => {
    const outer = splitHead(part, "part");
    const partHeaders = headers(outer.lines, "part");
    if (!/^application\/http\s*(;|$)/i.test(partHeaders.get("content-type") ?? "")) {
      throw new BatchFormatError("A part of the batch answer is not application/http.");
    }
    const id = answeredId(partHeaders.get("content-id"));
    const inner = /\r?\n\r?\n/.test(outer.rest)
      ? splitHead(outer.rest, "response")
      : { lines: outer.rest.split(/\r?\n/), rest: "" };
    const statusLine = /^HTTP\/\d(?:\.\d)? ([1-5]\d\d)(?: .*)?$/.exec(inner.lines[0] ?? "");
    if (!statusLine) throw new BatchFormatError("A part of the batch answer has no HTTP status line.");
    headers(inner.lines.slice(1), "response");
    return { id, status: Number(statusLine[1]), body: inner.rest };
  });
}
