import { HireportError } from "../base/errors";
import type { ApiRequest, ApiResponse } from "../base/http-types";
import type { Runtime } from "../runtime/runtime";

/**
 * Every answer of the CV route, the JSON errors too: a CV is never sniffed into HTML, and if a
 * browser shows one anyway it runs in a sandbox that may load nothing.
 */
const SAFETY_HEADERS = {
  "content-security-policy": "default-src 'none'; sandbox",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
} as const;

const FILE_HEADERS = { ...SAFETY_HEADERS, "cache-control": "private, no-store" } as const;

/** A refusal of the CV route, with its safety headers. */
function refusal(code: "not_found" | "method_not_allowed", message: string, headers: Record<string, string> = {}) {
  return new HireportError(code, message, { headers: { ...SAFETY_HEADERS, ...headers } });
}

/** `Content-Disposition` that makes the browser save the file under its name, never show it inline. */
function attachment(filename: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function expired(): HireportError {
  return refusal(
    "not_found",
    "This CV link is not valid or has expired. Read the application again for a fresh resume_url.",
  );
}

/**
 * `GET {filesPath}/{token}`: checks the signed, short-lived token of a `resume_url`, then streams the
 * CV kept in the `fileStore` (an upload through the careers site), or redirects to the CV's stored
 * https address, or serves the bytes a host `resolveResume` returns.
 */
export async function serveFile(runtime: Runtime, request: ApiRequest): Promise<ApiResponse> {
  if (request.method.toUpperCase() !== "GET") {
    throw refusal("method_not_allowed", "CV links answer GET only.", { allow: "GET" });
  }
  const path = request.path.split("?")[0] ?? "";
  const token = path
    .split("/")
    .filter((part) => part.length > 0)
    .pop();
  if (!token || token.length > 2048) throw expired();
  const claims = await runtime.fileTokens.verify(token);
  if (!claims) throw expired();
  const application = await runtime.storage.applications.get(claims.companyId, claims.applicationId);
  if (!application) throw expired();
  if (application.erasedAt) throw refusal("not_found", "This application's personal data was erased.");
  if (application.resumeFileId !== null && runtime.fileStore) {
    const file = await runtime.fileStore.get(application.companyId, application.resumeFileId);
    if (!file) throw refusal("not_found", "This application's CV is no longer stored.");
    return {
      status: 200,
      headers: {
        ...FILE_HEADERS,
        "content-type": file.info.contentType,
        "content-length": String(file.info.size),
        "content-disposition": attachment(file.info.filename),
      },
      body: file.body,
    };
  }
  const target = { id: application.id, companyId: application.companyId, resumeSourceUrl: application.resumeSourceUrl };
  const source = runtime.resolveResume
    ? await runtime.resolveResume(target)
    : application.resumeSourceUrl
      ? { redirect: application.resumeSourceUrl }
      : null;
  if (!source) throw refusal("not_found", "This application has no CV.");
  if ("redirect" in source) {
    return { status: 302, headers: { ...FILE_HEADERS, location: source.redirect }, body: "" };
  }
  const headers: Record<string, string> = { ...FILE_HEADERS, "content-type": source.contentType };
  if (source.filename) headers["content-disposition"] = attachment(source.filename);
  return { status: 200, headers, body: source.body };
}
