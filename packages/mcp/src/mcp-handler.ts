import type { ApiRequest, ApiResponse, HireportHandler, PublicApi } from "@hireport/core";
import { getHeader, HireportError } from "@hireport/core";
import { apiAccess, type ServedAnswer, type ServedOutcome } from "@hireport/core/extend";
import { createFetchHandler, type FetchContext } from "@hireport/core/http";
import type { ApiKeyWithCompany } from "@hireport/core/storage";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { version } from "../package.json";
import { isInitialize, routeOf } from "./messages";
import { type McpServerOptions, resolveMcpOptions } from "./options";
import { Sessions } from "./sessions";
import { registerTools, type ToolRequest } from "./tools";
import { bodyOf, jsonRpcError, toServed, webHeaders } from "./web-bridge";

/** The version the server reports to clients: this package's. */
export const SERVER_VERSION: string = version;

/** The MCP endpoint: a hireport handler the adapters mount (`@hireport/express`, `@hireport/fastify`, `@hireport/next`). */
export interface McpHandler extends HireportHandler {
  /** Answers one request of the MCP endpoint (POST, GET, DELETE). Never rejects. */
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** The same for Web runtimes (Next.js route handlers, Hono, Bun, Deno). */
  fetch(request: Request, context?: FetchContext): Promise<Response>;
  readonly settings: Readonly<{ maxBodyBytes: number; streamBody: false }>;
  /** Sessions open now in this process. */
  readonly sessions: number;
  /** Ends every open session. The API's own `close()` waits for requests under way. */
  close(): Promise<void>;
}

/**
 * The MCP server of a hireport API: its jobs, applications and events feed as tools for AI
 * assistants, over Streamable HTTP. Mount it like the API, at `/mcp`:
 * `app.use("/mcp", hireportExpress(createMcpServer(api)))`. Every request is authenticated by the
 * API's keys (`Authorization: Bearer …`) and is a request of the key's company: admitted, rate
 * limited and logged in the usage log as the API's own.
 * @throws HireportError `invalid` for a bad option, `server_error` for an `api` not made by `createPublicApi`
 */
export function createMcpServer(api: PublicApi, options: McpServerOptions = {}): McpHandler {
  const resolved = resolveMcpOptions(options, api.settings.maxBodyBytes);
  const access = apiAccess(api);
  const sessions = new Sessions(resolved.sessionIdleMs, resolved.maxSessions);
  const settings = Object.freeze({ maxBodyBytes: resolved.maxBodyBytes, streamBody: false as const });

  const requestOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }): ToolRequest => {
    const request = extra.authInfo?.extra?.hireport as ToolRequest | undefined;
    if (!request) throw new Error("hireport mcp: a tool ran without its request.");
    return request;
  };

  const newServer = (auth: ApiKeyWithCompany): McpServer => {
    const server = new McpServer(
      { name: resolved.name, version: SERVER_VERSION },
      {
        capabilities: { tools: {} },
        instructions: `The hiring data of ${auth.company.name}: jobs, applications and the events feed. Moves to ${[...resolved.confirmStages].join(", ") || "no stage"} need a person's confirmation.`,
      },
    );
    registerTools(server, access, auth.key.scopes, resolved, requestOf);
    return server;
  };

  async function answer(
    request: ApiRequest,
    auth: ApiKeyWithCompany,
    outcome: ServedOutcome,
    text: string | undefined,
    json: unknown,
  ): Promise<ServedAnswer> {
    if (request.bodyTooLarge) {
      throw new HireportError("payload_too_large", `The request body is larger than ${resolved.maxBodyBytes} bytes.`);
    }
    if (request.bodyUnreadable) throw new HireportError("bad_request", "The request body could not be read.");
    const method = request.method.toUpperCase();
    const now = Date.now();
    const sessionId = getHeader(request.headers, "mcp-session-id");
    let session = sessionId === undefined ? undefined : sessions.find(sessionId, auth.key.id, now);
    if (sessionId !== undefined && !session) {
      return jsonRpcError(
        404,
        -32001,
        "Session not found: it ended, or it is another key's. Open a new one (initialize).",
      );
    }
    if (!session) {
      if (method !== "POST" || !isInitialize(json)) {
        return jsonRpcError(
          400,
          -32000,
          "Bad Request: open a session with initialize, then send its Mcp-Session-Id header.",
        );
      }
      session = sessions.start(auth.key.id, newServer(auth), now);
      await session.server.connect(session.transport);
    }
    const url = new URL(request.path || "/", "http://mcp.invalid");
    const init: RequestInit = { method, headers: webHeaders(request.headers) };
    if (text !== undefined && method !== "GET" && method !== "HEAD") init.body = text;
    const toolRequest: ToolRequest = { auth, outcome };
    const response = await session.transport.handleRequest(new Request(url, init), {
      ...(json !== undefined ? { parsedBody: json } : {}),
      authInfo: {
        token: auth.key.id,
        clientId: auth.key.id,
        scopes: [...auth.key.scopes],
        extra: { hireport: toolRequest },
      },
    });
    const served = toServed(response);
    // The client's standing event stream (GET) lasts as long as its session: logged when it opens,
    // so that the API's close() does not wait for it.
    return method === "GET" ? { response: served.response } : served;
  }

  const handle = (request: ApiRequest): Promise<ApiResponse> => {
    const { text, json } = bodyOf(request);
    return access.serve(request, routeOf(request.method.toUpperCase(), json), (auth, outcome) =>
      answer(request, auth, outcome, text, json),
    );
  };
  const fetchHandler = createFetchHandler(handle, settings);

  return Object.freeze({
    handle,
    fetch: (request: Request, context?: FetchContext) => fetchHandler(request, context),
    settings,
    get sessions() {
      return sessions.size;
    },
    close: () => sessions.closeAll(),
  });
}
