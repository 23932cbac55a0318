import { defineProject } from "vitest/config";

// The example runs against the built packages (dist), as a host app would.
export default defineProject({
  test: {
    name: "example-own-tables",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
