import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { defineConfig } from "tsup";
import { OUT_DIR, packageBuild } from "../core/tsup.shared";

/**
 * `@hireport/webhooks/testing` only runs inside vitest, which refuses `require()`: its CommonJS
 * entry hands out the ES module build, as `@hireport/core/testing`'s does.
 */
const TESTING_CJS = `"use strict";
// vitest cannot be require()d, so the CommonJS entry of @hireport/webhooks/testing is its ES module build.
module.exports = require("./testing.js");
`;

// The dispatcher signs with the module receivers verify with (`signing/signature.ts`): entries share
// chunks in CommonJS too, so that each format has one copy of it.
export default defineConfig(
  packageBuild({
    entry: {
      index: "src/index.ts",
      memory: "src/memory/index.ts",
      testing: "src/testing/index.ts",
      verify: "src/verify/index.ts",
    },
    splitting: true,
    external: ["vitest", "@hireport/core/testing"],
    async onSuccess() {
      await writeFile(join(OUT_DIR, "testing.cjs"), TESTING_CJS);
      await rm(join(OUT_DIR, "testing.cjs.map"), { force: true });
    },
  }),
);
