/**
 * `@hireport/core/node`: the Node-only pieces the Node adapters share (Express, Fastify, a bare
 * `node:http` server). Core's main entry stays free of Node APIs.
 */
import type { IncomingMessage } from "node:http";
import type { ApiRequest } from "../base/http-types";

export { nodeAbortSignal } from "./abort-signal";
export { type DiskFileStore, type DiskFileStoreOptions, diskFileStore } from "./disk-file-store";
export { NodeApiRequest, type NodeRequestParts, type ProtocolSource } from "./node-request";

/** The body fields of an `ApiRequest` that a Node adapter fills. */
export type NodeBody = Pick<ApiRequest, "rawBody" | "bodyTooLarge" | "bodyUnreadable">;

/**
 * Reads a request body up to `maxBytes`. Past the limit (or when Content-Length announces more) it
 * keeps reading without keeping anything, so that the connection stays usable, and reports
 * `bodyTooLarge`. A client that goes away mid-body gives `bodyUnreadable`. Never rejects.
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<NodeBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers["content-length"]) > maxBytes;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.once("end", () => resolve(tooLarge ? { bodyTooLarge: true } : { rawBody: Buffer.concat(chunks, size) }));
    req.once("error", () => resolve({ bodyUnreadable: true }));
    req.once("close", () => resolve({ bodyUnreadable: true }));
  });
}
