/**
 * hireport's tables in a Postgres schema of their own (the `schema` option): a Kysely plugin that
 * qualifies every name of hireport's (a table, an index, a sequence: each starts with the table
 * prefix) with the schema, in the query builder's statements and in raw SQL built with
 * `sql.table`, and leaves every other name as it is (the host's tables of a declared domain, the
 * aliases, the CTEs). Routines are qualified where they are named (`routines.ts`).
 */
import {
  IdentifierNode,
  type Kysely,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SchemableIdentifierNode,
  type UnknownRow,
} from "kysely";
import type { DialectKind } from "./dialects/types";

/** The longest schema name Postgres keeps (NAMEDATALEN - 1 bytes). */
const MAX_SCHEMA_BYTES = 63;

class SchemaTransformer extends OperationNodeTransformer {
  readonly #schema: IdentifierNode;
  readonly #prefix: string;

  constructor(schema: string, prefix: string) {
    super();
    this.#schema = IdentifierNode.create(schema);
    this.#prefix = prefix;
  }

  protected override transformSchemableIdentifier(node: SchemableIdentifierNode): SchemableIdentifierNode {
    if (node.schema || !node.identifier.name.startsWith(this.#prefix)) return node;
    return { ...node, schema: this.#schema };
  }
}

/** The plugin that puts hireport's names (those starting with `prefix`) in `schema`. */
function schemaPlugin(schema: string, prefix: string): KyselyPlugin {
  const transformer = new SchemaTransformer(schema, prefix);
  return {
    transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => transformer.transformNode(args.node),
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
  };
}

/**
 * Checks the `schema` option against the prefix and the dialect: a schema is Postgres's, needs a
 * prefix (which tells hireport's names from the host's), and fits Postgres's identifier length.
 * @throws Error naming the mistake.
 */
export function checkSchemaOption(schema: string | undefined, prefix: string, dialect: DialectKind): void {
  if (schema === undefined) return;
  if (dialect !== "postgres") {
    throw new Error(
      `@hireport/kysely: the schema option is for Postgres; this database is ${dialect} (use tablePrefix, or a database of its own on MySQL).`,
    );
  }
  if (schema === "" || new TextEncoder().encode(schema).length > MAX_SCHEMA_BYTES) {
    throw new Error(`@hireport/kysely: the schema option must be a name of 1 to ${MAX_SCHEMA_BYTES} bytes.`);
  }
  if (prefix === "") {
    throw new Error(
      "@hireport/kysely: the schema option needs a tablePrefix that is not empty: the prefix is how hireport tells its own tables and indexes from yours.",
    );
  }
}

/** `db` with hireport's names in `schema`, or `db` itself when there is no schema. */
export function inSchema<DB>(db: Kysely<DB>, schema: string | undefined | null, prefix: string): Kysely<DB> {
  return schema ? db.withPlugin(schemaPlugin(schema, prefix)) : db;
}
