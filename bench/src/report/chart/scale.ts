/** Where a value falls along a chart's axis, and the ticks to label it with. */
export interface Scale {
  /** Position of `value` along the axis, 0–100 (percent of the plot's width), clamped. */
  readonly at: (value: number) => number;
  readonly ticks: readonly number[];
  readonly log: boolean;
  /** Ticks as `2k`, `10k`: for narrow panels. */
  readonly compact?: boolean;
}

/** Smallest value a log axis can place (a 0 ms latency is drawn at 1 µs). */
const LOG_FLOOR = 0.001;

/** Drops float noise: 1.5000000000000002 → 1.5. */
const clean = (n: number) => Number(n.toPrecision(12));

/** Round steps (1, 2 or 5 × 10ⁿ) from `min` to `max` (0 included when between them), about `count` of them. */
export function linearTicksBetween(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, min);
  const hi = Math.max(0, max);
  if (!(hi - lo > 0)) return [0, 1];
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const first = Math.floor(clean(lo / step)) * step;
  const ticks: number[] = [];
  for (let t = first; t < hi + step / 2; t += step) ticks.push(clean(t));
  if ((ticks.at(-1) ?? 0) < hi) ticks.push(clean((ticks.at(-1) ?? 0) + step));
  return ticks;
}

/** Round steps (1, 2 or 5 × 10ⁿ) from 0 to at least `max`, about `count` of them. */
export function linearTicks(max: number, count = 5): number[] {
  return linearTicksBetween(0, max, count);
}

/**
 * Log-scale ticks covering [min, max]: 1-2-5 steps for a narrow range, powers of ten for a
 * wide one, every other power when even those would be more than `maxTicks`.
 */
export function logTicks(min: number, max: number, maxTicks = 9): number[] {
  const lo = Math.floor(Math.log10(Math.max(LOG_FLOOR, min)));
  const hi = Math.ceil(Math.log10(Math.max(LOG_FLOOR, max)));
  const mantissas = hi - lo > 3 ? [1] : [1, 2, 5];
  const all: number[] = [];
  for (let e = lo; e <= hi; e++) for (const m of mantissas) all.push(clean(m * 10 ** e));
  let first = Math.max(
    0,
    all.findLastIndex((t) => t <= min),
  );
  let last = all.findIndex((t) => t >= max);
  if (last === -1) last = all.length - 1;
  // One value (min = max on a tick) still gets an axis around it.
  if (first === last) [first, last] = [Math.max(0, first - 1), Math.min(all.length - 1, last + 1)];
  const ticks = all.slice(first, last + 1);
  if (ticks.length <= maxTicks) return ticks;
  const powers = ticks.filter((t) => Number.isInteger(Math.log10(t)) || t === ticks[0] || t === ticks.at(-1));
  if (powers.length <= maxTicks) return powers;
  // Every k-th power of ten from the first, extended so the last still covers `max`.
  const k = Math.ceil((hi - lo) / (maxTicks - 1));
  const sparse: number[] = [];
  for (let e = lo; e < hi + k; e += k) {
    sparse.push(clean(10 ** e));
    if (10 ** e >= max) break;
  }
  return sparse;
}

/** Tick labels: `0.5`, `20`, `1,000`, `-0.2`; compact: `1k`, `2.5k`, `10k`. */
export function tickLabel(value: number, compact = false): string {
  if (compact && Math.abs(value) >= 1000) return `${clean(value / 1000)}k`;
  return Math.abs(value) >= 1
    ? value.toLocaleString('en-US', { maximumFractionDigits: 2 })
    : String(Number(value.toPrecision(2)));
}

/** The same scale with compact tick labels. */
export const compactScale = (scale: Scale): Scale => ({ ...scale, compact: true });

/** A linear axis from its first to its last tick (0 included). */
export function linearScale(min: number, max: number, count = 5): Scale {
  const ticks = linearTicksBetween(min, max, count);
  const lo = ticks[0] ?? 0;
  const hi = ticks.at(-1) ?? 1;
  return { ticks, log: false, at: (v) => clamp(((v - lo) / (hi - lo || 1)) * 100) };
}

/** A log₁₀ axis covering [min, max]; values at or below 0 sit at its floor. */
export function logScale(min: number, max: number, maxTicks?: number): Scale {
  const ticks = logTicks(Math.max(LOG_FLOOR, min), Math.max(LOG_FLOOR, max), maxTicks);
  const lo = Math.log10(ticks[0] ?? LOG_FLOOR);
  const hi = Math.log10(ticks.at(-1) ?? 1);
  return {
    ticks,
    log: true,
    at: (v) => clamp(((Math.log10(Math.max(LOG_FLOOR, v)) - lo) / (hi - lo || 1)) * 100),
  };
}

const clamp = (percent: number) => Math.min(100, Math.max(0, percent));
