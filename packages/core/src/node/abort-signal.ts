import type { ServerResponse } from "node:http";

/**
 * An AbortSignal that fires when the client closes the connection before the answer is written;
 * already aborted when it did so before the signal was made (adapters make it on first read).
 */
export function nodeAbortSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed) {
    if (!res.writableFinished) controller.abort();
    return controller.signal;
  }
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
