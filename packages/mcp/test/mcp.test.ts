import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPANY, type Mounted, mount, reachable, SETUPS } from "./helpers/mount";

type Answer = (request: { message: string }) => ElicitResult;

async function connect(url: string, key: string | undefined, answer?: Answer): Promise<Client> {
  const client = new Client(
    { name: "hireport-test", version: "1.0.0" },
    answer ? { capabilities: { elicitation: { form: {} } } } : { capabilities: {} },
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params));
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The JSON a tool answered. */
function json(
  result: unknown,
): { data?: unknown; error?: { code: string; message: string } } & Record<string, unknown> {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return JSON.parse(content[0]?.text ?? "null");
}

const ALL = ["jobs:write", "applications:write"] as const;

for (const { framework, dialect } of SETUPS) {
  describe.runIf(await reachable(dialect))(`@hireport/mcp on ${framework} (${dialect})`, () => {
    let server: Mounted;
    let key: string;
    const clients: Client[] = [];
    const open = async (k: string | undefined, answer?: Answer) => {
      const client = await connect(server.url, k, answer);
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      server = await mount(framework, { dialect });
      key = await server.key([...ALL]);
    });
    afterAll(async () => {
      await Promise.allSettled(clients.map((client) => client.close()));
      await server.close();
    });

    it("answers 401 without a key and with a bad key", async () => {
      for (const authorization of [undefined, "Bearer svc_live_nope"]) {
        const response = await fetch(server.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(authorization ? { authorization } : {}),
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
        });
        expect(response.status).toBe(401);
        const body = (await response.json()) as { error: { code: string } };
        expect(body.error.code).toBe(authorization ? "invalid_key" : "missing_key");
      }
      await expect(connect(server.url, undefined)).rejects.toThrow();
    });

    it("lists the tools the key's scopes allow", async () => {
      const names = async (scopes: ("jobs:read" | "jobs:write" | "applications:read" | "applications:write")[]) => {
        const client = await open(await server.key(scopes, `key ${scopes.join(" ")}`));
        return (await client.listTools()).tools.map((tool) => tool.name).sort();
      };
      expect(await names(["jobs:read"])).toEqual(["get_job", "list_events", "list_jobs"]);
      expect(await names(["applications:read"])).toEqual(["get_application", "list_applications", "list_events"]);
      expect(await names([...ALL])).toEqual([
        "close_job",
        "create_application",
        "create_job",
        "get_application",
        "get_job",
        "list_applications",
        "list_events",
        "list_jobs",
        "update_application",
        "update_job",
      ]);
    });

    it("calls every tool through the API's operations", async () => {
      const client = await open(key);
      const created = json(
        await client.callTool({ name: "create_job", arguments: { title: "Engineer", status: "active" } }),
      );
      const job = created.data as { id: string; title: string; status: string };
      expect(job).toMatchObject({ title: "Engineer", status: "active" });
      expect(json(await client.callTool({ name: "get_job", arguments: { id: job.id } })).data).toMatchObject({
        id: job.id,
      });
      const changed = json(
        await client.callTool({ name: "update_job", arguments: { id: job.id, change: { title: "Staff Engineer" } } }),
      );
      expect(changed.data).toMatchObject({ title: "Staff Engineer" });
      const listed = json(await client.callTool({ name: "list_jobs", arguments: { status: "open", limit: 50 } }));
      expect((listed.data as { id: string }[]).map((row) => row.id)).toContain(job.id);
      const application = json(
        await client.callTool({
          name: "create_application",
          arguments: { job_id: job.id, candidate: { name: "Ada Lovelace", email: "ada@example.com" } },
        }),
      ).data as { id: string; stage: string };
      expect(application.stage).toBe("new");
      const noted = json(
        await client.callTool({
          name: "update_application",
          arguments: { id: application.id, change: { stage: "reviewed", note: "Strong CV", tags: ["backend"] } },
        }),
      ).data as { stage: string; tags: string[] };
      expect(noted).toMatchObject({ stage: "reviewed", tags: ["backend"] });
      expect((await server.api.applications.notes(COMPANY.id, application.id)).map((note) => note.body)).toEqual([
        "Strong CV",
      ]);
      expect(
        json(await client.callTool({ name: "get_application", arguments: { id: application.id } })).data,
      ).toMatchObject({
        id: application.id,
        candidate: { name: "Ada Lovelace" },
      });
      const applications = json(await client.callTool({ name: "list_applications", arguments: { job_id: job.id } }));
      expect((applications.data as unknown[]).length).toBe(1);
      const events = json(await client.callTool({ name: "list_events", arguments: {} }));
      expect((events.data as { type: string }[]).map((event) => event.type)).toEqual(
        expect.arrayContaining(["job.created", "job.updated", "application.created", "application.updated"]),
      );
      expect(json(await client.callTool({ name: "close_job", arguments: { id: job.id } })).data).toMatchObject({
        status: "closed",
      });
      const tooMany = await client.callTool({ name: "list_jobs", arguments: { limit: 1000 } });
      expect(json(tooMany).error).toMatchObject({ code: "bad_request" });
      const missing = await client.callTool({ name: "get_job", arguments: { id: "job_missing" } });
      expect(missing.isError).toBe(true);
      expect(json(missing).error?.code).toBe("not_found");
    });

    it("answers with what the key's scopes read: a jobs:read key's events feed has no application events", async () => {
      const client = await open(await server.key(["jobs:read"], "jobs reader"));
      const job = await server.api.jobs.create(COMPANY.id, { title: "Feed job", status: "active" });
      await server.api.applications.create(COMPANY.id, {
        job_id: job.id,
        candidate: { name: "Fay Feed", email: "fay@example.com" },
      });
      const events = json(await client.callTool({ name: "list_events", arguments: { limit: "100" } }));
      const types = (events.data as { type: string }[]).map((event) => event.type);
      expect(types).toContain("job.created");
      expect(types.filter((type) => type.startsWith("application."))).toEqual([]);
      expect(JSON.stringify(events)).not.toContain("fay@example.com");
      const refused = await client.callTool({ name: "list_events", arguments: { type: "application.created" } });
      expect(refused.isError).toBe(true);
      expect(json(refused).error?.code).toBe("missing_scope");
    });

    it("writes a usage entry per request, naming the tool and its status", async () => {
      const usageKey = await server.key(["jobs:read"], "usage key");
      const client = await open(usageKey);
      await client.callTool({ name: "list_jobs", arguments: {} });
      await client.callTool({ name: "get_job", arguments: { id: "job_missing" } });
      const page = await server.api.usage.list(COMPANY.id, { limit: 100 });
      const mine = page.data.filter((row) => row.keyId !== null && row.route.startsWith("mcp:"));
      const routes = mine.map((row) => `${row.route} ${row.status}`);
      expect(routes).toEqual(
        expect.arrayContaining(["mcp:initialize 200", "mcp:tools/call:list_jobs 200", "mcp:tools/call:get_job 404"]),
      );
    });

    describe("a person decides", () => {
      let applicationId: string;
      beforeAll(async () => {
        const job = await server.api.jobs.create(COMPANY.id, { title: "Designer", status: "active" });
        const application = await server.api.applications.create(COMPANY.id, {
          job_id: job.id,
          candidate: { name: "Grace Hopper", email: "grace@example.com" },
        });
        applicationId = application.id;
      });

      it("refuses a move to hired when the client cannot ask", async () => {
        const client = await open(key);
        const result = await client.callTool({
          name: "update_application",
          arguments: { id: applicationId, change: { stage: "hired" } },
        });
        expect(result.isError).toBe(true);
        expect(json(result).error?.message).toMatch(/needs a person to confirm it, and this MCP client cannot ask/);
        expect((await server.api.applications.get(COMPANY.id, applicationId)).stage).toBe("new");
      });

      it("refuses the move when the user declines", async () => {
        const asked: string[] = [];
        const client = await open(key, (request) => {
          asked.push(request.message);
          return { action: "decline" };
        });
        const result = await client.callTool({
          name: "update_application",
          arguments: { id: applicationId, change: { stage: "rejected" } },
        });
        expect(asked).toHaveLength(1);
        expect(asked[0]).toContain('to "rejected"');
        expect(result.isError).toBe(true);
        expect(json(result).error).toMatchObject({
          code: "not_confirmed",
          message: 'Not moved: the user declined the move to "rejected".',
        });
        expect((await server.api.applications.get(COMPANY.id, applicationId)).stage).toBe("new");
      });

      it("moves when the user confirms, and the audit names the key and who confirmed", async () => {
        const client = await open(key, () => ({
          action: "accept",
          content: { confirm: true, confirmed_by: "Rita Recruiter" },
        }));
        const result = await client.callTool({
          name: "update_application",
          arguments: { id: applicationId, change: { stage: "offered" } },
        });
        expect(result.isError).toBeFalsy();
        expect(json(result).data).toMatchObject({ id: applicationId, stage: "offered" });
        const history = await server.api.applications.history(COMPANY.id, applicationId);
        expect(history.at(-1)).toMatchObject({
          toStage: "offered",
          actor: { type: "api_key", name: "assistant key (assistant, confirmed by Rita Recruiter)" },
        });
        const audit = await server.api.audit.list(COMPANY.id);
        const entry = audit.data.find((row) => row.action === "application.stage_changed");
        expect(entry).toMatchObject({
          actor: { type: "api_key", name: "assistant key (assistant, confirmed by Rita Recruiter)" },
          target: { type: "application", id: applicationId },
          details: { via: "mcp", confirmed: true, from_stage: "new", to_stage: "offered" },
        });
        expect(entry?.details.key_id).toBe(entry?.actor.id);
      });
    });

    it("reads an erased application as erased", async () => {
      const job = await server.api.jobs.create(COMPANY.id, { title: "Analyst", status: "active" });
      const application = await server.api.applications.create(COMPANY.id, {
        job_id: job.id,
        candidate: { name: "Erin Erased", email: "erin@example.com" },
      });
      await server.api.candidates.erase(COMPANY.id, { applicationId: application.id }, { actor: "privacy officer" });
      const client = await open(key);
      const text = JSON.stringify(
        json(await client.callTool({ name: "get_application", arguments: { id: application.id } })),
      );
      expect(text).not.toContain("Erin");
      expect(text).not.toContain("erin@example.com");
      expect(text).toContain("erased");
    });
  });
}

describe("@hireport/mcp rate limits", () => {
  let server: Mounted;
  afterAll(() => server.close());

  it("counts each request against the key's limits and answers 429 past them", async () => {
    server = await mount("express", { api: { limits: { perMinute: 4 } } });
    const key = await server.key(["jobs:read"]);
    const client = await connect(server.url, key);
    // initialize, notifications/initialized and the client's GET stream count too: the limit comes within a few calls.
    let refusal: unknown;
    let calls = 0;
    while (refusal === undefined && calls < 10) {
      calls += 1;
      await client.callTool({ name: "list_jobs", arguments: {} }).catch((error: unknown) => {
        refusal = error;
      });
    }
    expect(calls).toBeLessThanOrEqual(4);
    expect(String(refusal)).toMatch(/rate_limited/);
    await client.close().catch(() => undefined);
    const usage = await server.api.usage.list(COMPANY.id, { limit: 100 });
    expect(usage.data.some((row) => row.status === 429)).toBe(true);
  });
});
