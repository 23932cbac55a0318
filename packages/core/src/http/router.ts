import { HireportError } from "../base/errors";
import { isStorableText } from "../fields/value-schemas";
import { ROUTES, type RouteSpec } from "./routes";

export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: RouteSpec;
  segments: { literal: string | null; param: string | null }[];
}

const MAX_PARAM_LENGTH = 200;

function compile(route: RouteSpec): CompiledRoute {
  const segments = route.path
    .split("/")
    .filter((part) => part.length > 0)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part)?.[1] ?? null;
      return { literal: param ? null : part, param };
    });
  return { route, segments };
}

function splitPath(path: string): string[] | null {
  const parts = path.split("/").filter((part) => part.length > 0);
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/** Matches method and path against the route table: 404 for unknown paths, 405 for wrong methods. */
export class Router {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly RouteSpec[] = ROUTES) {
    this.#routes = routes.map(compile);
  }

  match(method: string, path: string): RouteMatch {
    const parts = splitPath(path);
    const allowed: string[] = [];
    if (parts) {
      for (const compiled of this.#routes) {
        const params = this.#matchSegments(compiled, parts);
        if (!params) continue;
        if (compiled.route.method === method) return { route: compiled.route, params };
        allowed.push(compiled.route.method);
      }
    }
    if (allowed.length > 0) {
      throw new HireportError(
        "method_not_allowed",
        `This path does not accept ${method}; use ${allowed.join(" or ")}.`,
        {
          headers: { allow: allowed.join(", ") },
        },
      );
    }
    throw new HireportError("not_found", "There is no such endpoint. See /openapi.json for the list.");
  }

  #matchSegments(compiled: CompiledRoute, parts: string[]): Record<string, string> | null {
    if (compiled.segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const segment = compiled.segments[i];
      const part = parts[i] as string;
      if (!segment) return null;
      if (segment.literal !== null) {
        if (segment.literal !== part) return null;
      } else if (segment.param !== null) {
        // An id no storage can hold (too long, a NUL character) names nothing: 404.
        if (part.length > MAX_PARAM_LENGTH || !isStorableText(part)) return null;
        params[segment.param] = part;
      }
    }
    return params;
  }
}

/** The path below the API root: base path stripped, no query string, no trailing slash. */
export function apiPath(path: string, basePath: string): string {
  let result = path.split("?")[0] ?? "";
  if (basePath && (result === basePath || result.startsWith(`${basePath}/`))) result = result.slice(basePath.length);
  if (result.length > 1 && result.endsWith("/")) result = result.slice(0, -1);
  return result.startsWith("/") ? result : `/${result}`;
}
