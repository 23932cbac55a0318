import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { defineConfig } from "tsup";
import { OUT_DIR, packageBuild } from "./tsup.shared";

/**
 * `@hireport/core/testing` only runs inside vitest, and vitest refuses `require()` (its CommonJS
 * entry throws), so a CommonJS build of it could never load. Its CommonJS entry hands out the ES
 * module build instead: `require()` of an ES module, which every Node of `engines` supports.
 */
const TESTING_CJS = `"use strict";
// vitest cannot be require()d, so the CommonJS entry of @hireport/core/testing is its ES module build.
module.exports = require("./testing.js");
`;

export default defineConfig(
  packageBuild({
    entry: {
      index: "src/index.ts",
      storage: "src/entries/storage.ts",
      schemas: "src/entries/schemas.ts",
      http: "src/entries/http.ts",
      extend: "src/entries/extend.ts",
      memory: "src/memory/index.ts",
      node: "src/node/index.ts",
      telemetry: "src/telemetry/index.ts",
      testing: "src/testing/index.ts",
    },
    // Entries share chunks in CommonJS too, so that every module (HireportError, the schemas…) has
    // one copy per format. tsup splits CommonJS by converting ESM chunks with sucrase, which turns a
    // dynamic import() into a require() inside a promise: fine for core's one, the reference page's
    // renderer (a chunk of its own, still loaded only when called), not for an ES-module-only package.
    splitting: true,
    external: ["vitest", "@opentelemetry/api"],
    async onSuccess() {
      await writeFile(join(OUT_DIR, "testing.cjs"), TESTING_CJS);
      await rm(join(OUT_DIR, "testing.cjs.map"), { force: true });
    },
  }),
);
