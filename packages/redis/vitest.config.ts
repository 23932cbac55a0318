import { defineProject } from "vitest/config";
import { hireportAliases } from "../../vitest.shared";

export default defineProject({
  resolve: { alias: hireportAliases },
  test: {
    name: "redis",
    include: ["test/**/*.test.ts"],
    // Set-up hooks start a Redis Cluster and migrate Postgres: slow on a busy 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
