/**
 * The receivers of docs/receiver-guide.md, run as written: every block marked
 * `<!-- tested: express | fastify | web -->` is taken from the page, stripped of its types by
 * TypeScript, and run with real Express 5, Fastify 5 and a Web `Request`, with
 * `@hireport/webhooks/verify` from the workspace's sources. Only what the page leaves to the reader
 * is supplied: `seenBefore`, `queue`, and the environment (`HIREPORT_WEBHOOK_SECRET`, `PORT=0`).
 *
 * Each receiver gets a signed event whose body a re-serialising receiver would change (spacing and
 * `\u` escapes of a non-ASCII name), so only a check on the raw bytes accepts it; then a changed
 * byte, no header, a repeat and an unknown event type.
 *
 * Needs no build.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import Fastify, { type FastifyInstance } from "fastify";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import * as verify from "../../webhooks/src/verify/index";

const guide = readFileSync(new URL("../../../docs/receiver-guide.md", import.meta.url), "utf8");
const secret = "whsec_receiver_guide_0123456789abcdef";

/** The block of the guide marked `<!-- tested: name -->`. */
function block(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\``).exec(guide);
  if (!match?.[1]) throw new Error(`docs/receiver-guide.md has no block marked <!-- tested: ${name} -->`);
  return match[1];
}

/** What a block leaves to its reader, and what the test reads back. */
interface Harness {
  seen: Set<string>;
  queued: { id?: string; kind?: string }[];
}

interface Ran {
  app?: unknown;
  server?: Server;
  POST?: (request: Request) => Promise<Response>;
}

const modules: Record<string, unknown> = {
  "@hireport/webhooks/verify": verify,
  express: { default: express },
  fastify: { default: Fastify },
};

/**
 * Runs a block: its types removed, its imports given the modules above, its `export` dropped, and
 * what it declared (`app`, `server`, `POST`) handed back.
 */
async function run(name: string, harness: Harness): Promise<Ran> {
  const { outputText } = ts.transpileModule(block(name), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const unknownImports: string[] = [];
  const code = outputText
    .replace(/^import (\w+) from "([^"]+)";$/gm, (_line, local: string, specifier: string) => {
      if (!(specifier in modules)) unknownImports.push(specifier);
      return `const ${local} = __modules[${JSON.stringify(specifier)}].default;`;
    })
    .replace(/^import \{([^}]+)\} from "([^"]+)";$/gm, (_line, names: string, specifier: string) => {
      if (!(specifier in modules)) unknownImports.push(specifier);
      return `const {${names}} = __modules[${JSON.stringify(specifier)}];`;
    })
    .replace(/^export (async function|function|const) /gm, "$1 ");
  expect(unknownImports).toEqual([]);
  expect(code).not.toMatch(/^\s*(import|export) /m);
  const declared = ["app", "server", "POST"].map(
    (local) => `${local}: typeof ${local} === "undefined" ? undefined : ${local}`,
  );
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<Ran>;
  const body = new AsyncFunction(
    "__modules",
    "process",
    "seenBefore",
    "queue",
    `${code}\nreturn { ${declared.join(", ")} };`,
  );
  return body(
    modules,
    { env: { HIREPORT_WEBHOOK_SECRET: secret, PORT: "0" } },
    async (id: string) => {
      const seen = harness.seen.has(id);
      harness.seen.add(id);
      return seen;
    },
    { push: async (item: { id?: string; kind?: string }) => void harness.queued.push(item) },
  );
}

/**
 * A signed `job.closed` event, written as a receiver that re-serialised it would not write it: two
 * spaces of indent and `\u` escapes (Zoë Müller), so only the raw bytes carry the signature.
 */
async function signedEvent(id: string, type = "job.closed") {
  const body = `{\n  "id": "${id}",\n  "type": "${type}",\n  "created_at": "2026-03-31T09:30:00.000Z",\n  "company_id": "acme",\n  "api_version": "1.0",\n  "data": { "id": "job_1", "title": "Data Engineer", "hiring_manager": "Zo\\u00eb M\\u00fcller", "updated_at": "2026-03-31T09:30:00.000Z" }\n}`;
  expect(JSON.stringify(JSON.parse(body))).not.toBe(body);
  return { body, header: await verify.signPayload({ payload: body, secret }) };
}

