import { HireportError } from "./errors";
import type { ApiRequest, ApiResponse } from "./http-types";
import type { Runtime } from "./runtime";

const FILE_HEADERS = {
  "cache-control": "private, no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
} as const;

/** `Content-Disposition` that makes the browser save the file under its name, never show it inline. */
function attachment(filename: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function expired(): HireportError {
  return new HireportError(
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
    throw new HireportError("method_not_allowed", "CV links answer GET only.", { headers: { allow: "GET" } });
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
  if (application.erasedAt) throw new HireportError("not_found", "This application's personal data was erased.");
  if (application.resumeFileId !== null && runtime.fileStore) {
    const file = await runtime.fileStore.get(application.companyId, application.resumeFileId);
    if (!file) throw new HireportError("not_found", "This application's CV is no longer stored.");
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
  if (!source) throw new HireportError("not_found", "This application has no CV.");
  if ("redirect" in source) {
    return { status: 302, headers: { ...FILE_HEADERS, location: source.redirect }, body: "" };
  }
  const headers: Record<string, string> = { ...FILE_HEADERS, "content-type": source.contentType };
  if (source.filename) headers["content-disposition"] = attachment(source.filename);
  return { status: 200, headers, body: source.body };
}
