import { defineConfig } from "tsup";
import { packageBuild } from "../core/tsup.shared";

export default defineConfig(packageBuild({ entry: { index: "src/index.ts" } }));
