/**
 * The tools: one per operation of the API an assistant needs, each listed only when the key's
 * scopes allow its operation, each run through core's operations (`apiAccess(api).call`): the
 * route's permission and checks, the services, the serializer. Inputs are core's own schemas.
 */
import type { Actor } from "@hireport/core";
import { isHireportError } from "@hireport/core";
import type { ApiAccess, ServedOutcome } from "@hireport/core/extend";
import type { HandlerResult, OperationId } from "@hireport/core/http";
import {
  applicationCreateBodySchema,
  applicationListQuerySchema,
  applicationPatchBodySchema,
  eventListQuerySchema,
  hasScope,
  idParamSchema,
  jobCreateBodySchema,
  jobListQuerySchema,
  jobPatchBodySchema,
} from "@hireport/core/schemas";
import type { ApiKeyWithCompany } from "@hireport/core/storage";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { confirmMove } from "./confirmation";
import type { ResolvedMcpOptions } from "./options";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool call knows of its HTTP request: the admitted key, and the usage entry's outcome. */
export interface ToolRequest {
  auth: ApiKeyWithCompany;
  outcome: ServedOutcome;
}

/** The names of the tools, and the operation each runs. */
export const TOOL_OPERATIONS = {
  list_jobs: "listJobs",
  get_job: "getJob",
  create_job: "createJob",
  update_job: "updateJob",
  close_job: "closeJob",
  list_applications: "listApplications",
  get_application: "getApplication",
  create_application: "createApplication",
  update_application: "updateApplication",
  list_events: "listEvents",
} as const satisfies Record<string, OperationId>;

export type ToolName = keyof typeof TOOL_OPERATIONS;

/** Whether a key's scopes allow a tool's operation (a write scope includes its read). */
export function toolAllowed(name: ToolName, scopes: ApiKeyWithCompany["key"]["scopes"]): boolean {
  switch (TOOL_OPERATIONS[name]) {
    case "listJobs":
    case "getJob":
      return hasScope(scopes, "jobs:read");
    case "createJob":
    case "updateJob":
    case "closeJob":
      return hasScope(scopes, "jobs:write");
    case "listApplications":
    case "getApplication":
      return hasScope(scopes, "applications:read");
    case "createApplication":
    case "updateApplication":
      return hasScope(scopes, "applications:write");
    case "listEvents":
      return hasScope(scopes, "jobs:read") || hasScope(scopes, "applications:read");
  }
}

const idOnly = z.strictObject({ id: idParamSchema });

/**
 * A list query's schema as a tool's input: the query's own, whose `limit` also takes a whole number
 * (assistants send `10` as often as `"10"`); the API's query parser checks its range either way.
 */
function listInput<S extends z.ZodObject<{ limit: z.ZodType }>>(query: S) {
  return query.extend({
    limit: z.union([z.int(), query.shape.limit]).optional().meta({ description: "Page size, 1 to 100." }),
  });
}

/** The query values as the API's query parser takes them: strings, lists joined by commas. */
function toQuery(values: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    query[name] = Array.isArray(value) ? value.join(",") : value instanceof Date ? value.toISOString() : String(value);
  }
  return query;
}

function answer(result: HandlerResult): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(result.body) }] };
}

function refusal(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: { code, message } }) }] };
}

