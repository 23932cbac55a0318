/**
 * A small local webhook receiver, as a host's customer would run one: it checks every signature
 * with `@hireport/webhooks/verify` and prints each event.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseEvent, verifySignature } from "@hireport/webhooks/verify";

export interface Receiver {
  url: string;
  /** The signing secret to check against; changed when the demo rotates it. */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

function readBody(request: import("node:http").IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.once("end", () => resolve(Buffer.concat(chunks)));
    request.once("error", reject);
  });
}

export async function startReceiver(log: (line: string) => void): Promise<Receiver> {
  let secret = "";
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    try {
      await verifySignature({ payload: body, header: request.headers["service-signature"] as string, secret });
      const event = parseEvent(body.toString("utf8"));
      const data = event.data as { id?: string; title?: string; stage?: string; candidate?: { name?: string } };
      const what = data.title ?? [data.candidate?.name, data.stage].filter(Boolean).join(", ");
      log(`webhook  ${event.type.padEnd(20)} ${event.id}  ${data.id ?? ""} ${what}  (signature ok)`);
      response.writeHead(204).end();
    } catch (error) {
      log(`webhook  refused: ${error instanceof Error ? error.message : String(error)}`);
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    setSecret(value) {
      secret = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
