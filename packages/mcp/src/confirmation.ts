/**
 * "A person decides": a move to a stage of `confirmStages` made through an assistant asks the user
 * to confirm through MCP elicitation, and is refused, with a message that says why, when the
 * client cannot ask or the user does not confirm.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type ClientCapabilities,
  ElicitResultSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

/** The answer of the confirmation form. */
const answerSchema = z.object({ confirm: z.boolean(), confirmed_by: z.string().trim().min(1).max(200) });

/** What came of asking: confirmed by whom, or refused and why. */
export type Confirmation = { confirmed: true; by: string } | { confirmed: false; reason: string };

export interface ConfirmationRequest {
  applicationId: string;
  from: string;
  to: string;
  timeoutMs: number;
}

/** Whether the client said it can show a form: `elicitation: {}` (form by default) or `elicitation.form`. */
export function canConfirm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** Asks the user, on the stream of the tool call, whether the move may be made, and who confirms it. */
export async function confirmMove(
  capabilities: ClientCapabilities | undefined,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  request: ConfirmationRequest,
): Promise<Confirmation> {
  const { applicationId, from, to } = request;
  if (!canConfirm(capabilities)) {
    return {
      confirmed: false,
      reason:
        `Not moved: a move to "${to}" needs a person to confirm it, and this MCP client cannot ask (it does not ` +
        "support elicitation). Make this move in hireport itself, or use a client that supports MCP elicitation.",
    };
  }
  let result: z.infer<typeof ElicitResultSchema>;
  try {
    result = await extra.sendRequest(
      {
        method: "elicitation/create",
        params: {
          mode: "form",
          message:
            `The assistant asks to move application ${applicationId} from "${from}" to "${to}". ` +
            "A person decides this: confirm only if you want it done.",
          requestedSchema: {
            type: "object",
            properties: {
              confirm: { type: "boolean", title: "Confirm the move", description: `Move the application to "${to}".` },
              confirmed_by: {
                type: "string",
                title: "Your name",
                description: "Recorded in the audit log as who confirmed the move.",
                minLength: 1,
                maxLength: 200,
              },
            },
            required: ["confirm", "confirmed_by"],
          },
        },
      },
      ElicitResultSchema,
      { timeout: request.timeoutMs },
    );
  } catch (error) {
    return {
      confirmed: false,
      reason: `Not moved: the confirmation of the move to "${to}" did not come (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  if (result.action !== "accept") {
    return {
      confirmed: false,
      reason: `Not moved: the user ${result.action === "decline" ? "declined" : "cancelled"} the move to "${to}".`,
    };
  }
  const answer = answerSchema.safeParse(result.content ?? {});
  if (!answer.success) {
    return { confirmed: false, reason: `Not moved: the confirmation of the move to "${to}" named no person.` };
  }
  if (!answer.data.confirm) {
    return { confirmed: false, reason: `Not moved: the user did not confirm the move to "${to}".` };
  }
  return { confirmed: true, by: answer.data.confirmed_by };
}
