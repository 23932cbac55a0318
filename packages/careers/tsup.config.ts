import { defineConfig } from "tsup";
import { packageBuild } from "../core/tsup.shared";

// Pages are JSX rendered to strings by preact-render-to-string (escaping by construction).
export default defineConfig(packageBuild({ entry: { index: "src/index.ts" }, jsxImportSource: "preact" }));
