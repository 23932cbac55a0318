import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Server, Socket } from "node:net";
import type { TestCertificate } from "./certificate";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The raw body bytes. */
  body: Buffer;
  receivedAt: number;
}

export type ReceiverHandler = (request: ReceivedRequest, response: ServerResponse) => unknown;

export interface Receiver {
  /** `https://127.0.0.1:PORT` or `http://127.0.0.1:PORT`. */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests whose answer has not been sent yet. */
  readonly open: number;
  /** The most requests open at once so far, overall and per path. */
  readonly maxOpen: number;
  maxOpenByPath: Map<string, number>;
  /** TCP connections accepted so far. */
  readonly connections: number;
  setHandler(handler: ReceiverHandler): void;
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP(S) receiver on a free local port. The default handler answers 200 `ok`. */
export async function startReceiver(options: { tls?: TestCertificate; host?: string } = {}): Promise<Receiver> {
  let handler: ReceiverHandler = (_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  };
  const requests: ReceivedRequest[] = [];
  const openByPath = new Map<string, number>();
  const maxOpenByPath = new Map<string, number>();
  const sockets = new Set<Socket>();
  let open = 0;
  let maxOpen = 0;
  let connections = 0;
  const waiters: Array<() => void> = [];

  const listener = (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const path = incoming.url ?? "/";
      const request: ReceivedRequest = {
        method: incoming.method ?? "",
        path,
        headers: incoming.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      requests.push(request);
      open++;
      maxOpen = Math.max(maxOpen, open);
      openByPath.set(path, (openByPath.get(path) ?? 0) + 1);
      maxOpenByPath.set(path, Math.max(maxOpenByPath.get(path) ?? 0, openByPath.get(path) ?? 0));
      let closed = false;
      const done = () => {
        if (closed) return;
        closed = true;
        open--;
        openByPath.set(path, (openByPath.get(path) ?? 1) - 1);
      };
      response.on("close", done);
      response.on("finish", done);
      for (const waiter of waiters.splice(0)) waiter();
      Promise.resolve(handler(request, response)).catch(() => response.destroy());
    });
  };

  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
    : createHttpServer(listener);
  server.on(options.tls ? "secureConnection" : "connection", () => {
    connections++;
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const hostPart = host.includes(":") ? `[${host}]` : host;

  return {
    origin: `${options.tls ? "https" : "http"}://${hostPart}:${port}`,
    port,
    requests,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    maxOpenByPath,
    get connections() {
      return connections;
    },
    setHandler(next) {
      handler = next;
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} requests, got ${requests.length}`)),
          timeoutMs,
        );
        const check = () => {
          if (requests.length >= count) {
            clearTimeout(timer);
            resolve();
          } else {
            waiters.push(check);
          }
        };
        check();
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A local port nothing listens on (opened, then closed). */
export async function closedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
