/** `NodeApiRequest` of `@hireport/core/node`, the request the Express and Fastify adapters hand to a handler. */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { NodeApiRequest } from "../src/node";

const parts = (url: string) => ({ method: "GET", path: "/jobs", url, headers: { "x-a": "1" }, ip: "10.0.0.1" });

/** One real request to a real server: the handler gets the Node request and response. */
async function withExchange(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  client: (req: ReturnType<typeof httpRequest>) => void,
): Promise<void> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const req = httpRequest({ port, host: "127.0.0.1", path: "/", method: "POST" });
  req.on("error", () => {});
  client(req);
  await new Promise((resolve) => setTimeout(resolve, 100));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe("NodeApiRequest", () => {
  it("holds what the adapter read, and parses the query string", () => {
    const request = new NodeApiRequest(parts("/jobs?limit=5&tag=a&tag=b"), { protocol: "http" }, {} as ServerResponse);
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/jobs");
    expect(request.headers).toEqual({ "x-a": "1" });
    expect(request.ip).toBe("10.0.0.1");
    expect(request.query.get("limit")).toBe("5");
    expect(request.query.getAll("tag")).toEqual(["a", "b"]);
    expect([...new NodeApiRequest(parts("/jobs"), { protocol: "http" }, {} as ServerResponse).query]).toEqual([]);
  });

  it("reads the scheme from the framework's request when asked, https or else http", () => {
    const source = { protocol: "http" };
    const request = new NodeApiRequest(parts("/jobs"), source, {} as ServerResponse);
    expect(request.protocol).toBe("http");
    source.protocol = "https";
    expect(request.protocol).toBe("https");
    source.protocol = "ftp";
    expect(request.protocol).toBe("http");
  });

  it("gives every request the same shape: no getters of its own, the same own keys", () => {
    // An object literal with getters gets a hidden class per request; the class keeps one.
    const a = new NodeApiRequest(parts("/jobs?a=1"), { protocol: "http" }, {} as ServerResponse);
    const b = new NodeApiRequest(parts("/jobs"), { protocol: "https" }, {} as ServerResponse);
    expect(Object.getOwnPropertyDescriptor(a, "protocol")).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(a, "signal")).toBeUndefined();
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
  });

  it("makes its signal on first read only, and aborts it when the client goes away mid-request", async () => {
    let listenersBefore = -1;
    let listenersAfter = -1;
    let signal: AbortSignal | undefined;
    await withExchange(
      (_req, res) => {
        const request = new NodeApiRequest(parts("/jobs"), { protocol: "http" }, res);
        listenersBefore = res.listenerCount("close");
        signal = request.signal;
        expect(request.signal).toBe(signal);
        listenersAfter = res.listenerCount("close");
      },
      (req) => {
        req.write("partial");
        setTimeout(() => req.destroy(), 20);
      },
    );
    expect(listenersAfter).toBe(listenersBefore + 1);
    expect(signal?.aborted).toBe(true);
  });

  it("leaves the signal alone when the answer was written before the connection closed", async () => {
    let signal: AbortSignal | undefined;
    await withExchange(
      (_req, res) => {
        signal = new NodeApiRequest(parts("/jobs"), { protocol: "http" }, res).signal;
        res.end("done");
      },
      (req) => {
        req.on("response", (response) => response.resume());
        req.end();
      },
    );
    expect(signal?.aborted).toBe(false);
  });
});
