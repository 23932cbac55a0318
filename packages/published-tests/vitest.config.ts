import { defineProject } from "vitest/config";

// Packs every @hireport package (`pnpm test` builds them first), installs the tarballs in a
// temporary project and loads them on the lowest Node of `engines` (installed from the registry's
// node@<version> package into node_modules/.cache) and on the running Node; and rehearses a release
// (changeset version and publish to a local Verdaccio, a fresh npm project running the README's
// host, another the API alone); and installs each package, and the combinations users make, with
// only what the READMEs name (install-matrix.test.ts). See README.md.
export default defineProject({
  test: {
    name: "published",
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
