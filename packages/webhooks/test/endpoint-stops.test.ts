/**
 * The one statement of when an attempt pauses or disables its endpoint (`endpointUpdate`), and the
 * application of such an update that the memory store uses (`applyEndpointUpdate`). Every storage
 * applies it: the webhook store suite checks the same outcomes on each.
 */

import { describe, expect, it } from "vitest";
import { endpointUpdate } from "../src/index";
import { applyEndpointUpdate } from "../src/store/endpoint-update";
import type { WebhookEndpointRecord } from "../src/store/webhook-records";

const AT = new Date("2026-11-27T12:00:00.000Z");
const BEFORE = new Date("2026-11-27T11:00:00.000Z");

function endpoint(overrides: Partial<WebhookEndpointRecord>): WebhookEndpointRecord {
  return {
    id: "we_1",
    companyId: "co_1",
    url: "https://hooks.example.com",
    description: "",
    events: ["job.created"],
    status: "active",
    pausedReason: null,
    signatureScheme: "service",
    ordered: false,
    maxPerSecond: null,
    secrets: [],
    consecutiveFailures: 0,
    createdAt: BEFORE,
    updatedAt: BEFORE,
    ...overrides,
  };
}

const failed = (pauseAfter: number, gone = false) =>
  endpointUpdate({ succeeded: false, test: false, gone, pauseAfter });

describe("endpointUpdate and its application", () => {
  it("a failure counts; the one that reaches pauseAfter pauses an active endpoint, and only that one reports it", () => {
    const one = applyEndpointUpdate(endpoint({ consecutiveFailures: 1 }), failed(3), AT);
    expect(one).toMatchObject({ paused: false, disabled: false, state: { consecutiveFailures: 2, status: "active" } });
    const two = applyEndpointUpdate(one.state, failed(3), AT);
    expect(two).toMatchObject({
      paused: true,
      disabled: false,
      state: { consecutiveFailures: 3, status: "paused", pausedReason: "failures", updatedAt: AT },
    });
    const three = applyEndpointUpdate(two.state, failed(3), AT);
    expect(three).toMatchObject({ paused: false, state: { consecutiveFailures: 4, status: "paused" } });
  });

  it("a 410 Gone disables the endpoint whatever its status, once; a pause in the same attempt is not reported", () => {
    const fromActive = applyEndpointUpdate(endpoint({ consecutiveFailures: 1 }), failed(2, true), AT);
    expect(fromActive).toMatchObject({
      paused: false,
      disabled: true,
      state: { status: "disabled", pausedReason: "gone", consecutiveFailures: 2 },
    });
    const fromPaused = applyEndpointUpdate(
      endpoint({ status: "paused", pausedReason: "failures" }),
      failed(50, true),
      AT,
    );
    expect(fromPaused).toMatchObject({ disabled: true, state: { status: "disabled", pausedReason: "gone" } });
    const again = applyEndpointUpdate(fromActive.state, failed(2, true), AT);
    expect(again).toMatchObject({ disabled: false, state: { status: "disabled", consecutiveFailures: 3 } });
  });

  it("a success resets the count (changing nothing when it is 0 already); a test send changes nothing", () => {
    const success = endpointUpdate({ succeeded: true, test: false, gone: false, pauseAfter: 3 });
    const reset = applyEndpointUpdate(
      endpoint({ consecutiveFailures: 4, status: "paused", pausedReason: "failures" }),
      success,
      AT,
    );
    expect(reset.state).toMatchObject({ consecutiveFailures: 0, status: "paused", updatedAt: AT });
    const clean = endpoint({});
    expect(applyEndpointUpdate(clean, success, AT).state).toBe(clean);
    const test = endpointUpdate({ succeeded: false, test: true, gone: true, pauseAfter: 1 });
    expect(test).toEqual({ failureCount: "none", statusChanges: [] });
    expect(applyEndpointUpdate(endpoint({ consecutiveFailures: 9 }), test, AT).state.consecutiveFailures).toBe(9);
  });
});
