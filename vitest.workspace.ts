export default ["packages/*/vitest.config.ts"];
