import type { NextConfig } from "next";

const config: NextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  // @hireport/* and kysely are bundled, and need no entry (test/smoke.test.ts checks both).
  serverExternalPackages: ["better-sqlite3", "pg"],
  poweredByHeader: false,
};

export default config;
