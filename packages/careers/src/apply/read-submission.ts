/**
 * Reads the body of `POST /jobs/{id}/apply`: a multipart form (the site's own page), a URL-encoded
 * form, or JSON (a host's own front end, the CV as base64). Multipart is streamed through busboy
 * with limits; the CV is spooled to a temporary file as it arrives (never whole in memory), to be
 * checked once the whole form is read and handed to the file store only when everything is valid.
 * The caller removes the temporary file (`discardSubmission`) whatever happens.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { type ApiRequest, getHeader } from "@hireport/core";
import { mediaTypeOf, readBytes } from "@hireport/core/http";
import busboy from "busboy";

/** A CV as received, in a temporary file. */
export interface SpooledFile {
  path: string;
  /** The name the candidate's file had. */
  filename: string;
  size: number;
  /** More bytes came than `maxFileBytes`: the file holds only the first ones. */
  truncated: boolean;
}

export interface Submission {
  /** The text fields, the first value of each name. */
  fields: Record<string, string>;
  /** Every value of each name, in the order sent (the boxes ticked of a question of several answers). */
  lists: Record<string, string[]>;
  file: SpooledFile | null;
  /** The body broke a limit (too many fields or files, a field too long): it is refused whole. */
  overLimit: boolean;
  /** Names of the text fields whose bytes were not valid UTF-8 (their value holds U+FFFD instead). */
  invalidText: string[];
}

export interface ReadLimits {
  maxFileBytes: number;
  /** Largest form body (multipart or URL-encoded); JSON has its own, from `maxFileBytes`. */
  maxBodyBytes: number;
  /** Where the CV is spooled. */
  directory: string;
  /** Most text fields a form may have (the form's own and one per answer box of its questions). @default 30 */
  maxFields?: number;
}

/** Longest text field (the cover letter is 20,000 characters, up to 4 bytes each). */
const MAX_FIELD_BYTES = 96 * 1024;
/** The form's own fields, with room to spare: a job's questions add theirs (`ReadLimits.maxFields`). */
export const FORM_FIELDS = 30;
/** A JSON body: the CV as base64 (4 bytes per 3) and the text fields. */
const jsonLimit = (maxFileBytes: number) => Math.ceil((maxFileBytes * 4) / 3) + 256 * 1024;

/** The request's body as a Web stream, whatever the adapter passed. */
function bodyOf(request: ApiRequest): ReadableStream<Uint8Array> | null {
  if (request.bodyStream) return request.bodyStream;
  if (request.rawBody !== undefined) {
    const bytes = typeof request.rawBody === "string" ? new TextEncoder().encode(request.rawBody) : request.rawBody;
    return new Response(bytes as BodyInit).body;
  }
  return null;
}

function temporaryPath(directory: string): string {
  return join(directory, `hireport-cv-${randomBytes(12).toString("hex")}`);
}

/** Reads and drops a body the site will not use (up to `maxBytes`, then stops), so the connection stays usable. */
export async function discardBody(request: ApiRequest, maxBytes = 32 * 1024 * 1024): Promise<void> {
  const stream = request.bodyStream;
  if (!stream) return;
  const reader = stream.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > maxBytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing to drop.
  }
}

/**
 * Form text as UTF-8, strictly. busboy hands the field over as Latin-1 (one character a byte, the
 * `defCharset` below), so the bytes come back exactly; null when they are not valid UTF-8.
 */
