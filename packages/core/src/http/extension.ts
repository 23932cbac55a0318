/**
 * Routes another package adds to the public API (`createPublicApi({ extensions })`): `@hireport/webhooks`
 * contributes the webhook endpoints this way, so core keeps no webhook logic. An extension's routes
 * go through the same pipeline as core's (key, rate limit, usage log, permission, query and body
 * validation, Idempotency-Key on POST, error answers) and appear in the OpenAPI document.
 */
import type * as z from "zod";
import { parseQuery } from "../schemas/validation";
import type { HandlerContext, HandlerResult } from "./handlers";
import type { QuerySpec, RouteSpec } from "./routes";

/** One route of an extension: its spec, as core's route table states its own, and its handler. */
export interface ExtensionRoute<Q = unknown, B = unknown> extends RouteSpec<Q, B> {
  /**
   * Runs after routing, admission, the permission check and validation, with the admitted key,
   * the path parameters and the typed query and body. Throw a `HireportError` to answer an error.
   */
  handle(context: HandlerContext<Q, B>): Promise<HandlerResult>;
}

/** What `createPublicApi({ extensions })` takes from another package. */
export interface ApiExtension {
  /** Names the extension in configuration errors (a route that clashes with another). */
  name: string;
  /** The routes, matched after core's own. Each method and path, and each operation id, must be new. */
  routes: readonly ExtensionRoute[];
  /** OpenAPI tags its routes use (`RouteSpec.tag`), listed after core's. @default none */
  tags?: readonly { name: string; description: string }[];
  /**
   * Returned schemas to publish as named components (`#/components/schemas/{name}`), so that the
   * route responses that use them refer to them. @default none
   */
  components?: readonly (readonly [string, z.ZodType])[];
}

/** Defines an extension route, typing its handler by its query and body schemas. */
export function extensionRoute<Q, B>(route: ExtensionRoute<Q, B>): ExtensionRoute<Q, B> {
  return Object.freeze(route);
}

/**
 * The query of a route from its strict schema: any parameter the schema does not take, a repeated
 * one or an invalid one answers 400 naming it.
 */
export function querySpec<S extends z.ZodType>(schema: S): QuerySpec<z.output<S>> {
  return { schema, parse: (query) => parseQuery(schema, query) };
}

/** True for a route an extension contributed (it carries its own handler). */
export function isExtensionRoute(route: RouteSpec): route is ExtensionRoute {
  return typeof (route as Partial<ExtensionRoute>).handle === "function";
}

/**
 * The routes of core and the extensions, in matching order.
 * @throws TypeError when an extension's route reuses an operation id, or a method and path, of another route
 */
export function routesWith(core: readonly RouteSpec[], extensions: readonly ApiExtension[]): readonly RouteSpec[] {
  const all: RouteSpec[] = [...core];
  const ids = new Set(core.map((route) => route.operationId));
  const shapes = new Set(core.map((route) => `${route.method} ${route.path.replace(/\{\w+\}/g, "{}")}`));
  for (const extension of extensions) {
    for (const route of extension.routes) {
      const shape = `${route.method} ${route.path.replace(/\{\w+\}/g, "{}")}`;
      if (ids.has(route.operationId)) {
        throw new TypeError(`extension ${extension.name}: the operation id ${route.operationId} is taken`);
      }
      if (shapes.has(shape)) {
        throw new TypeError(`extension ${extension.name}: ${route.method} ${route.path} is taken`);
      }
      ids.add(route.operationId);
      shapes.add(shape);
      all.push(route);
    }
  }
  return Object.freeze(all);
}
