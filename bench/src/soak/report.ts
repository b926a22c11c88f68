import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { markdownTable, ms, num } from '../readme/table.js';
import type { SoakInterval, SoakResults } from './results.js';

/** Writes results.json and report.md into `dir` (created if missing); returns their paths. */
export async function writeSoakReport(results: SoakResults, dir: string): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const files = { json: join(dir, 'results.json'), markdown: join(dir, 'report.md') };
  const markdown = renderSoakMarkdown(results);
  await Promise.all([
    writeFile(files.json, `${JSON.stringify(results, null, 2)}\n`),
    writeFile(files.markdown, markdown),
  ]);
  return files;
}

/** report.md: the settings, the verdict and its findings, the totals, the errors, the time series. */
export function renderSoakMarkdown(results: SoakResults): string {
  const env = results.environment;
  const parts = [
    `# Soak ${results.runId}`,
    `\`${results.command}\`: ${env.cpuModel}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}, Node ${env.node}.`,
    soakSummary(results),
    `## Time series (every ${results.intervalSec} s)`,
    intervalTable(results.intervals),
    '## Notes',
    env.notes.map((note) => `- ${note}`).join('\n'),
  ];
  return `${parts.join('\n\n')}\n`;
}

/** The verdict, the settings and the totals: shared by report.md and the README's Soak section. */
export function soakSummary(results: SoakResults): string {
  const { verdict, totals } = results;
  const how =
    results.maxRate.source === 'measured'
      ? `${num(results.rate)} req/s, ${num((results.rate / results.maxRate.rps) * 100)}% of the ${num(results.maxRate.rps)} ` +
        `req/s it served at most (closed loop, ${num(results.maxRate.seconds)} s)`
      : `${num(results.rate)} req/s (given)`;
  const latency = totals.latencyMs;
  return [
    `**Verdict: ${verdict.pass ? 'pass' : 'fail'}.** ${results.target} with ${results.stack}; ` +
      `${results.queries.join(' and ')} in equal shares, open loop at ${how}, for ${num(results.durationSec)} s.`,
    verdict.findings.map((line) => `- ${line}`).join('\n'),
    markdownTable(
      ['sent', 'completed', 'failed', 'late sends', 'p50 ms', 'p99 ms', 'max ms'],
      [
        [
          num(totals.sent),
          num(totals.completed),
          num(totals.failed),
          num(totals.late),
          latency ? ms(latency.p50) : '—',
          latency ? ms(latency.p99) : '—',
          latency ? ms(latency.max) : '—',
        ],
      ],
      0,
    ),
    ...(totals.failed > 0
      ? [
          markdownTable(
            ['error', 'count'],
            Object.entries(totals.errors)
              .sort((a, b) => b[1] - a[1])
              .map(([kind, count]) => [kind, num(count)]),
          ),
        ]
      : []),
  ].join('\n\n');
}

function intervalTable(intervals: readonly SoakInterval[]): string {
  const value = (v: number | null, digits = 1) => (v === null ? '—' : num(v, digits));
  return markdownTable(
    [
      't (s)',
      'sent',
      'done',
      'failed',
      'late',
      'p50 ms',
      'p99 ms',
      'RSS MB',
      'heap MB',
      'lag mean / p99 / max ms',
      'CPU',
      'errors',
    ],
    intervals.map((i) => [
      num(i.atSec, Number.isInteger(i.atSec) ? 0 : 1),
      num(i.sent),
      num(i.completed),
      num(i.failed),
      num(i.late),
      i.latencyMs ? ms(i.latencyMs.p50) : '—',
      i.latencyMs ? ms(i.latencyMs.p99) : '—',
      value(i.rssMb),
      value(i.heapUsedMb),
      `${value(i.lagMeanMs, 2)} / ${value(i.lagP99Ms, 2)} / ${value(i.lagMaxMs, 2)}`,
      i.cpuShare === null ? '—' : `${num(i.cpuShare * 100)}%`,
      Object.entries(i.errors)
        .map(([kind, count]) => `${kind} × ${count}`)
        .join(', ') || '–',
    ]),
    0,
  );
}
