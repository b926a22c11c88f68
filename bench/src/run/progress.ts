import type { LiveTick } from '../load/load-result.js';
import type { RowResult } from './results.js';

/** Without a terminal to redraw a line in, a live line is printed this often. */
const LIVE_EVERY_SEC = 10;

/**
 * One line per finished row, with how far the run is and roughly how long is left, and a live
 * line during each measured window (seconds done, answers per second): redrawn in place on a
 * terminal, printed every 10 s otherwise (CI logs, pipes).
 */
export class Progress {
  readonly #total: number;
  readonly #estimateSec: number;
  readonly #startedAt = Date.now();
  readonly #write: (line: string) => void;
  /** Redraws the current line; undefined when the output is not a terminal. */
  readonly #redraw: ((line: string) => void) | undefined;
  #liveShown = false;
  #done = 0;

  constructor(
    totalRows: number,
    estimateSec: number,
    write: (line: string) => void = (line) => console.log(line),
    redraw: ((line: string) => void) | undefined = process.stdout.isTTY
      ? (line) => process.stdout.write(`\r\x1b[2K${line}`)
      : undefined,
  ) {
    this.#total = totalRows;
    this.#estimateSec = estimateSec;
    this.#write = write;
    this.#redraw = redraw;
  }

  info(message: string): void {
    this.#endLive();
    this.#write(message);
  }

  /** The live line's callback for one row's measured window of `durationSec`. */
  live(scenario: string, label: string, durationSec: number): LiveTick {
    return (secondsDone, answersPerSec) => {
      const line = `  §${scenario} ${label}: ${secondsDone}/${durationSec} s, ${answersPerSec} answers/s`;
      if (this.#redraw) {
        this.#redraw(line);
        this.#liveShown = true;
      } else if (secondsDone % LIVE_EVERY_SEC === 0 && secondsDone < durationSec) this.#write(line);
    };
  }

  row(scenario: string, row: RowResult): void {
    this.#endLive();
    this.#done++;
    const elapsed = (Date.now() - this.#startedAt) / 1000;
    const left = Math.max(0, this.#estimateSec - elapsed);
    const head = `[${this.#done}/${this.#total}] §${scenario} ${row.target} · ${row.variant}`;
    this.#write(`${head}: ${describe(row)}  (${formatDuration(elapsed)} elapsed, ~${formatDuration(left)} left)`);
  }

  /** Clears a redrawn live line so the next line starts on a clean one. */
  #endLive(): void {
    if (!this.#liveShown) return;
    this.#redraw?.('');
    this.#liveShown = false;
  }
}

function describe(row: RowResult): string {
  if (row.status !== 'ok') return `${row.status}${row.message ? ` — ${row.message}` : ''}`;
  const load = row.rate !== undefined ? `${row.rate} req/s` : `${row.connections} conn`;
  const latency = row.latencyMs ? `p50 ${row.latencyMs.p50} ms p99 ${row.latencyMs.p99} ms` : '';
  const cpu = Object.entries(row.cpu ?? {})
    .map(([group, usage]) => `${group} ${Math.round(usage.share * 100)}%`)
    .join(', ');
  const errors = row.errors ? `, ${row.errors} errors` : '';
  const saturated = row.saturated?.length ? ` saturated: ${row.saturated.join(', ')}` : '';
  const warnings = (row.warnings ?? []).map((warning) => `\n    ⚠ ${warning}`).join('');
  const subgraphs =
    row.subgraphRequestsPerRequest === undefined ? '' : `, ${row.subgraphRequestsPerRequest} subgraph req./req.`;
  return `${load}: ${row.rps} req/s, ${latency}${errors}${subgraphs} [CPU ${cpu}]${saturated}${warnings}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
