import type { UsageDay } from "@hireport/core/extend";
import { formatCount } from "./format";

const CLASSES = ["2xx", "3xx", "4xx", "5xx", "1xx"] as const;
const WIDTH = 720;
const HEIGHT = 220;
const TOP = 10;
const BOTTOM = 30;
const LEFT = 44;

/** A round number at or above `max` for the top of the scale. */
function scaleTop(max: number): number {
  if (max <= 10) return 10;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

/**
 * Requests per day by status class as stacked bars, drawn on the server as SVG (no script, no
 * external image): the SVG has a title and a description for assistive technology, and the same
 * figures follow as a table.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const total = days.reduce((sum, day) => sum + day.total, 0);
  const top = scaleTop(Math.max(0, ...days.map((day) => day.total)));
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const busiest = days.reduce<UsageDay | null>((best, day) => (!best || day.total > best.total ? day : best), null);
  const description = `${formatCount(total)} requests from ${first} to ${last}${
    busiest && busiest.total > 0 ? `; the busiest day was ${busiest.day} with ${formatCount(busiest.total)}` : ""
  }. ${CLASSES.filter((label) => label !== "1xx")
    .map((label) => `${label}: ${formatCount(days.reduce((sum, day) => sum + day.byClass[label], 0))}`)
    .join(", ")}.`;
  return (
    <figure>
      <svg
        class="chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-labelledby="usage-chart-title usage-chart-desc"
      >
        <title id="usage-chart-title">Requests per day for the last {days.length} days, by status class</title>
        <desc id="usage-chart-desc">{description}</desc>
        {[0, 0.5, 1].map((share) => {
          const y = TOP + plot * (1 - share);
          return (
            <g>
              <line x1={LEFT} x2={WIDTH} y1={y} y2={y} />
              <text x={LEFT - 6} y={y + 3} text-anchor="end">
                {formatCount(Math.round(top * share))}
              </text>
            </g>
          );
        })}
        {days.map((day, index) => {
          const x = LEFT + index * slot + (slot - bar) / 2;
          let y = TOP + plot;
          return (
            <g>
              {CLASSES.map((label) => {
                const count = day.byClass[label];
                if (count === 0) return null;
                const height = (count / top) * plot;
                y -= height;
                return (
                  <rect class={`c${label[0]}`} x={x} y={y} width={bar} height={Math.max(height, 0.5)}>
                    <title>{`${day.day}: ${formatCount(count)} ${label}`}</title>
                  </rect>
                );
              })}
              {index % 5 === 0 || index === days.length - 1 ? (
                <text x={x + bar / 2} y={HEIGHT - 12} text-anchor={index === days.length - 1 ? "end" : "middle"}>
                  {day.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul class="legend" aria-hidden="true">
          {CLASSES.filter((label) => label !== "1xx").map((label) => (
            <li>
              <svg width="12" height="12" class="chart" aria-hidden="true">
                <title>{label}</title>
                <rect class={`c${label[0]}`} width="12" height="12" />
              </svg>{" "}
              {label}
            </li>
          ))}
        </ul>
        <details>
          <summary>The chart's figures as a table</summary>
          <table>
            <caption class="visually-hidden">Requests per day by status class</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">2xx</th>
                <th scope="col">3xx</th>
                <th scope="col">4xx</th>
                <th scope="col">5xx</th>
                <th scope="col">All</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr>
                  <th scope="row">{day.day}</th>
                  <td>{formatCount(day.byClass["2xx"])}</td>
                  <td>{formatCount(day.byClass["3xx"])}</td>
                  <td>{formatCount(day.byClass["4xx"])}</td>
                  <td>{formatCount(day.byClass["5xx"])}</td>
                  <td>{formatCount(day.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
