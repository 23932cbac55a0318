/** A TCP proxy to a Redis server that a test can cut (connections dropped, new ones refused) and restore. */
import { connect, createServer, type Server, type Socket } from "node:net";
import { freePort } from "./redis-servers";

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly target: number,
  ) {}

  static async start(target: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort(), target);
    await proxy.restore();
    return proxy;
  }

  /** Accepts connections again. */
  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target, "127.0.0.1");
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("error", () => undefined);
        socket.on("close", () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
  }

  /** Drops every connection and refuses new ones, like a network partition. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
