import { defineProject } from "vitest/config";

// The example runs against the built packages (dist), as a host app would: `pnpm test` builds first.
// The smoke test runs `next build --webpack` (a minute or two on two cores), hence the long hook timeout.
export default defineProject({
  test: {
    name: "example-next-app",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 360_000,
  },
});
