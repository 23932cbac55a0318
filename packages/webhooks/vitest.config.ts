import { defineProject } from "vitest/config";
import { hireportAliases } from "../../vitest.shared";

export default defineProject({
  resolve: { alias: hireportAliases },
  test: {
    name: "webhooks",
    include: ["test/**/*.test.ts"],
    // Set-up hooks connect to the databases and migrate them: slow on a busy 2-core machine.
    hookTimeout: 60_000,
  },
});
