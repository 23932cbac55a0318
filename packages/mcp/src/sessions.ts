/**
 * MCP sessions, kept in this process: each opened by a client's `initialize`, bound to the key that
 * opened it (another key's request for it is answered as for an unknown session), closed after
 * `sessionIdleMs` without a request, or when the client ends it (DELETE). Sessions carry the
 * confirmation of a stage move: the server's question goes out on the tool call's stream and the
 * user's answer comes back as a new request of the same session.
 */
import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

export interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  keyId: string;
  lastSeen: number;
}

export class Sessions {
  readonly #open = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #max: number;

  constructor(idleMs: number, max: number) {
    this.#idleMs = idleMs;
    this.#max = max;
  }

  get size(): number {
    return this.#open.size;
  }

  /** The session of this id opened by this key; undefined when unknown, idle too long, or another key's. */
  find(id: string, keyId: string, now: number): Session | undefined {
    this.#sweep(now);
    const session = this.#open.get(id);
    if (!session || session.keyId !== keyId) return undefined;
    session.lastSeen = now;
    return session;
  }

  /** A new session for `keyId`, kept once its `initialize` succeeds. */
  start(keyId: string, server: McpServer, now: number): Session {
    this.#sweep(now);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#makeRoom();
        this.#open.set(id, session);
      },
      onsessionclosed: (id) => {
        this.#open.delete(id);
      },
    });
    const session: Session = { server, transport, keyId, lastSeen: now };
    return session;
  }

  async closeAll(): Promise<void> {
    const all = [...this.#open.values()];
    this.#open.clear();
    await Promise.allSettled(all.map((session) => session.server.close()));
  }

  #sweep(now: number): void {
    for (const [id, session] of this.#open) {
      if (now - session.lastSeen > this.#idleMs) this.#drop(id, session);
    }
  }

  #makeRoom(): void {
    while (this.#open.size >= this.#max) {
      let oldest: [string, Session] | undefined;
      for (const entry of this.#open) if (!oldest || entry[1].lastSeen < oldest[1].lastSeen) oldest = entry;
      if (!oldest) return;
      this.#drop(oldest[0], oldest[1]);
    }
  }

  #drop(id: string, session: Session): void {
    this.#open.delete(id);
    void session.server.close().catch(() => undefined);
  }
}
