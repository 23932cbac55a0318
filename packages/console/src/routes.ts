/** The console's pages and changes: one table, matched by `create-console.ts`. */
import type { ApiResponse } from "@hireport/core";
import type { Call } from "./call";
import { showAudit } from "./handlers/audit";
import { eraseCandidate, exportCandidate, reviewErasure, showCandidates } from "./handlers/candidates";
import { showEventCatalog } from "./handlers/event-catalog";
import { showIndexing } from "./handlers/indexing";
import { confirmRevoke, createKey, revokeKey, showKeys } from "./handlers/keys";
import { exportUsage, showUsage } from "./handlers/usage";
import {
  confirmDelete,
  createEndpoint,
  deleteEndpoint,
  pauseEndpoint,
  recoverDeliveries,
  resendDelivery,
  resumeEndpoint,
  revealSecret,
  rotateSecret,
  sendTest,
  showEndpoint,
  showWebhooks,
  updateEndpoint,
} from "./handlers/webhooks";

/** Who may send a route's POST: owners and admins, or owners only. */
export type Needs = "change" | "secrets";

export interface ConsoleRoute {
  method: "GET" | "POST";
  /** `/keys/:id/revoke`: segments starting with `:` are parameters (no `/` inside). */
  path: string;
  handle(call: Call): Promise<ApiResponse>;
  /** For POST: the role it needs. */
  needs?: Needs;
  /**
   * For a POST that changes something: the page a repeat of the same form goes back to (with "already
   * done"); the form then acts once. Unset for a POST that changes nothing (an export, a review).
   */
  repeat?: string;
  /**
   * For POST: the change it asks for, named as its audit entry (`key.created`), reported on the
   * request's span as `hireport.console.action`.
   */
  action?: string;
}

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { method: "GET", path: "/keys", handle: showKeys },
  { method: "POST", path: "/keys", action: "key.created", handle: createKey, needs: "change", repeat: "/keys" },
  { method: "GET", path: "/keys/:id/revoke", handle: confirmRevoke },
  {
    method: "POST",
    path: "/keys/:id/revoke",
    action: "key.revoked",
    handle: revokeKey,
    needs: "change",
    repeat: "/keys",
  },
  { method: "GET", path: "/usage", handle: showUsage },
  { method: "GET", path: "/usage/export.csv", handle: exportUsage },
  { method: "GET", path: "/webhooks", handle: showWebhooks },
  {
    method: "POST",
    path: "/webhooks",
    action: "webhook_endpoint.created",
    handle: createEndpoint,
    needs: "change",
    repeat: "/webhooks",
  },
  { method: "GET", path: "/webhooks/events", handle: showEventCatalog },
  { method: "GET", path: "/webhooks/:id", handle: showEndpoint },
  {
    method: "POST",
    path: "/webhooks/:id",
    action: "webhook_endpoint.updated",
    handle: updateEndpoint,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  { method: "GET", path: "/webhooks/:id/delete", handle: confirmDelete },
  {
    method: "POST",
    path: "/webhooks/:id/delete",
    action: "webhook_endpoint.deleted",
    handle: deleteEndpoint,
    needs: "change",
    repeat: "/webhooks",
  },
  {
    method: "POST",
    path: "/webhooks/:id/pause",
    action: "webhook_endpoint.paused",
    handle: pauseEndpoint,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  {
    method: "POST",
    path: "/webhooks/:id/resume",
    action: "webhook_endpoint.resumed",
    handle: resumeEndpoint,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  {
    method: "POST",
    path: "/webhooks/:id/reveal",
    action: "webhook_endpoint.secret_revealed",
    handle: revealSecret,
    needs: "secrets",
    repeat: "/webhooks/:id",
  },
  {
    method: "POST",
    path: "/webhooks/:id/rotate",
    action: "webhook_endpoint.secret_rotated",
    handle: rotateSecret,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  {
    method: "POST",
    path: "/webhooks/:id/test",
    action: "webhook_endpoint.test_sent",
    handle: sendTest,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  {
    method: "POST",
    path: "/webhooks/:id/recover",
    action: "webhook_endpoint.deliveries_recovered",
    handle: recoverDeliveries,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  {
    method: "POST",
    path: "/webhooks/:id/deliveries/:delivery/resend",
    action: "webhook_delivery.resent",
    handle: resendDelivery,
    needs: "change",
    repeat: "/webhooks/:id",
  },
  { method: "GET", path: "/audit", handle: showAudit },
  // With the `indexing` option; owners and admins only (403 to other roles).
  { method: "GET", path: "/indexing", handle: showIndexing },
  // Owners and admins only: the page answers 403 to other roles, and so does every POST.
  { method: "GET", path: "/candidates", handle: showCandidates },
  {
    method: "POST",
    path: "/candidates/export",
    action: "candidate.exported",
    handle: exportCandidate,
    needs: "change",
  },
  {
    method: "POST",
    path: "/candidates/erase/review",
    action: "candidate.erasure_reviewed",
    handle: reviewErasure,
    needs: "change",
  },
  {
    method: "POST",
    path: "/candidates/erase",
    action: "candidate.erased",
    handle: eraseCandidate,
    needs: "change",
    repeat: "/candidates",
  },
];

/** A route path with its parameters put in: `/webhooks/:id` → `/webhooks/wh_1`. */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

/** A route path as spans report it (`http.route`): `/keys/:id/revoke` → `/keys/{id}/revoke`. */
export function routeTemplate(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

/** The routes of a path and the parameters it gave, or an empty list. */
export function matchRoutes(path: string): { route: ConsoleRoute; params: Record<string, string> }[] {
  const segments = path.split("/").filter(Boolean);
  const found: { route: ConsoleRoute; params: Record<string, string> }[] = [];
  for (const route of CONSOLE_ROUTES) {
    const pattern = route.path.split("/").filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index] ?? "";
      if (part.startsWith(":")) {
        let value: string;
        try {
          value = decodeURIComponent(segment);
        } catch {
          return false;
        }
        params[part.slice(1)] = value;
        return value !== "";
      }
      return part === segment;
    });
    if (matches) found.push({ route, params });
  }
  return found;
}
