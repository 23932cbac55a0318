/**
 * The MCP endpoint mounted beside the API with each adapter, over a real storage (SQLite through
 * Kysely), on a real port: what the tests connect the SDK's client to.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CreatePublicApiOptions, createPublicApi, type PublicApi, type Scope } from "@hireport/core";
import { hireportExpress } from "@hireport/express";
import { hireportFastify } from "@hireport/fastify";
import { kyselyStorage, migrateToLatest } from "@hireport/kysely";
import { toNextHandlers } from "@hireport/next";
import Database from "better-sqlite3";
import express from "express";
import Fastify from "fastify";
import { Kysely, SqliteDialect } from "kysely";
import { serveNext } from "../../../next/test/support/next-server";
import { createMcpServer, type McpHandler, type McpServerOptions } from "../../src/index";

export type Framework = "express" | "fastify" | "next";
export const FRAMEWORKS: readonly Framework[] = ["express", "fastify", "next"];

export const COMPANY = { id: "cmp_mcp", name: "Acme" };

export interface Mounted {
  api: PublicApi;
  mcp: McpHandler;
  url: string;
  key(scopes: Scope[], name?: string): Promise<string>;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

export async function mount(
  framework: Framework,
  options: { api?: Partial<CreatePublicApiOptions>; mcp?: McpServerOptions } = {},
): Promise<Mounted> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
  const migration = await migrateToLatest(db);
  if (migration.error) throw migration.error;
  const api = createPublicApi({
    storage: kyselyStorage({ db }),
    publicBaseUrl: "http://localhost",
    fileTokenSecret: "0123456789abcdef0123456789abcdef",
    usageLog: "durable",
    ...options.api,
  });
  await api.companies.upsert(COMPANY);
  const mcp = createMcpServer(api, options.mcp);
  let stop: () => Promise<void>;
  let port: number;
  if (framework === "express") {
    const app = express();
    app.use("/mcp", hireportExpress(mcp));
    const server = createServer(app);
    port = await listen(server);
    stop = () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
  } else if (framework === "fastify") {
    const app = Fastify({ forceCloseConnections: true });
    await app.register(hireportFastify, { api: mcp, prefix: "/mcp" });
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as AddressInfo).port;
    stop = async () => {
      await app.close();
    };
  } else {
    const handlers = toNextHandlers(mcp);
    const server = createServer((req, res) => {
      void serveNext(req, res, (path, method) =>
        path === "/mcp" ? (handlers as unknown as Record<string, (r: Request) => Promise<Response>>)[method] : null,
      );
    });
    port = await listen(server);
    stop = () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
  }
  return {
    api,
    mcp,
    url: `http://127.0.0.1:${port}/mcp`,
    key: async (scopes, name = "assistant key") => (await api.keys.create({ companyId: COMPANY.id, name, scopes })).key,
    async close() {
      await mcp.close();
      await stop();
      await api.close();
      await db.destroy();
    },
  };
}
