/**
 * `@hireport/mcp`: a Model Context Protocol server for the hireport public API, over Streamable
 * HTTP, mounted with the same adapters as the API. Tools for jobs, applications and the events
 * feed, listed by the key's scopes; moves to decisive stages confirmed by a person (elicitation).
 *
 * ```ts
 * const mcp = createMcpServer(api);
 * app.use("/mcp", hireportExpress(mcp));
 * ```
 */
export { type Confirmation, canConfirm } from "./confirmation";
export { createMcpServer, type McpHandler, SERVER_VERSION } from "./mcp-handler";
export { DEFAULT_CONFIRM_STAGES, type McpServerOptions, type Stage } from "./options";
export { TOOL_OPERATIONS, type ToolName, toolAllowed } from "./tools";
