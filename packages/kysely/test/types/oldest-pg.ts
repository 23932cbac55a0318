/**
 * Regression (types): `hardenPgPool` took only the `Pool` of `@types/pg` 8.16 or later, whose
 * `on` is one generic signature; a host on older types (two overloads, neither taking both events
 * at once) could not pass its pool. `tsconfig.json` beside this file checks it against the oldest
 * `@types/pg` 8 (8.6.0, the `@types/pg-oldest` devDependency) in the package's `typecheck` script;
 * the package's own `tsconfig.json` checks it against the current ones.
 */
import { Kysely, PostgresDialect } from "kysely";
import { Pool } from "pg";
import { hardenPgPool } from "../../src/pg-pool";

// As a host writes it: the pool comes back with its own type, for Kysely's dialect.
const pool: Pool = hardenPgPool(new Pool({ connectionString: "postgres://localhost/hireport", max: 20 }));
hardenPgPool(pool, { logger: console, preparedStatements: false });
hardenPgPool(pool, console);

export const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
