import { useId } from 'react';
import { shortDay } from './format.ts';
import { useWidth } from './use-width.ts';

// Hand-written SVG charts. Drawn at the container's real pixel width so labels keep
// their size on a phone; each chart has a title, a summary for screen readers and its numbers in
// a table behind "Show numbers".

export interface Series {
  label: string;
  values: number[];
  color: string;
}

const AXIS = '#a1a1b5';
const GRID = '#2a2a3a';

/** A rounded "nice" maximum for the y axis. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(value));
  const f = value / exp;
  const step = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return step * exp;
}

/** 0, half and max — without a half tick whose label would repeat another (counts of 1). */
function ticks(max: number, integer: boolean): number[] {
  return integer && !Number.isInteger(max / 2) ? [0, max] : [0, max / 2, max];
}

interface DailyProps {
  title: string;
  days: string[];
  series: Series[];
  format?: (n: number) => string;
  /** Counts: no half-unit tick. */
  integer?: boolean;
  height?: number;
}

/** Stacked bars, one per day. */
export function DailyBarChart({ title, days, series, format = String, integer = false, height = 200 }: DailyProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const titleId = useId();
  const totals = days.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  // Room for the longest y label at 11 px (about 6.5 px per character).
  const left = Math.max(32, Math.ceil(format(max).length * 6.5) + 12);
  const bottom = 24;
  const plotW = Math.max(10, width - left - 8);
  const plotH = height - bottom - 8;
  const slot = plotW / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const y = (v: number) => 8 + plotH - (v / max) * plotH;
  const every = Math.ceil(days.length / Math.max(2, Math.floor(plotW / 56)));
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <figure className="flex flex-col gap-2">
      <figcaption id={titleId} className="text-sm font-semibold text-white">
        {title}
      </figcaption>
      <div ref={ref} className="relative w-full overflow-hidden" style={{ height }}>
        <svg
          width={width}
          height={height}
          className="absolute inset-0"
          role="img"
          aria-labelledby={titleId}
          aria-describedby={`${titleId}-sum`}
        >
          <desc
            id={`${titleId}-sum`}
          >{`${days.length} days from ${days[0] ?? ''} to ${days[days.length - 1] ?? ''}, total ${format(total)}.`}</desc>
          {ticks(max, integer).map((v) => (
            <g key={v}>
              <line x1={left} x2={width - 8} y1={y(v)} y2={y(v)} stroke={GRID} />
              <text x={left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill={AXIS}>
                {format(v)}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            let acc = 0;
            return (
              <g key={d}>
                {series.map((s) => {
                  const v = s.values[i] ?? 0;
                  if (v <= 0) return null;
                  const top = y(acc + v);
                  const h = y(acc) - top;
                  acc += v;
                  return (
                    <rect
                      key={s.label}
                      x={left + i * slot + (slot - bar) / 2}
                      y={top}
                      width={bar}
                      height={Math.max(1, h)}
                      rx={Math.min(3, bar / 3)}
                      fill={s.color}
                    >
                      <title>{`${shortDay(d)} · ${s.label}: ${format(v)}`}</title>
                    </rect>
                  );
                })}
                {i % every === 0 && (
                  <text x={left + i * slot + slot / 2} y={height - 6} textAnchor="middle" fontSize="11" fill={AXIS}>
                    {shortDay(d)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      {series.length > 1 && <Legend series={series} />}
      <details className="text-sm text-muted">
        <summary className="cursor-pointer">Show numbers</summary>
        <table className="mt-2 w-full text-left">
          <thead>
            <tr>
              <th className="py-1 font-medium">Day</th>
              {series.map((s) => (
                <th key={s.label} className="py-1 font-medium">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d}>
                <td className="py-0.5">{shortDay(d)}</td>
                {series.map((s) => (
                  <td key={s.label} className="py-0.5">
                    {format(s.values[i] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <ul className="flex flex-wrap gap-4 text-sm text-muted">
      {series.map((s) => (
        <li key={s.label} className="flex items-center gap-2">
          <svg width="12" height="12" aria-hidden="true">
            <rect width="12" height="12" rx="3" fill={s.color} />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

interface HorizontalProps {
  title: string;
  rows: { label: string; value: number }[];
  color?: string;
}

/** One labelled horizontal bar per row (orders by tracker stage); labels go above the bars on a phone. */
export function HorizontalBarChart({ title, rows, color = '#8b5cf6' }: HorizontalProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const titleId = useId();
  const stacked = width < 480;
  const rowH = stacked ? 40 : 26;
  const labelW = stacked ? 0 : 210;
  const valueW = 36;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const plotW = Math.max(10, width - labelW - valueW - 8);
  const height = rows.length * rowH;
  return (
    <figure className="flex flex-col gap-2">
      <figcaption id={titleId} className="text-sm font-semibold text-white">
        {title}
      </figcaption>
      <div ref={ref} className="relative w-full overflow-hidden" style={{ height }}>
        <svg
          width={width}
          height={height}
          className="absolute inset-0"
          role="img"
          aria-labelledby={titleId}
          aria-describedby={`${titleId}-sum`}
        >
          <desc id={`${titleId}-sum`}>{rows.map((r) => `${r.label}: ${r.value}`).join('; ')}</desc>
          {rows.map((r, i) => {
            const w = (r.value / max) * plotW;
            const barY = stacked ? i * rowH + 20 : i * rowH + rowH / 2 - 8;
            return (
              <g key={r.label}>
                <text
                  x={stacked ? 0 : labelW - 8}
                  y={stacked ? i * rowH + 14 : barY + 12}
                  textAnchor={stacked ? 'start' : 'end'}
                  fontSize="12"
                  fill={AXIS}
                >
                  {r.label}
                </text>
                <rect x={labelW} y={barY} width={plotW} height={14} rx={4} fill={GRID} opacity={0.5} />
                {r.value > 0 && <rect x={labelW} y={barY} width={Math.max(4, w)} height={14} rx={4} fill={color} />}
                <text x={labelW + plotW + 6} y={barY + 12} fontSize="12" fill="#e5e7eb">
                  {r.value}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}
