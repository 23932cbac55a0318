/**
 * The endpoint's own rules around MCP: sessions bound to the key that opened them, a request with
 * no session, the body limit, a confirmation that never comes, and the options it refuses.
 */
import { createPublicApi } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../src/index";
import { COMPANY, type Mounted, mount } from "./helpers/mount";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("@hireport/mcp sessions and limits", () => {
  let server: Mounted;
  let keyA: string;
  let keyB: string;
  beforeAll(async () => {
    server = await mount("express", { mcp: { confirmationTimeoutMs: 300, maxBodyBytes: 2048 } });
    keyA = await server.key(["applications:write"], "key A");
    keyB = await server.key(["applications:write"], "key B");
  });
  afterAll(() => server.close());

  const post = (key: string, body: unknown, session?: string) =>
    fetch(server.url, {
      method: "POST",
      headers: { ...HEADERS, authorization: `Bearer ${key}`, ...(session ? { "mcp-session-id": session } : {}) },
      body: JSON.stringify(body),
    });

  it("binds a session to its key: another key's request for it is answered as for an unknown session", async () => {
    const opened = await post(keyA, initialize);
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const mine = await post(keyA, list, session);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain("update_application");
    const theirs = await post(keyB, list, session);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toMatchObject({ error: { code: -32001 } });
  });

  it("answers 400 to a request with no session that is not initialize", async () => {
    const response = await post(keyA, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/initialize/);
  });

  it("answers 413 payload_too_large past maxBodyBytes", async () => {
    const response = await post(keyA, { ...initialize, padding: "x".repeat(4096) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
  });

  it("refuses a move whose confirmation does not come in time; a client with elicitation: {} is asked", async () => {
    const job = await server.api.jobs.create(COMPANY.id, { title: "Timeout job", status: "active" });
    const application = await server.api.applications.create(COMPANY.id, {
      job_id: job.id,
      candidate: { name: "Tim Out", email: "tim@example.com" },
    });
    const client = new Client({ name: "slow", version: "1" }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { action: "accept", content: { confirm: true, confirmed_by: "Too Late" } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${keyA}` } },
      }),
    );
    try {
      const result = await client.callTool({
        name: "update_application",
        arguments: { id: application.id, change: { stage: "hired" } },
      });
      expect(asked).toBe(1);
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/did not come/);
      expect((await server.api.applications.get(COMPANY.id, application.id)).stage).toBe("new");
    } finally {
      await client.close();
    }
  });
});

describe("createMcpServer options", () => {
  const api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "http://localhost",
    fileTokenSecret: "0123456789abcdef0123456789abcdef",
  });
  afterAll(() => api.close());

  it("refuses a stage that is not one, a bad number, and an object createPublicApi did not make", () => {
    expect(() => createMcpServer(api, { confirmStages: ["fired" as "hired"] })).toThrow(/not a stage/);
    expect(() => createMcpServer(api, { sessionIdleMs: 0 })).toThrow(/sessionIdleMs must be a positive whole number/);
    expect(() => createMcpServer({ ...api })).toThrow(/createPublicApi/);
  });

  it("with confirmStages: [] moves to hired without asking, and says so nowhere", async () => {
    const server = await mount("next", { mcp: { confirmStages: [] } });
    try {
      const key = await server.key(["applications:write"]);
      const job = await server.api.jobs.create(COMPANY.id, { title: "No rule", status: "active" });
      const application = await server.api.applications.create(COMPANY.id, {
        job_id: job.id,
        candidate: { name: "Nora Rule", email: "nora@example.com" },
      });
      const client = new Client({ name: "plain", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      const tools = await client.listTools();
      const update = tools.tools.find((tool) => tool.name === "update_application");
      expect(update?.description).not.toMatch(/confirm/);
      const result = await client.callTool({
        name: "update_application",
        arguments: { id: application.id, change: { stage: "hired" } },
      });
      expect(result.isError).toBeFalsy();
      expect((await server.api.applications.get(COMPANY.id, application.id)).stage).toBe("hired");
      await client.close();
    } finally {
      await server.close();
    }
  });
});
