/** What the endpoint reads of a JSON-RPC message before the transport does: its usage route, and whether it opens a session. */

type Message = { method?: unknown };

/** The usage log's route of a request: `mcp:initialize`, `mcp:tools/list`, `mcp:tools/call:get_job` (set by the tool). */
export function routeOf(method: string, message: unknown): string {
  if (method === "GET") return "mcp:stream";
  if (method === "DELETE") return "mcp:session/close";
  const first = (Array.isArray(message) ? message[0] : message) as Message | undefined;
  if (first && typeof first === "object" && typeof first.method === "string")
    return `mcp:${first.method}`.slice(0, 200);
  return "mcp:response";
}

export function isInitialize(message: unknown): boolean {
  return (
    typeof message === "object" &&
    message !== null &&
    !Array.isArray(message) &&
    (message as Message).method === "initialize"
  );
}
