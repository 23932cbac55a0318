import { defineProject } from "vitest/config";

// The example runs against the built packages (dist), as a host app would: `pnpm test` builds first.
export default defineProject({
  test: {
    name: "example-fastify-postgres",
    include: ["test/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
