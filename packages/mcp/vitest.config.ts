import { defineProject } from "vitest/config";
import { hireportAliases } from "../../vitest.shared";

export default defineProject({
  resolve: { alias: hireportAliases },
  test: {
    name: "mcp",
    include: ["test/**/*.test.ts"],
  },
});
