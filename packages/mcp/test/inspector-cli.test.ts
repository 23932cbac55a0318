/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`) against the endpoint mounted as
 * the demo mounts it (Express, SQLite): a client that is not the SDK's test client lists the
 * tools and calls one.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPANY, type Mounted, mount } from "./helpers/mount";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json")), "build", "index.js");

describe("MCP Inspector CLI", () => {
  let server: Mounted;
  let key: string;
  beforeAll(async () => {
    server = await mount("express");
    key = await server.key(["jobs:write", "applications:write"]);
    await server.api.jobs.create(COMPANY.id, { title: "Inspector job", status: "active" });
  });
  afterAll(() => server.close());

  const inspect = async (...args: string[]) => {
    const argv = [cli, server.url, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args];
    try {
      // Its build finds its package.json relative to the working directory: run it from there.
      const { stdout } = await run(process.execPath, argv, { timeout: 30_000, cwd: dirname(cli) });
      return JSON.parse(stdout) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`inspector-cli failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
    }
  };

  it("lists the tools", async () => {
    const listed = (await inspect("--method", "tools/list")) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain("list_jobs");
  }, 40_000);

  it("calls a tool", async () => {
    const called = (await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "list_jobs",
      "--tool-arg",
      "status=open",
    )) as {
      content: { text: string }[];
    };
    const body = JSON.parse(called.content[0]?.text ?? "{}") as { data: { title: string }[] };
    expect(body.data.map((job) => job.title)).toContain("Inspector job");
  }, 40_000);
});
