export default ["packages/*/vitest.config.ts", "packages/*/vitest.*.config.ts", "examples/*/vitest.config.ts"];
