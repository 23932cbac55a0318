/** Reading the parts of an `ApiRequest` the careers site needs: headers, the query, the path below the mount. */
import type { ApiRequest } from "@hireport/core";

/** One header, whatever the case of its name and the shape of the bag; the first of several values. */
export function header(request: ApiRequest, name: string): string | undefined {
  const { headers } = request;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** The query as `URLSearchParams`, whatever the adapter passed. */
export function queryOf(request: ApiRequest): URLSearchParams {
  const { query } = request;
  if (query instanceof URLSearchParams) return query;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, item);
  }
  return params;
}

/** The path without its query string, without `basePath` when it starts with it, with one leading slash. */
export function pathBelow(request: ApiRequest, basePath: string): string {
  let path = request.path.split("?")[0] ?? "";
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length);
  return path.startsWith("/") ? path : `/${path}`;
}

/** The media type of the body, lower case, without parameters. */
export function contentType(request: ApiRequest): string {
  return (header(request, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}
