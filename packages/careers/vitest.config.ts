import { defineProject } from "vitest/config";
import { hireportAliases } from "../../vitest.shared";

export default defineProject({
  resolve: { alias: hireportAliases },
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  test: {
    name: "careers",
    include: ["test/**/*.test.ts"],
    // The browser test starts Chromium; the HTTP tests start servers.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
