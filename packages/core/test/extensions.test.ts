/**
 * Routes added by another package (`createPublicApi({ extensions })`) go through the whole pipeline:
 * key, permission (a write scope includes its read), query and body validation, Idempotency-Key,
 * DELETE, the OpenAPI document; without the extension their paths answer 404.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import { type ApiExtension, extensionRoute, querySpec } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import { singleSchema } from "@hireport/core/schemas";
import { describe, expect, it } from "vitest";
import * as z from "zod";

const noteSchema = z.strictObject({ id: z.string(), text: z.string() });
const quiet = { warn: () => undefined, error: () => undefined };

function notesExtension(): ApiExtension & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: "notes",
    calls,
    tags: [{ name: "Notes", description: "Test notes." }],
    components: [["Note", noteSchema]],
    routes: [
      extensionRoute({
        operationId: "createNote",
        method: "POST",
        path: "/notes",
        scope: "webhooks:write",
        tag: "Notes",
        summary: "Create a note",
        query: querySpec(z.strictObject({})),
        body: z.strictObject({ text: z.string().min(1) }),
        response: singleSchema(noteSchema),
        successStatus: 201,
        errorStatuses: [400, 401, 403, 405, 409, 413, 422, 429, 500, 503],
        async handle({ body, auth }) {
          calls.push(`create ${body.text} by ${auth.key.name}`);
          return { status: 201, body: { data: { id: `note_${calls.length}`, text: body.text } } };
        },
      }),
      extensionRoute({
        operationId: "deleteNote",
        method: "DELETE",
        path: "/notes/{id}",
        scope: "webhooks:write",
        tag: "Notes",
        summary: "Delete a note",
        query: querySpec(z.strictObject({})),
        body: null,
        response: singleSchema(z.strictObject({ id: z.string(), deleted: z.literal(true) })),
        successStatus: 200,
        errorStatuses: [400, 401, 403, 404, 405, 429, 500, 503],
        async handle({ params }) {
          calls.push(`delete ${params.id}`);
          return { status: 200, body: { data: { id: params.id, deleted: true } } };
        },
      }),
    ],
  };
}

async function setup(extensions?: ApiExtension[]) {
  const api: PublicApi = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "extension-secret-0123456789-abcdefghijk",
    logger: quiet,
    ...(extensions ? { extensions } : {}),
  });
  const company = await api.companies.upsert({ id: "co_ext", name: "Acme" });
  const key = async (scopes: ("webhooks:read" | "webhooks:write" | "jobs:write")[]) =>
    (await api.keys.create({ companyId: company.id, name: `key ${scopes.join(" ")}`, scopes })).key;
  const call = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.handle({
      method,
      path: `/api/public/v1${path}`,
      query: {},
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { api, key, call };
}

describe("createPublicApi({ extensions })", () => {
  it("runs an extension's routes through key, permission, validation and Idempotency-Key", async () => {
    const notes = notesExtension();
    const { key, call } = await setup([notes]);
    const writer = await key(["webhooks:write"]);
    const reader = await key(["webhooks:read"]);

    const created = await call("POST", "/notes", writer, { text: "hello" }, { "idempotency-key": "k1" });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body as string)).toEqual({ data: { id: "note_1", text: "hello" } });
    const replay = await call("POST", "/notes", writer, { text: "hello" }, { "idempotency-key": "k1" });
    expect(replay.body).toBe(created.body);
    expect(notes.calls).toEqual(["create hello by key webhooks:write"]);

    expect((await call("POST", "/notes", "svc_live_nope", { text: "x" })).status).toBe(401);
    const refused = await call("POST", "/notes", reader, { text: "x" });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body as string).error.required_scope).toBe("webhooks:write");
    const invalid = await call("POST", "/notes", writer, { text: "" });
    expect(invalid.status).toBe(422);
    expect(JSON.parse(invalid.body as string).error.fields[0].field).toBe("text");

    const deleted = await call("DELETE", "/notes/note_1", writer);
    expect(deleted.status).toBe(200);
    expect(JSON.parse(deleted.body as string)).toEqual({ data: { id: "note_1", deleted: true } });
    const wrongMethod = await call("PUT", "/notes/note_1", writer);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("DELETE");
    expect(notes.calls).toEqual(["create hello by key webhooks:write", "delete note_1"]);
  });

  it("publishes the extension's operations, tags and components in the OpenAPI document", async () => {
    const { api } = await setup([notesExtension()]);
    const document = api.openapi() as {
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
      tags: { name: string }[];
      components: { schemas: Record<string, unknown> };
    };
    expect(document.paths["/notes"]?.post?.operationId).toBe("createNote");
    expect(document.paths["/notes/{id}"]?.delete?.tags).toEqual(["Notes"]);
    expect(document.tags.map((tag) => tag.name)).toContain("Notes");
    expect(document.components.schemas.Note).toBeDefined();
  });

  it("without the extension its paths answer 404 and are not documented", async () => {
    const { api, key, call } = await setup();
    const writer = await key(["webhooks:write"]);
    const answer = await call("POST", "/notes", writer, { text: "hello" });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body as string).error.code).toBe("not_found");
    expect((api.openapi() as { paths: Record<string, unknown> }).paths["/notes"]).toBeUndefined();
  });

  it("refuses, at creation, an extension whose route clashes with another", async () => {
    const clash: ApiExtension = { ...notesExtension(), name: "clash" };
    await expect(setup([notesExtension(), clash])).rejects.toThrow(/extension clash: the operation id createNote/);
    const jobs: ApiExtension = {
      name: "jobs",
      routes: [{ ...(notesExtension().routes[0] as ApiExtension["routes"][number]), operationId: "x", path: "/jobs" }],
    };
    await expect(setup([jobs])).rejects.toThrow(/POST \/jobs is taken/);
  });
});