/** Registers the tools the key's scopes allow on `server`. */
export function registerTools(
  server: McpServer,
  access: ApiAccess,
  scopes: ApiKeyWithCompany["key"]["scopes"],
  options: ResolvedMcpOptions,
  requestOf: (extra: { authInfo?: { extra?: Record<string, unknown> } }) => ToolRequest,
): void {
  /** Runs a tool: its operation's failures become error results (and the usage entry's status). */
  const run =
    <A>(name: ToolName, body: (args: A, request: ToolRequest, extra: Extra) => Promise<CallToolResult>) =>
    async (args: A, extra: Extra): Promise<CallToolResult> => {
      const request = requestOf(extra);
      request.outcome.route = `mcp:tools/call:${name}`;
      try {
        const result = await body(args, request, extra);
        if (result.isError && request.outcome.status === undefined) request.outcome.status = 409;
        return result;
      } catch (error) {
        if (!isHireportError(error)) {
          options.logger.error("hireport mcp: a tool failed", {
            tool: name,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          });
          request.outcome.status = 500;
          return refusal("server_error", "Something went wrong on our side; retry.");
        }
        request.outcome.status = error.status;
        return { isError: true, content: [{ type: "text", text: JSON.stringify(error.toBody()) }] };
      }
    };
  const call = (operation: OperationId, request: ToolRequest, parts: Omit<Parameters<ApiAccess["call"]>[1], "auth">) =>
    access.call(operation, { auth: request.auth, ...parts });
  const allowed = (name: ToolName) => toolAllowed(name, scopes);
  const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

  if (allowed("list_jobs")) {
    server.registerTool(
      "list_jobs",
      {
        title: "Find jobs",
        description:
          "Lists the company's jobs, newest first, filtered by status (open, closed, draft, all). When has_more is true, pass next_cursor as cursor for the next page.",
        inputSchema: listInput(jobListQuerySchema),
        annotations: readOnly,
      },
      run("list_jobs", async (args: Record<string, unknown>, request) =>
        answer(await call("listJobs", request, { query: toQuery(args) })),
      ),
    );
  }
  if (allowed("get_job")) {
    server.registerTool(
      "get_job",
      { title: "Read a job", description: "One job by its id.", inputSchema: idOnly, annotations: readOnly },
      run("get_job", async (args: z.infer<typeof idOnly>, request) =>
        answer(await call("getJob", request, { params: { id: args.id } })),
      ),
    );
  }
  if (allowed("create_job")) {
    server.registerTool(
      "create_job",
      {
        title: "Create a job",
        description: "Creates a job; only title is required, and it is a draft unless status says otherwise.",
        inputSchema: jobCreateBodySchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      run("create_job", async (args: unknown, request) => answer(await call("createJob", request, { body: args }))),
    );
  }
  const jobChange = z.strictObject({ id: idParamSchema, change: jobPatchBodySchema });
  if (allowed("update_job")) {
    server.registerTool(
      "update_job",
      {
        title: "Change a job",
        description: "Changes the fields given in change; a status reopens a closed job.",
        inputSchema: jobChange,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      run("update_job", async (args: z.infer<typeof jobChange>, request) =>
        answer(await call("updateJob", request, { params: { id: args.id }, body: args.change })),
      ),
    );
  }
  if (allowed("close_job")) {
    server.registerTool(
      "close_job",
      {
        title: "Close a job",
        description: "Closes a job: it takes no more applications. A closed job is returned unchanged.",
        inputSchema: idOnly,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      run("close_job", async (args: z.infer<typeof idOnly>, request) =>
        answer(await call("closeJob", request, { params: { id: args.id } })),
      ),
    );
  }
  if (allowed("list_applications")) {
    server.registerTool(
      "list_applications",
      {
        title: "Find applications",
        description:
          "Lists the company's applications, newest first, by job and stage. Erased candidates read as erased. When has_more is true, pass next_cursor as cursor.",
        inputSchema: listInput(applicationListQuerySchema),
        annotations: readOnly,
      },
      run("list_applications", async (args: Record<string, unknown>, request) =>
        answer(await call("listApplications", request, { query: toQuery(args) })),
      ),
    );
  }
  if (allowed("get_application")) {
    server.registerTool(
      "get_application",
      {
        title: "Read an application",
        description: "One application by its id, with its candidate (read as erased after an erasure).",
        inputSchema: idOnly,
        annotations: readOnly,
      },
      run("get_application", async (args: z.infer<typeof idOnly>, request) =>
        answer(await call("getApplication", request, { params: { id: args.id } })),
      ),
    );
  }
  if (allowed("create_application")) {
    server.registerTool(
      "create_application",
      {
        title: "Add a candidate",
        description: "Adds a candidate to a job of the company: a new application in stage new.",
        inputSchema: applicationCreateBodySchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      run("create_application", async (args: unknown, request) =>
        answer(await call("createApplication", request, { body: args })),
      ),
    );
  }
  const applicationChange = z.strictObject({ id: idParamSchema, change: applicationPatchBodySchema });
  if (allowed("update_application")) {
    const confirmed = [...options.confirmStages].join(", ");
    server.registerTool(
      "update_application",
      {
        title: "Move, note or tag an application",
        description:
          "Moves the application to a stage, adds a recruiter note, sets its tags or star, as change says." +
          (confirmed
            ? ` A move to ${confirmed} is a person's decision: the user is asked to confirm it, and it is refused when the client cannot ask or the user declines.`
            : ""),
        inputSchema: applicationChange,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      run("update_application", async (args: z.infer<typeof applicationChange>, request, extra) => {
        const params = { id: args.id };
        const stage = args.change.stage;
        if (stage === undefined || !options.confirmStages.has(stage)) {
          return answer(await call("updateApplication", request, { params, body: args.change }));
        }
        const current = (await call("getApplication", request, { params })).body as { data: { stage: string } };
        if (current.data.stage === stage) {
          return answer(await call("updateApplication", request, { params, body: args.change }));
        }
        const confirmation = await confirmMove(server.server.getClientCapabilities(), extra, {
          applicationId: args.id,
          from: current.data.stage,
          to: stage,
          timeoutMs: options.confirmationTimeoutMs,
        });
        if (!confirmation.confirmed) {
          request.outcome.status = 409;
          return refusal("not_confirmed", confirmation.reason);
        }
        const { key } = request.auth;
        // Who confirmed is in the actor's name (as in the stage history): details hold no names.
        const actor: Actor = {
          type: "api_key",
          id: key.id,
          name: `${key.name} (assistant, confirmed by ${confirmation.by})`,
        };
        const stageAudit = { actor, details: { via: "mcp", key_id: key.id, confirmed: true } };
        return answer(await call("updateApplication", request, { params, body: args.change, actor, stageAudit }));
      }),
    );
  }
  if (allowed("list_events")) {
    server.registerTool(
      "list_events",
      {
        title: "Read the events feed",
        description:
          "The events of the company, oldest first, of the types the key may read (job.* with jobs:read, application.* with applications:read). Keep next_cursor and ask again with it later to get each event once.",
        inputSchema: listInput(eventListQuerySchema),
        annotations: readOnly,
      },
      run("list_events", async (args: Record<string, unknown>, request) =>
        answer(await call("listEvents", request, { query: toQuery(args) })),
      ),
    );
  }
}
