import { readFileSync } from "node:fs";
import { createContext, runInContext } from "node:vm";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildSignatureHeader } from "../src/signature";

/**
 * Runs verify.ts in a bare V8 context that has only what Web runtimes have (Web Crypto,
 * TextEncoder, TextDecoder): no `require`, `process`, `Buffer` or Node module.
 */
function loadInWebLikeContext(): Record<string, unknown> {
  const source = readFileSync(new URL("../src/verify.ts", import.meta.url), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const exports: Record<string, unknown> = {};
  const context = createContext({
    exports,
    module: { exports },
    crypto: globalThis.crypto,
    TextEncoder,
    TextDecoder,
  });
  runInContext("globalThis.crypto = crypto;", context);
  runInContext(outputText, context);
  return exports;
}

describe("@hireport/webhooks/verify in a Web-like runtime", () => {
  it("verifies a dispatcher signature and parses the event with no Node API at hand", async () => {
    const web = loadInWebLikeContext();
    const verifySignature = web.verifySignature as (options: unknown) => Promise<{ secret: string }>;
    const parseEvent = web.parseEvent as (payload: string) => { type: string; data: { title: string } };
    const secret = "whsec_d2ViLXJ1bnRpbWUtdGVzdC1zZWNyZXQtMTIzNDU2Nzg5MDEy";
    const now = new Date("2026-03-01T09:00:00.000Z");
    const payload = JSON.stringify({
      id: "evt_1",
      type: "job.updated",
      created_at: now.toISOString(),
      company_id: "co_1",
      api_version: "1.0",
      data: { title: "Ünïcödé — 日本語 🎉" },
    });
    const header = buildSignatureHeader(payload, [{ secret, expiresAt: null }], now);
    await expect(verifySignature({ payload, header, secret, now })).resolves.toMatchObject({ secret });
    await expect(verifySignature({ payload: `${payload} `, header, secret, now })).rejects.toMatchObject({
      code: "signature_mismatch",
    });
    expect(parseEvent(payload).data.title).toBe("Ünïcödé — 日本語 🎉");
  });
});
