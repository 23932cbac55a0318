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
import { connectOrSkip, dropTables, randomPrefix } from "../../../kysely/test/helpers/databases";
import { serveNext } from "../../../next/test/support/next-server";
import { createMcpServer, type McpHandler, type McpServerOptions } from "../../src/index";

export type Framework = "express" | "fastify" | "next";
export type Dialect = "sqlite" | "postgres";

/** Each adapter on SQLite, and Express on Postgres too. */
export const SETUPS: readonly { framework: Framework; dialect: Dialect }[] = [
  { framework: "express", dialect: "sqlite" },
  { framework: "fastify", dialect: "sqlite" },
  { framework: "next", dialect: "sqlite" },
  { framework: "express", dialect: "postgres" },
];

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

/** A database of the dialect with hireport's tables under a prefix of their own; null: Postgres is not reachable (skipped). */
async function openDatabase(dialect: Dialect) {
  const tablePrefix = randomPrefix();
  // biome-ignore lint/suspicious/noExplicitAny: the test database is untyped; the stores bring their own types.
  let db: Kysely<any> | null;
  if (dialect === "sqlite") {
    db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
  } else {
    db = await connectOrSkip("postgres", { sqliteFile: "", poolSize: 5, applicationName: "hireport-mcp-test" });
    if (!db) return null;
  }
  const migration = await migrateToLatest(db, { tablePrefix });
  if (migration.error) throw migration.error;
  const opened = db;
  return {
    db: opened,
    tablePrefix,
    async close() {
      if (dialect === "postgres") await dropTables(opened, tablePrefix);
      await opened.destroy();
    },
  };
}

/** Whether the dialect's test database answers (SQLite always does); an unreachable one is skipped, never in CI. */
export async function reachable(dialect: Dialect): Promise<boolean> {
  if (dialect === "sqlite") return true;
  const db = await connectOrSkip("postgres", { sqliteFile: "", poolSize: 1, applicationName: "hireport-mcp-test" });
  await db?.destroy();
  return db !== null;
}

/** The endpoint mounted with `framework` over `dialect`. */
export async function mount(
  framework: Framework,
  options: { dialect?: Dialect; api?: Partial<CreatePublicApiOptions>; mcp?: McpServerOptions } = {},
): Promise<Mounted> {
  const database = await openDatabase(options.dialect ?? "sqlite");
  if (!database) throw new Error(`${options.dialect} is not reachable`);
  const { db, tablePrefix } = database;
  const api = createPublicApi({
    storage: kyselyStorage({ db, tablePrefix }),
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
      await database.close();
    },
  };
}
