/** The audit list of host-side changes: `api.keys.create` and `revoke` record who did what, when. */
import { describe, expect, it } from "vitest";
import { createPublicApi } from "../src/index";
import { memoryStorage } from "../src/memory";

const SECRET = "an-audit-secret-of-at-least-thirty-two-chars";

async function setUp() {
  let now = new Date("2026-03-02T10:00:00.000Z");
  const api = createPublicApi({
    storage: memoryStorage(),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: SECRET,
    clock: { now: () => now },
  });
  await api.companies.upsert({ id: "acme", name: "Acme" });
  await api.companies.upsert({ id: "globex", name: "Globex" });
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  return { api, advance };
}

describe("audit list", () => {
  it("records key.created and key.revoked with the actor, newest first, no secret and no personal data", async () => {
    const { api, advance } = await setUp();
    const owner = { type: "host" as const, id: "user_7", name: "Ada (owner)" };
    const { key, record } = await api.keys.create(
      { companyId: "acme", name: "Careers site", scopes: ["jobs:read"] },
      { actor: owner },
    );
    advance(1000);
    await api.keys.revoke("acme", record.id, { actor: "Admin script" });
    advance(1000);
    await api.keys.revoke("acme", record.id, { actor: "Admin script" });
    const page = await api.audit.list("acme");
    expect(page.hasMore).toBe(false);
    expect(page.data).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        companyId: "acme",
        actor: { type: "host", id: null, name: "Admin script" },
        action: "key.revoked",
        target: { type: "key", id: record.id },
        details: {},
        createdAt: new Date("2026-03-02T10:00:01.000Z"),
      },
      {
        id: expect.stringMatching(/^aud_/),
        companyId: "acme",
        actor: owner,
        action: "key.created",
        target: { type: "key", id: record.id },
        details: { scopes: ["jobs:read"], expires_at: null },
        createdAt: new Date("2026-03-02T10:00:00.000Z"),
      },
    ]);
    expect(JSON.stringify(page)).not.toContain(key);
    expect((await api.audit.list("globex")).data).toEqual([]);
  });

  it("records nothing for a key the company may not create (the limit), and pages with a cursor", async () => {
    const { api, advance } = await setUp();
    for (let i = 0; i < 10; i++) {
      await api.keys.create({ companyId: "acme", name: `Key ${i}`, scopes: ["jobs:read"] });
      advance(10);
    }
    await expect(api.keys.create({ companyId: "acme", name: "Eleventh", scopes: ["jobs:read"] })).rejects.toMatchObject(
      {
        code: "key_limit",
      },
    );
    const first = await api.audit.list("acme", { limit: 6 });
    expect(first.data).toHaveLength(6);
    expect(first.hasMore).toBe(true);
    const second = await api.audit.list("acme", { limit: 6, cursor: first.nextCursor ?? "" });
    expect(second.data).toHaveLength(4);
    expect(second.hasMore).toBe(false);
    expect(new Set([...first.data, ...second.data].map((entry) => entry.action))).toEqual(new Set(["key.created"]));
    await expect(api.audit.list("globex", { cursor: first.nextCursor ?? "" })).rejects.toMatchObject({
      code: "bad_request",
    });
  });
});
