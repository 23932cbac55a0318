import { defineProject } from "vitest/config";
import { hireportAliases } from "../../vitest.shared";

export default defineProject({
  resolve: { alias: hireportAliases },
  test: {
    name: "client",
    include: ["test/**/*.test.ts"],
  },
});
