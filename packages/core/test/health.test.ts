/**
 * `api.health()` and `healthResponse`: what readiness probes read. The storage check goes through
 * the storage, the open check follows `close()`, extra checks run with a time limit, and a failed
 * check's message never carries a connection string or a credential.
 */
import { createPublicApi, type HealthReport, type Storage } from "@hireport/core";
import { healthResponse } from "@hireport/core/extend";
import { answerHealth, HealthCheckFailure, sanitizeHealthError } from "@hireport/core/http";
import { memoryStorage } from "@hireport/core/memory";
import { describe, expect, it } from "vitest";
import { memoryLogger } from "./support/memory-logger";

const SECRET = "health-test-secret-0123456789-abcdefghijk";

function apiOver(storage: Storage, extra: Partial<Parameters<typeof createPublicApi>[0]> = {}) {
  const logger = memoryLogger();
  const api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: SECRET,
    logger,
    ...extra,
  });
  return { api, logger };
}

/** A memory storage whose reads fail as a driver that lost its database would. */
function brokenStorage(message: string): Storage {
  const storage = memoryStorage();
  return {
    ...storage,
    companies: { ...storage.companies, get: async () => Promise.reject(new Error(message)) },
  };
}

const byName = (report: HealthReport) => Object.fromEntries(report.checks.map((check) => [check.name, check]));

describe("api.health()", () => {
  it("reports ok with the storage and open checks, each passed with a duration", async () => {
    const { api } = apiOver(memoryStorage());
    const report = await api.health();
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ["storage", "pass"],
      ["open", "pass"],
    ]);
    for (const check of report.checks) {
      expect(check.durationMs).toBeGreaterThanOrEqual(0);
      expect(check.error).toBeUndefined();
    }
    expect(Number.isNaN(Date.parse(report.checkedAt))).toBe(false);
  });

  it("fails the storage check when the storage's read fails, with the message cleaned, and logs the full error", async () => {
    const { api, logger } = apiOver(
      brokenStorage("connect ECONNREFUSED for postgres://app:s3cr3t@db.internal:5432/hireport password=hunter2"),
    );
    const report = await api.health();
    expect(report.ok).toBe(false);
    const storage = byName(report).storage;
    expect(storage?.status).toBe("fail");
    expect(storage?.error).toBe("connect ECONNREFUSED for [address] password=[redacted]");
    expect(JSON.stringify(report)).not.toMatch(/s3cr3t|hunter2|db\.internal/);
    expect(logger.entries.some((entry) => entry.message === "hireport: health check failed")).toBe(true);
  });

  it("fails the open check once close() was called (a draining process is not ready)", async () => {
    const { api } = apiOver(memoryStorage());
    await api.close();
    const report = await api.health();
    expect(report.ok).toBe(false);
    expect(byName(report).open?.status).toBe("fail");
    expect(byName(report).storage?.status).toBe("pass");
  });

  it("runs the checks of the health option after its own, and fails one that passes the time limit", async () => {
    const { api } = apiOver(memoryStorage(), {
      health: {
        timeoutMs: 50,
        checks: [
          { name: "fast", run: async () => ({ answered: true }) },
          { name: "hangs", run: () => new Promise(() => undefined) },
          {
            name: "measured",
            run: async () => Promise.reject(new HealthCheckFailure("Lag over limit.", { lagMs: 9 })),
          },
        ],
      },
    });
    const started = Date.now();
    const report = await api.health();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(report.checks.map((check) => check.name)).toEqual(["storage", "open", "fast", "hangs", "measured"]);
    const checks = byName(report);
    expect(checks.fast).toMatchObject({ status: "pass", details: { answered: true } });
    expect(checks.hangs).toMatchObject({ status: "fail", error: "Did not answer within 50 ms." });
    expect(checks.measured).toMatchObject({ status: "fail", error: "Lag over limit.", details: { lagMs: 9 } });
    expect(report.ok).toBe(false);
  });
});

describe("healthResponse and answerHealth", () => {
  it("answers 200 with the report as JSON, not to be cached, when healthy", async () => {
    const { api } = apiOver(memoryStorage());
    const answer = healthResponse(await api.health());
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(String(answer.body))).toMatchObject({
      ok: true,
      checks: [{ name: "storage" }, { name: "open" }],
    });
  });

  it("answers 503 when one of several sources is unhealthy, merging their checks", async () => {
    const healthy = apiOver(memoryStorage()).api;
    const broken = apiOver(brokenStorage("database is closed")).api;
    const answer = await answerHealth([healthy, broken]);
    expect(answer.status).toBe(503);
    const body = JSON.parse(String(answer.body)) as HealthReport;
    expect(body.ok).toBe(false);
    expect(body.checks.map((check) => `${check.name}:${check.status}`)).toEqual([
      "storage:pass",
      "open:pass",
      "storage:fail",
      "open:pass",
    ]);
  });

  it("answers 503 for a source whose health() throws, without its message's secrets", async () => {
    const answer = await answerHealth({
      health: () => Promise.reject(new Error("lost mysql://root:pw@10.0.0.5/db")),
    });
    expect(answer.status).toBe(503);
    expect(String(answer.body)).not.toContain("pw@");
    expect(String(answer.body)).toContain("lost [address]");
  });
});

describe("sanitizeHealthError", () => {
  it.each([
    ["postgresql://user:pass@host:5432/db refused", "[address] refused"],
    ["host=db user=app password='x y' dbname=test", "host=db user=[redacted] password=[redacted] dbname=test"],
    ["bad key svc_live_abcDEF123_xyz in header", "bad key [key] in header"],
    ["redis://:secret@cache:6379 timed out", "[address] timed out"],
    ["two\nlines", "two lines"],
  ])("cleans %j", (raw, cleaned) => {
    expect(sanitizeHealthError(new Error(raw))).toBe(cleaned);
  });

  it("cuts a long message to 300 characters", () => {
    expect(sanitizeHealthError(new Error("x".repeat(1_000)))).toHaveLength(300);
  });
});
