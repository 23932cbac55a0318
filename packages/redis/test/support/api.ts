/** A public API over a given storage, with a clock the test moves, and a request helper. */
import { type ApiResponse, createPublicApi, type PublicApi, type Storage } from "@hireport/core";

export const START = new Date("2026-03-02T10:00:30.000Z");

export interface TestApi {
  api: PublicApi;
  clock: { now(): Date; set(at: Date): void };
  /** GET /me with the key. */
  me(key: string): Promise<ApiResponse>;
}

export function testApi(storage: Storage, options: { perMinute?: number; start?: Date } = {}): TestApi {
  let now = options.start ?? START;
  const clock = {
    now: () => now,
    set: (at: Date) => {
      now = at;
    },
  };
  const api = createPublicApi({
    storage,
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "a-redis-test-secret-of-at-least-thirty-two-chars",
    clock,
    limits: { perMinute: options.perMinute ?? 1000, perDay: 100_000 },
  });
  return {
    api,
    clock,
    me: (key) => api.handle({ method: "GET", path: "/me", headers: { authorization: `Bearer ${key}` } }),
  };
}

/** The `code` of an error answer. */
export function errorCode(response: ApiResponse): string | undefined {
  if (typeof response.body !== "string") return undefined;
  return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
}
