import type { EndpointHourStats, EndpointStats } from "@hireport/webhooks";
import { formatCount } from "./format";

const WIDTH = 720;
const HEIGHT = 160;
const TOP = 10;
const BOTTOM = 30;
const LEFT = 52;

/** `98.5%` (one decimal, none when whole); `—` without attempts. */
export function formatRate(rate: number | null): string {
  if (rate === null) return "—";
  const percent = Math.round(rate * 1000) / 10;
  return `${percent}%`;
}

/** `240 ms`, rounded to the millisecond; `—` without attempts. */
export function formatDuration(ms: number | null): string {
  return ms === null ? "—" : `${formatCount(Math.round(ms))} ms`;
}

/** `09:00` (UTC), the start of an hour. */
function hourLabel(start: Date): string {
  return start.toISOString().slice(11, 16);
}

/** A round number of milliseconds at or above `max` for the top of the time scale. */
function scaleTop(max: number): number {
  if (max <= 10) return 10;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

interface HourChartProps {
  id: string;
  title: string;
  description: string;
  hours: EndpointHourStats[];
  /** The top of the scale, and how its three grid lines read. */
  top: number;
  label: (value: number) => string;
  /** The hour's value; null draws no bar (no attempts). */
  value: (hour: EndpointHourStats) => number | null;
  /** The bar's class (its colour) and its tooltip. */
  barClass: string;
  tooltip: (hour: EndpointHourStats) => string;
}

/** One bar per hour that had attempts, drawn on the server like the usage chart (title and description for assistive technology). */
function HourChart(props: HourChartProps) {
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / Math.max(1, props.hours.length);
  const bar = Math.max(2, slot * 0.7);
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
    >
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.description}</desc>
      {[0, 0.5, 1].map((share) => {
        const y = TOP + plot * (1 - share);
        return (
          <g>
            <line x1={LEFT} x2={WIDTH} y1={y} y2={y} />
            <text x={LEFT - 6} y={y + 3} text-anchor="end">
              {props.label(props.top * share)}
            </text>
          </g>
        );
      })}
      {props.hours.map((hour, index) => {
        const x = LEFT + index * slot + (slot - bar) / 2;
        const value = props.value(hour);
        const height = value === null ? 0 : (Math.min(value, props.top) / props.top) * plot;
        return (
          <g>
            {value === null ? null : (
              <rect class={props.barClass} x={x} y={TOP + plot - height} width={bar} height={Math.max(height, 0.5)}>
                <title>{props.tooltip(hour)}</title>
              </rect>
            )}
            {index % 4 === 0 || index === props.hours.length - 1 ? (
              <text x={x + bar / 2} y={HEIGHT - 12} text-anchor={index === props.hours.length - 1 ? "end" : "middle"}>
                {hourLabel(hour.start)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * The endpoint's health over the last hours (`dispatcher.endpoints.stats`): the figures in a
 * sentence, the success rate and the mean time of an attempt per hour as two SVG bar charts, and
 * every hour's figures as a table. An hour without attempts has no bar.
 */
export function EndpointHealth({ stats }: { stats: EndpointStats }) {
  const span = `${stats.hours.length} hours`;
  const summary =
    stats.attempts === 0
      ? `No attempts in the last ${span}.`
      : `${formatCount(stats.attempts)} attempts in the last ${span}: ${formatRate(stats.successRate)} succeeded (${formatCount(
          stats.succeeded,
        )}); mean time ${formatDuration(stats.meanDurationMs)}, longest ${formatDuration(stats.maxDurationMs)}.`;
  const active = stats.hours.filter((hour) => hour.attempts > 0);
  const worst = active.reduce<EndpointHourStats | null>(
    (low, hour) => (!low || (hour.successRate ?? 1) < (low.successRate ?? 1) ? hour : low),
    null,
  );
  const slowest = active.reduce<EndpointHourStats | null>(
    (high, hour) => (!high || (hour.meanDurationMs ?? 0) > (high.meanDurationMs ?? 0) ? hour : high),
    null,
  );
  const from = `${hourLabel(stats.since)} UTC`;
  return (
    <section aria-labelledby="health">
      <h2 id="health">Health, last {span}</h2>
      <p id="health-summary">{summary}</p>
      {active.length > 0 ? (
        <figure>
          <HourChart
            id="health-rate"
            title={`Share of attempts that succeeded, per hour, for the last ${span} (from ${from})`}
            description={`${active.length} of ${stats.hours.length} hours had attempts${
              worst
                ? `; the lowest success rate was ${formatRate(worst.successRate)} in the hour from ${hourLabel(worst.start)} UTC`
                : ""
            }.`}
            hours={stats.hours}
            top={1}
            label={(value) => formatRate(value)}
            value={(hour) => hour.successRate}
            barClass="c2"
            tooltip={(hour) =>
              `${hourLabel(hour.start)} UTC: ${formatRate(hour.successRate)} of ${formatCount(hour.attempts)} attempts succeeded`
            }
          />
          <HourChart
            id="health-time"
            title={`Mean time of an attempt, per hour, for the last ${span} (from ${from})`}
            description={`The mean time over all hours was ${formatDuration(stats.meanDurationMs)}${
              slowest
                ? `; the slowest hour was from ${hourLabel(slowest.start)} UTC with ${formatDuration(slowest.meanDurationMs)}`
                : ""
            }.`}
            hours={stats.hours}
            top={scaleTop(Math.max(0, ...active.map((hour) => hour.meanDurationMs ?? 0)))}
            label={(value) => formatDuration(value)}
            value={(hour) => hour.meanDurationMs}
            barClass="c3"
            tooltip={(hour) => `${hourLabel(hour.start)} UTC: mean ${formatDuration(hour.meanDurationMs)}`}
          />
          <figcaption>
            <p class="muted">
              Each bar is one hour (UTC) with attempts; the last hour is still going on. Times run from the request to
              the answer, or to the failure (a timeout counts its whole wait).
            </p>
            <details>
              <summary>The charts' figures as a table</summary>
              <table>
                <caption class="visually-hidden">Attempts per hour: success rate and time</caption>
                <thead>
                  <tr>
                    <th scope="col">Hour (UTC)</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Succeeded</th>
                    <th scope="col">Success rate</th>
                    <th scope="col">Mean time</th>
                    <th scope="col">Longest</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.hours.map((hour) => (
                    <tr>
                      <th scope="row">{hour.start.toISOString().slice(0, 16).replace("T", " ")}</th>
                      <td>{formatCount(hour.attempts)}</td>
                      <td>{formatCount(hour.succeeded)}</td>
                      <td>{formatRate(hour.successRate)}</td>
                      <td>{formatDuration(hour.meanDurationMs)}</td>
                      <td>{formatDuration(hour.maxDurationMs)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </figcaption>
        </figure>
      ) : null}
    </section>
  );
}
