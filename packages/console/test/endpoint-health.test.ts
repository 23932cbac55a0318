/**
 * The endpoint page's health section: the SVG charts (one bar per hour with attempts), the figures
 * in a sentence and in a table, from `dispatcher.endpoints.stats`; rendered alone from given
 * figures, and through the test host after real test sends to a local receiver.
 */
import type { EndpointHourStats, EndpointStats } from "@hireport/webhooks";
import { renderToString } from "preact-render-to-string";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EndpointHealth } from "../src/pages/endpoint-health";
import { COMPANY_A, getPage, startHost, type TestHost, userCookie } from "./support/host";

const HOUR = 3_600_000;
const SINCE = Date.UTC(2026, 2, 1, 10);

function hour(index: number, attempts: number, succeeded: number, totalMs: number, maxMs: number): EndpointHourStats {
  return {
    start: new Date(SINCE + index * HOUR),
    attempts,
    succeeded,
    successRate: attempts === 0 ? null : succeeded / attempts,
    meanDurationMs: attempts === 0 ? null : totalMs / attempts,
    maxDurationMs: attempts === 0 ? null : maxMs,
  };
}

/** 24 hours, those of `busy` (index → [attempts, succeeded, total ms, longest ms]) with attempts. */
function statsOf(busy: Record<number, [number, number, number, number]>): EndpointStats {
  const hours = Array.from({ length: 24 }, (_, index) => {
    const [attempts, succeeded, total, max] = busy[index] ?? [0, 0, 0, 0];
    return hour(index, attempts, succeeded, total, max);
  });
  const attempts = hours.reduce((sum, h) => sum + h.attempts, 0);
  const succeeded = hours.reduce((sum, h) => sum + h.succeeded, 0);
  const total = Object.values(busy).reduce((sum, [, , ms]) => sum + ms, 0);
  return {
    since: new Date(SINCE),
    until: new Date(SINCE + 24 * HOUR),
    hours,
    attempts,
    succeeded,
    successRate: attempts === 0 ? null : succeeded / attempts,
    meanDurationMs: attempts === 0 ? null : total / attempts,
    maxDurationMs: attempts === 0 ? null : Math.max(...Object.values(busy).map(([, , , max]) => max)),
  };
}

function count(html: string, pattern: RegExp): number {
  return html.match(new RegExp(pattern.source, "g"))?.length ?? 0;
}

describe("the endpoint health section, rendered", () => {
  it("draws one bar per hour with attempts in each chart, with titles, descriptions, the sentence and the table", () => {
    // Hour 0: 4 attempts, 3 succeeded, 100 ms mean; hour 5: 1 failed at 2 s; hour 23: 3 succeeded, 50 ms mean.
    const html = renderToString(
      EndpointHealth({ stats: statsOf({ 0: [4, 3, 400, 250], 5: [1, 0, 2000, 2000], 23: [3, 3, 150, 60] }) }),
    );
    const rate = /<svg[^>]*aria-labelledby="health-rate-title health-rate-desc"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    const time = /<svg[^>]*aria-labelledby="health-time-title health-time-desc"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    expect(rate).toMatch(/role="img"/);
    expect(count(rate, /<rect class="c2"/)).toBe(3);
    expect(count(time, /<rect class="c3"/)).toBe(3);
    expect(rate).toContain("<title>10:00 UTC: 75% of 4 attempts succeeded</title>");
    expect(rate).toContain("<title>15:00 UTC: 0% of 1 attempts succeeded</title>");
    expect(time).toContain("<title>09:00 UTC: mean 50 ms</title>");
    expect(rate).toContain(
      '<desc id="health-rate-desc">3 of 24 hours had attempts; the lowest success rate was 0% in the hour from 15:00 UTC.</desc>',
    );
    expect(time).toContain("the slowest hour was from 15:00 UTC with 2,000 ms");
    // 8 attempts, 6 succeeded (75%), 2,550 ms in all: 318.75 ms mean, 2,000 ms longest.
    expect(html).toContain(
      '<p id="health-summary">8 attempts in the last 24 hours: 75% succeeded (6); mean time 319 ms, longest 2,000 ms.</p>',
    );
    expect(count(html, /<th scope="row">2026-03-0\d \d\d:00<\/th>/)).toBe(24);
    expect(html).toContain(
      '<th scope="row">2026-03-01 10:00</th><td>4</td><td>3</td><td>75%</td><td>100 ms</td><td>250 ms</td>',
    );
    expect(html).toContain('<th scope="row">2026-03-01 11:00</th><td>0</td><td>0</td><td>—</td><td>—</td><td>—</td>');
  });

  it("says so when no attempt was made, without a chart", () => {
    const html = renderToString(EndpointHealth({ stats: statsOf({}) }));
    expect(html).toContain('<p id="health-summary">No attempts in the last 24 hours.</p>');
    expect(html).not.toContain("<svg");
  });
});

describe("the endpoint page's health, through the host", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost();
  });

  afterAll(async () => {
    await host?.close();
  });

  it("shows the attempts of test sends in the current hour: one bar in each chart and the figures", async () => {
    const { endpoint } = await host.dispatcher.endpoints.create({
      companyId: COMPANY_A,
      url: host.receiver.url,
      events: ["job.created"],
    });
    const before = await getPage(host, `/webhooks/${endpoint.id}`, userCookie("owner"));
    expect(before.text).toContain('<p id="health-summary">No attempts in the last 24 hours.</p>');

    host.receiver.answer = { status: 500, body: "down" };
    expect((await host.dispatcher.sendTest(COMPANY_A, endpoint.id)).result).not.toBe("succeeded");
    host.receiver.answer = { status: 200, body: "ok" };
    expect((await host.dispatcher.sendTest(COMPANY_A, endpoint.id)).result).toBe("succeeded");
    const stats = await host.dispatcher.endpoints.stats(COMPANY_A, endpoint.id);
    expect(stats).toMatchObject({ attempts: 2, succeeded: 1, successRate: 0.5 });

    const page = await getPage(host, `/webhooks/${endpoint.id}`, userCookie("member"));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="health">Health, last 24 hours</h2>');
    expect(page.text).toContain(
      `<p id="health-summary">2 attempts in the last 24 hours: 50% succeeded (1); mean time ${Math.round(
        stats.meanDurationMs ?? -1,
      ).toLocaleString("en-US")} ms, longest ${Math.round(stats.maxDurationMs ?? -1).toLocaleString("en-US")} ms.</p>`,
    );
    // Both sends fall in the current hour, unless the hour turned between them.
    const busyHours = stats.hours.filter((hour) => hour.attempts > 0).length;
    expect(busyHours).toBeGreaterThanOrEqual(1);
    expect(count(page.text, /<rect class="c2"/)).toBe(busyHours);
    expect(count(page.text, /<rect class="c3"/)).toBe(busyHours);
  });
});
