import { fileURLToPath } from "node:url";

const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));

/**
 * Tests import the workspace packages from their sources, so a test run never reads a stale build.
 * The published shapes (dist, exports maps) are checked by publint, attw, the examples and
 * packages/published-tests (the packed tarballs, on the lowest Node of engines).
 */
export const hireportAliases: { find: RegExp; replacement: string }[] = [
  { find: /^@hireport\/core\/storage$/, replacement: src("core/src/entries/storage.ts") },
  { find: /^@hireport\/core\/schemas$/, replacement: src("core/src/entries/schemas.ts") },
  { find: /^@hireport\/core\/http$/, replacement: src("core/src/entries/http.ts") },
  { find: /^@hireport\/core\/extend$/, replacement: src("core/src/entries/extend.ts") },
  { find: /^@hireport\/core\/memory$/, replacement: src("core/src/memory/index.ts") },
  { find: /^@hireport\/core\/node$/, replacement: src("core/src/node/index.ts") },
  { find: /^@hireport\/core\/telemetry$/, replacement: src("core/src/telemetry/index.ts") },
  { find: /^@hireport\/core\/testing$/, replacement: src("core/src/testing/index.ts") },
  { find: /^@hireport\/core$/, replacement: src("core/src/index.ts") },
  { find: /^@hireport\/kysely\/webhooks$/, replacement: src("kysely/src/webhooks.ts") },
  { find: /^@hireport\/kysely\/testing$/, replacement: src("kysely/src/testing/index.ts") },
  { find: /^@hireport\/kysely$/, replacement: src("kysely/src/index.ts") },
  { find: /^@hireport\/webhooks\/verify$/, replacement: src("webhooks/src/verify/index.ts") },
  { find: /^@hireport\/webhooks\/memory$/, replacement: src("webhooks/src/memory/index.ts") },
  { find: /^@hireport\/webhooks\/testing$/, replacement: src("webhooks/src/testing/index.ts") },
  { find: /^@hireport\/webhooks$/, replacement: src("webhooks/src/index.ts") },
  { find: /^@hireport\/express$/, replacement: src("express/src/index.ts") },
  { find: /^@hireport\/fastify$/, replacement: src("fastify/src/index.ts") },
  { find: /^@hireport\/next$/, replacement: src("next/src/index.ts") },
  { find: /^@hireport\/client$/, replacement: src("client/src/index.ts") },
  { find: /^@hireport\/console$/, replacement: src("console/src/index.ts") },
  { find: /^@hireport\/mcp$/, replacement: src("mcp/src/index.ts") },
  { find: /^@hireport\/careers$/, replacement: src("careers/src/index.ts") },
  { find: /^@hireport\/redis$/, replacement: src("redis/src/index.ts") },
];
