import { readFileSync } from "node:fs";
import { createContext, runInContext } from "node:vm";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildSignatureHeader, signatureHeaders } from "../src/delivery/delivery-request";
import { newSigningKey, publicKeyOf } from "../src/signing/signing-keys";
import { samplePayload } from "./support/outbox";

type ModuleExports = Record<string, unknown>;

/**
 * Runs verify.ts in a bare V8 context that has only what Web runtimes have (Web Crypto,
 * TextEncoder, TextDecoder, atob, btoa): no `require`, `process`, `Buffer` or Node module. Each module is
 * transpiled to CommonJS and given a `require` that loads the package's own relative modules (as
 * the build bundles them) and throws for anything else: a Node module or a package.
 */
function loadInWebLikeContext(): { verify: ModuleExports; modules: Map<string, ModuleExports> } {
  const context = createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder, atob, btoa });
  runInContext("globalThis.crypto = crypto;", context);
  const modules = new Map<string, ModuleExports>();
  const load = (url: URL): ModuleExports => {
    const loaded = modules.get(url.pathname);
    if (loaded) return loaded;
    const exports: ModuleExports = {};
    modules.set(url.pathname, exports);
    const { outputText } = ts.transpileModule(readFileSync(url, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    const require = (specifier: string): ModuleExports => {
      if (!/^\.\.?\//.test(specifier)) {
        throw new Error(`${url.pathname} loads ${specifier} at run time, which a Web runtime does not have`);
      }
      return load(new URL(`${specifier}.ts`, url));
    };
    const wrapper = runInContext(`(function (exports, require, module) {\n${outputText}\n})`, context) as (
      exports: ModuleExports,
      require: (specifier: string) => ModuleExports,
      module: { exports: ModuleExports },
    ) => void;
    wrapper(exports, require, { exports });
    return exports;
  };
  const verify = load(new URL("../src/verify/index.ts", import.meta.url));
  return { verify, modules };
}

describe("@hireport/webhooks/verify in a Web-like runtime", () => {
  it("verifies a dispatcher signature and parses the event with no Node API at hand", async () => {
    const { verify: web, modules } = loadInWebLikeContext();
    // What it loaded besides itself: the signature scheme, on Web Crypto there (no process, so no node:crypto).
    const signature = [...modules].find(([path]) => path.endsWith("/src/signing/signature.ts"))?.[1];
    expect(signature?.usesNodeCrypto).toBe(false);
    const verifySignature = web.verifySignature as (options: unknown) => Promise<{ secret: string }>;
    const signPayload = web.signPayload as (options: unknown) => Promise<string>;
    const parseEvent = web.parseEvent as (payload: string) => { type: string; data: { title: string } };
    const secret = "whsec_d2ViLXJ1bnRpbWUtdGVzdC1zZWNyZXQtMTIzNDU2Nzg5MDEy";
    const now = new Date("2026-03-01T09:00:00.000Z");
    const payload = samplePayload("job.updated", { title: "Ünïcödé — 日本語 🎉" }, now);
    // The dispatcher signs here in Node (node:crypto where the runtime has it); the Web side checks.
    const header = await buildSignatureHeader(payload, [{ secret, expiresAt: null }], now);
    await expect(verifySignature({ payload, header, secret, now })).resolves.toMatchObject({ secret });
    await expect(verifySignature({ payload: `${payload} `, header, secret, now })).rejects.toMatchObject({
      code: "signature_mismatch",
    });
    // Signing on Web Crypto gives the very header the dispatcher sends.
    expect(await signPayload({ payload, secret, timestamp: now })).toBe(header);
    expect(parseEvent(payload).data.title).toBe("Ünïcödé — 日本語 🎉");
  });

  it("verifies the dispatcher's Standard Webhooks v1 and v1a signatures with no Node API at hand", async () => {
    const { verify: web } = loadInWebLikeContext();
    const verifyStandard = web.verifyStandardSignature as (options: unknown) => Promise<{ id: string; key: string }>;
    const signStandard = web.signStandardPayload as (options: unknown) => Promise<Record<string, string>>;
    const now = new Date("2026-03-01T09:00:00.000Z");
    const payload = samplePayload("job.created", { title: "Zoë 🎉" }, now);
    for (const scheme of ["standard-v1", "standard-v1a"] as const) {
      const key = newSigningKey(scheme);
      const verifyWith = scheme === "standard-v1" ? key : publicKeyOf(key);
      // Signed in Node by the dispatcher's code, checked on Web Crypto alone.
      const headers = await signatureHeaders(
        scheme,
        "Service-Signature",
        "dlv_1",
        payload,
        [{ secret: key, expiresAt: null }],
        now,
      );
      await expect(verifyStandard({ payload, headers, key: verifyWith, now })).resolves.toMatchObject({ id: "dlv_1" });
      await expect(verifyStandard({ payload: `${payload} `, headers, key: verifyWith, now })).rejects.toMatchObject({
        code: "signature_mismatch",
      });
      // Signing there gives the very headers the dispatcher sends (ed25519 signatures are deterministic).
      expect(await signStandard({ id: "dlv_1", payload, key, timestamp: now })).toEqual(headers);
    }
  });
});
