import { defineConfig } from "tsup";
import { packageBuild } from "../core/tsup.shared";

// `webhooks` (`@hireport/kysely/webhooks`) is the only entry that loads `@hireport/webhooks`;
// `testing` (`@hireport/kysely/testing`) is the conformance suites' inspector. The entries share
// chunks in CommonJS too, so that each module has one copy per format.
export default defineConfig(
  packageBuild({
    entry: { index: "src/index.ts", webhooks: "src/webhooks.ts", testing: "src/testing/index.ts" },
    splitting: true,
  }),
);
