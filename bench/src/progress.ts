import type { RowResult } from './results.js';

/** One line per finished row, with how far the run is and roughly how long is left. */
export class Progress {
  readonly #total: number;
  readonly #estimateSec: number;
  readonly #startedAt = Date.now();
  readonly #write: (line: string) => void;
  #done = 0;

  constructor(totalRows: number, estimateSec: number, write: (line: string) => void = (line) => console.log(line)) {
    this.#total = totalRows;
    this.#estimateSec = estimateSec;
    this.#write = write;
  }

  info(message: string): void {
    this.#write(message);
  }

  row(scenario: string, row: RowResult): void {
    this.#done++;
    const elapsed = (Date.now() - this.#startedAt) / 1000;
    const left = Math.max(0, this.#estimateSec - elapsed);
    const head = `[${this.#done}/${this.#total}] §${scenario} ${row.target} · ${row.variant}`;
    this.#write(`${head}: ${describe(row)}  (${formatDuration(elapsed)} elapsed, ~${formatDuration(left)} left)`);
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
  return `${load}: ${row.rps} req/s, ${latency}${errors} [CPU ${cpu}]${row.bottleneck ? ` bottleneck: ${row.bottleneck}` : ''}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
