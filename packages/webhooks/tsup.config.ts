import { defineConfig } from "tsup";
import { packageBuild } from "../core/tsup.shared";

// The dispatcher signs with the module receivers verify with (`signature.ts`): entries share
// chunks in CommonJS too, so that each format has one copy of it.
export default defineConfig(
  packageBuild({ entry: { index: "src/index.ts", verify: "src/verify.ts" }, splitting: true }),
);
