/** The path of an `ApiRequest` below where the careers site is mounted. */
import type { ApiRequest } from "@hireport/core";

/** The path without its query string, without `basePath` when it starts with it, with one leading slash. */
export function pathBelow(request: ApiRequest, basePath: string): string {
  let path = request.path.split("?")[0] ?? "";
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length);
  return path.startsWith("/") ? path : `/${path}`;
}