function strictUtf8(latin1: string): string | null {
  try {
    return utf8.decode(Buffer.from(latin1, "latin1"));
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The content type busboy is given: a URL-encoded form's `charset` is dropped (forms are UTF-8, read strictly). */
function parserContentType(request: ApiRequest): string {
  const type = getHeader(request.headers, "content-type") ?? "";
  return mediaTypeOf(request.headers) === "application/x-www-form-urlencoded"
    ? "application/x-www-form-urlencoded"
    : type;
}

/**
 * Streams a form through busboy, stopping as soon as a limit is passed: the whole body over
 * `maxBodyBytes` throws `too_large`; the CV over `maxFileBytes` ends the reading there, with the
 * file marked `truncated` (the fields read before it are kept). The rest of the body is left unread.
 */
async function readMultipart(
  request: ApiRequest,
  limits: ReadLimits,
  stream: ReadableStream<Uint8Array>,
): Promise<Submission> {
  const parser = busboy({
    headers: { "content-type": parserContentType(request) },
    defParamCharset: "utf8",
    defCharset: "latin1",
    limits: {
      // One byte more than the limit: busboy's `limit` then means "over", never "exactly at".
      fileSize: limits.maxFileBytes + 1,
      files: 1,
      fields: limits.maxFields ?? FORM_FIELDS,
      parts: (limits.maxFields ?? FORM_FIELDS) + 1,
      fieldSize: MAX_FIELD_BYTES,
    },
  });
  const submission: Submission = { fields: {}, lists: {}, file: null, overLimit: false, invalidText: [] };
  const writes: Promise<void>[] = [];
  let fileOverLimit = false;
  let failure: unknown = null;
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", (error) => {
      failure ??= error;
      reject(error);
    });
  });
  parsed.catch(() => undefined);
  parser.on("field", (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) submission.overLimit = true;
    const text = strictUtf8(value);
    // Shown back as the browser would have decoded it, for the candidate to fix.
    const shown = text ?? Buffer.from(value, "latin1").toString("utf8");
    if (text === null && !submission.invalidText.includes(name)) submission.invalidText.push(name);
    const list = submission.lists[name] ?? [];
    list.push(shown);
    submission.lists[name] = list;
    if (!(name in submission.fields)) submission.fields[name] = shown;
  });
  parser.on("file", (name, file, info) => {
    if (name !== "resume" || submission.file) {
      // Skipped; stopping the parser early ends it with an error nobody needs to hear.
      file.on("error", () => undefined);
      file.resume();
      return;
    }
    const spooled: SpooledFile = {
      path: temporaryPath(limits.directory),
      filename: info.filename ?? "",
      size: 0,
      truncated: false,
    };
    submission.file = spooled;
    file.on("data", (chunk: Buffer) => {
      spooled.size += chunk.byteLength;
    });
    file.on("limit", () => {
      spooled.truncated = true;
      fileOverLimit = true;
    });
    writes.push(pipeline(file, createWriteStream(spooled.path, { flags: "wx", mode: 0o600 })));
  });
  for (const event of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
    parser.on(event, () => {
      submission.overLimit = true;
    });
  }
  const reader = stream.getReader();
  let size = 0;
  try {
    for (;;) {
      if (failure) throw failure;
      if (fileOverLimit) {
        // Refused here: the rest of the CV (and of the body) is never read.
        parser.destroy();
        await Promise.allSettled(writes);
        return submission;
      }
      const { done, value } = await reader.read();
      if (done) {
        parser.end();
        await parsed;
        await Promise.all(writes);
        return submission;
      }
      size += value.byteLength;
      if (size > limits.maxBodyBytes) throw new UnreadableBody("too_large");
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), parsed]);
    }
  } catch (error) {
    // A body that breaks off (or is refused) leaves no temporary file behind.
    parser.destroy();
    await Promise.allSettled(writes);
    if (submission.file) await rm(submission.file.path, { force: true });
    throw error;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function text(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ");
  return undefined;
}

/** A UTF-16 surrogate without its pair: text no UTF-8 can hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, "g");

/** A JSON application: the fields by the form's names, `consent` true, the CV as `{ filename, content_base64 }`. */
async function fromJson(value: unknown, limits: ReadLimits): Promise<Submission> {
  const submission: Submission = { fields: {}, lists: {}, file: null, overLimit: false, invalidText: [] };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return submission;
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (name === "resume") continue;
    // A list of texts: every item kept (the choices picked of a question), and joined as the field.
    if (Array.isArray(item) && item.every((entry) => typeof entry === "string")) {
      // A lone surrogate in an item is in the joined text too: reported below.
      submission.lists[name] = item.map((entry) => entry.replace(LONE_SURROGATE_ALL, "\uFFFD"));
    }
    const field = text(item);
    if (field === undefined) continue;
    // JSON text is UTF-8 already; a lone surrogate (`"\ud800"`) is text UTF-8 cannot hold.
    if (LONE_SURROGATE.test(field)) {
      submission.invalidText.push(name);
      submission.fields[name] = field.replace(LONE_SURROGATE_ALL, "\uFFFD");
    } else submission.fields[name] = field;
    submission.lists[name] ??= [submission.fields[name] ?? field];
  }
  if ((value as { consent?: unknown }).consent === true) submission.fields.consent = "yes";
  else delete submission.fields.consent;
  const resume = (value as { resume?: unknown }).resume;
  if (resume && typeof resume === "object") {
    const { filename, content_base64: content } = resume as { filename?: unknown; content_base64?: unknown };
    if (typeof content === "string") {
      const bytes = Buffer.from(content, "base64");
      const path = temporaryPath(limits.directory);
      const truncated = bytes.byteLength > limits.maxFileBytes;
      await writeFile(path, truncated ? bytes.subarray(0, limits.maxFileBytes) : bytes, { flag: "wx", mode: 0o600 });
      submission.file = {
        path,
        filename: typeof filename === "string" ? filename : "",
        size: bytes.byteLength,
        truncated,
      };
    }
  }
  return submission;
}

/**
 * What went wrong reading a body: it was not a form the site reads, it could not be read at all,
 * it was over its limit, or (JSON) its bytes were not UTF-8.
 */
export class UnreadableBody extends Error {
  constructor(readonly reason: "type" | "unreadable" | "too_large" | "not_utf8") {
    super(`The application could not be read (${reason}).`);
  }
}

/** Reads an application from the request. @throws UnreadableBody */
export async function readSubmission(request: ApiRequest, limits: ReadLimits): Promise<Submission> {
  const type = mediaTypeOf(request.headers);
  // A host's parser got there first (express.json(), express.urlencoded()).
  if (request.body !== undefined && request.bodyStream === undefined && request.rawBody === undefined) {
    if (typeof request.body === "object" && request.body !== null) return fromJson(request.body, limits);
    throw new UnreadableBody("type");
  }
  if (request.bodyTooLarge) throw new UnreadableBody("too_large");
  if (request.bodyUnreadable) throw new UnreadableBody("unreadable");
  const stream = bodyOf(request);
  if (!stream) throw new UnreadableBody("unreadable");
  if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
    try {
      return await readMultipart(request, limits, stream);
    } catch (error) {
      throw error instanceof UnreadableBody ? error : new UnreadableBody("unreadable");
    }
  }
  if (type === "application/json") {
    let bytes: Uint8Array | null;
    try {
      bytes = await readBytes(stream, jsonLimit(limits.maxFileBytes));
    } catch {
      throw new UnreadableBody("unreadable");
    }
    if (bytes === null) throw new UnreadableBody("too_large");
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      // As the API's own JSON reader answers: 400, the body is not UTF-8.
      throw new UnreadableBody("not_utf8");
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new UnreadableBody("unreadable");
    }
    return fromJson(value, limits);
  }
  await discardBody(request);
  throw new UnreadableBody("type");
}

/** Removes the temporary file of a submission, if any. */
export async function discardSubmission(submission: Submission | null): Promise<void> {
  if (submission?.file) await rm(submission.file.path, { force: true });
}
