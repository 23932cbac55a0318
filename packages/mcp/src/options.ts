import type { Logger } from "@hireport/core";
import { HireportError } from "@hireport/core";
import { APPLICATION_STAGES } from "@hireport/core/schemas";

/** An application stage, as the API names it. */
export type Stage = (typeof APPLICATION_STAGES)[number];

/** The stages a move to which a person confirms, unless `confirmStages` says otherwise. */
export const DEFAULT_CONFIRM_STAGES: readonly Stage[] = Object.freeze(["rejected", "offered", "offer_sent", "hired"]);

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /**
   * The server's name, as assistants show it.
   * @default "hireport"
   */
  name?: string;
  /**
   * Moves of an application to these stages ask the user to confirm through MCP elicitation, and
   * are refused when the client cannot ask or the user declines. An empty list confirms nothing.
   * @default ["rejected", "offered", "offer_sent", "hired"]
   */
  confirmStages?: readonly Stage[];
  /**
   * How long a confirmation waits for the user's answer (milliseconds); then the move is refused.
   * @default 600000 (10 minutes)
   */
  confirmationTimeoutMs?: number;
  /**
   * A session (opened by the client's `initialize`, bound to its key) closes after this long
   * without a request (milliseconds); the client then opens a new one.
   * @default 1800000 (30 minutes)
   */
  sessionIdleMs?: number;
  /**
   * Sessions kept open at once in this process; the one idle longest closes to make room.
   * @default 1000
   */
  maxSessions?: number;
  /**
   * Largest request body read (bytes); more is answered 413 `payload_too_large`.
   * @default the API's `limits.maxBodyBytes` (1 MiB unless set)
   */
  maxBodyBytes?: number;
  /**
   * Where failures of the server itself are logged.
   * @default console
   */
  logger?: Pick<Logger, "error" | "warn">;
}

export interface ResolvedMcpOptions {
  name: string;
  confirmStages: ReadonlySet<Stage>;
  confirmationTimeoutMs: number;
  sessionIdleMs: number;
  maxSessions: number;
  maxBodyBytes: number;
  logger: Pick<Logger, "error" | "warn">;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new HireportError("invalid", `createMcpServer: ${name} must be a positive whole number; got ${value}.`);
  }
  return value;
}

/** The options with their defaults. @throws HireportError `invalid` for a bad option */
export function resolveMcpOptions(options: McpServerOptions, apiMaxBodyBytes: number): ResolvedMcpOptions {
  const stages = options.confirmStages ?? DEFAULT_CONFIRM_STAGES;
  for (const stage of stages) {
    if (!(APPLICATION_STAGES as readonly string[]).includes(stage)) {
      throw new HireportError(
        "invalid",
        `createMcpServer: confirmStages holds "${stage}", which is not a stage: ${APPLICATION_STAGES.join(", ")}.`,
      );
    }
  }
  return {
    name: options.name ?? "hireport",
    confirmStages: new Set(stages),
    confirmationTimeoutMs: positive("confirmationTimeoutMs", options.confirmationTimeoutMs, 600_000),
    sessionIdleMs: positive("sessionIdleMs", options.sessionIdleMs, 1_800_000),
    maxSessions: positive("maxSessions", options.maxSessions, 1000),
    maxBodyBytes: positive("maxBodyBytes", options.maxBodyBytes, apiMaxBodyBytes),
    logger: options.logger ?? console,
  };
}