type Post = (body: string, headers: Record<string, string>) => Promise<{ status: number; text: string }>;

/** The same checks for every receiver of the guide. */
function receives(name: string, start: (harness: Harness) => Promise<Post>): void {
  describe(`the ${name} receiver of the receiver guide`, () => {
    const harness: Harness = { seen: new Set(), queued: [] };
    const post = (() => {
      let started: Promise<Post> | undefined;
      return (body: string, headers: Record<string, string>) => {
        started ??= start(harness);
        return started.then((send) => send(body, headers));
      };
    })();

    it("accepts a signed event on its raw bytes (a re-serialised body would not match) and queues it", async () => {
      const { body, header } = await signedEvent("evt_raw_bytes");
      const answer = await post(body, { "content-type": "application/json", "service-signature": header });
      expect(answer.status).toBe(204);
      // The job as the event carries it, its name decoded: what was verified is what was parsed.
      expect(JSON.stringify(harness.queued.at(-1))).toContain('"hiring_manager":"Zoë Müller"');
    });

    it("accepts it with a charset in the content type too", async () => {
      const { body, header } = await signedEvent("evt_charset");
      const answer = await post(body, {
        "content-type": "application/json; charset=utf-8",
        "service-signature": header,
      });
      expect(answer.status).toBe(204);
    });

    it("refuses a changed byte and a missing header with 400, queueing nothing", async () => {
      const before = harness.queued.length;
      const { body, header } = await signedEvent("evt_changed");
      const changed = await post(body.replace("Data Engineer", "Data Engineers"), {
        "content-type": "application/json",
        "service-signature": header,
      });
      expect(changed.status).toBe(400);
      const unsigned = await post(body, { "content-type": "application/json" });
      expect(unsigned.status).toBe(400);
      if (name !== "web") {
        expect(changed.text).toBe("signature_mismatch");
        expect(unsigned.text).toBe("missing_header");
      }
      expect(harness.queued.length).toBe(before);
    });

    it("answers a repeat 200 without queueing it again, and an unknown type 204", async () => {
      const { body, header } = await signedEvent("evt_repeat");
      const headers = { "content-type": "application/json", "service-signature": header };
      expect((await post(body, headers)).status).toBe(204);
      const queued = harness.queued.length;
      expect((await post(body, headers)).status).toBe(200);
      const unknown = await signedEvent("evt_unknown", "job.archived_in_a_later_version");
      const skipped = await post(unknown.body, {
        "content-type": "application/json",
        "service-signature": unknown.header,
      });
      expect(skipped.status).toBe(204);
      expect(harness.queued.length).toBe(queued);
    });
  });
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** Posts to a listening server. */
function over(address: AddressInfo | string | null): Post {
  if (!address || typeof address === "string") throw new Error("the receiver listens on no TCP port");
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return async (body, headers) => {
    const response = await fetch(`http://${host}:${address.port}/hooks/hireport`, { method: "POST", headers, body });
    return { status: response.status, text: await response.text() };
  };
}

receives("express", async (harness) => {
  const { server } = await run("express", harness);
  if (!server) throw new Error("the Express block declares no server");
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return over(server.address());
});

receives("fastify", async (harness) => {
  const { app } = await run("fastify", harness);
  const fastify = app as FastifyInstance | undefined;
  if (!fastify) throw new Error("the Fastify block declares no app");
  closers.push(() => fastify.close());
  return over(fastify.server.address());
});

receives("web", async (harness) => {
  const { POST } = await run("web", harness);
  if (!POST) throw new Error("the Web block declares no POST");
  return async (body, headers) => {
    const response = await POST(
      new Request("https://receiver.example.com/hooks/hireport", { method: "POST", headers, body }),
    );
    return { status: response.status, text: await response.text() };
  };
});

describe("the harness", () => {
  it("finds every marked block, and a missing one is an error", () => {
    for (const name of ["express", "fastify", "web"]) expect(block(name)).toContain("verifySignature");
    expect(() => block("koa")).toThrow(/no block marked/);
  });
});
