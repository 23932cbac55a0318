/**
 * Generates `src/generated/openapi.ts`, the client's types, from the OpenAPI document of
 * `@hireport/core` (`buildOpenApiDocument()`, built from the zod schemas the server validates
 * with) as a host that mounts `@hireport/webhooks`'s routes serves it (the webhook endpoints
 * included), with openapi-typescript's default options. Development only: the published client
 * carries the generated file and needs nothing of core.
 *
 * `test/generated-types.test.ts` compares the committed file with a fresh generation and fails
 * on any drift; `pnpm --filter @hireport/client generate` rewrites it.
 */
import { buildOpenApiDocument } from "@hireport/core/http";
import { createWebhookDispatcher, webhookEndpointsApi } from "@hireport/webhooks";
import { memoryWebhookStorage } from "@hireport/webhooks/memory";
import openapiTS, { astToString } from "openapi-typescript";

/** Where the generated file lives, relative to this script. */
export const GENERATED_FILE = "../src/generated/openapi.ts";

const HEADER = `/**
 * Generated from the OpenAPI document of @hireport/core (buildOpenApiDocument, with the webhook endpoints of @hireport/webhooks) by openapi-typescript
 * with its default options. Do not edit: run \`pnpm --filter @hireport/client generate\`.
 * test/generated-types.test.ts fails when this file drifts from core.
 */

`;

/** The content of `src/generated/openapi.ts` for the current core. */
export async function generateTypes(): Promise<string> {
  // The routes' specs only: this dispatcher never starts, and its storage is never written.
  const dispatcher = createWebhookDispatcher({ storage: memoryWebhookStorage(), logger: { warn() {}, error() {} } });
  const ast = await openapiTS(buildOpenApiDocument({ extensions: [webhookEndpointsApi(dispatcher)] }) as never);
  return `${HEADER}${astToString(ast)}`;
}
