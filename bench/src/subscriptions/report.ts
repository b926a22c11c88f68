import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { markdownTable, ms, num } from '../readme/table.js';
import type { SubscriptionResults, SubscriptionRow } from './results.js';

/** Writes results.json and report.md into `dir` (created if missing); returns their paths. */
export async function writeSubscriptionReport(
  results: SubscriptionResults,
  dir: string,
): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const files = { json: join(dir, 'results.json'), markdown: join(dir, 'report.md') };
  await Promise.all([
    writeFile(files.json, `${JSON.stringify(results, null, 2)}\n`),
    writeFile(files.markdown, renderSubscriptionMarkdown(results)),
  ]);
  return files;
}

/** report.md: machine and versions, the method, the table, each row's problems, the notes. */
export function renderSubscriptionMarkdown(results: SubscriptionResults): string {
  const env = results.environment;
  const versions = Object.entries(env.packages)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  const problems = results.rows.filter((row) => row.problems || (row.status === 'failed' && row.message));
  const parts = [
    `# Subscriptions ${results.runId}`,
    `\`${results.command}\`: ${env.cpuModel}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}, Node ${env.node}; ${versions}.`,
    `Subscription: \`${results.document}\``,
    results.method,
    subscriptionTable(results.rows),
    ...(results.rows.some((row) => rowWarning(row)) ? [warningLines(results.rows)] : []),
    ...(problems.length > 0
      ? [
          '## Problems',
          problems
            .map(
              (row) =>
                `- ${row.target} · ${row.subscribers ?? 'every N'}: ${row.message ?? ''} ${JSON.stringify(row.problems ?? {})}`,
            )
            .join('\n'),
        ]
      : []),
    '## Notes',
    env.notes.map((note) => `- ${note}`).join('\n'),
  ];
  return `${parts.join('\n\n')}\n`;
}

/** One line per target and N; a target not measured has one line saying why. */
export function subscriptionTable(rows: readonly SubscriptionRow[]): string {
  const headers = [
    'target',
    'subscribers',
    'events',
    'events/s',
    'deliveries/s',
    'p50 / p99 ms',
    'gateway CPU-ms per event',
    'CPU-µs per delivery',
    'gateway CPU (cores)',
    'subgraph CPU-ms per event',
    'peak RSS MB',
  ];
  let warned = 0;
  return markdownTable(
    headers,
    rows.map((row) => {
      if (row.status !== 'ok') {
        const message =
          row.status === 'not-measured' ? (row.message ?? 'not measured') : `failed: ${row.message ?? ''}`;
        const subscribers = row.subscribers === null ? 'all' : num(row.subscribers);
        return [row.target, subscribers, message, ...headers.slice(3).map(() => '')];
      }
      return [
        `${row.target}${rowWarning(row) ? ` ⚠${++warned}` : ''}`,
        num(row.subscribers ?? undefined),
        num(row.events),
        num(row.eventsPerSec, (row.eventsPerSec ?? 0) < 100 ? 1 : 0),
        num(row.deliveriesPerSec),
        row.latencyMs ? `${ms(row.latencyMs.p50)} / ${ms(row.latencyMs.p99)}` : '—',
        cpuMs(row.gatewayCpuMsPerEvent),
        num(row.gatewayCpuUsPerDelivery, 0),
        num(row.gatewayCpuShare, 2),
        cpuMs(row.subgraphCpuMsPerEvent),
        num(row.peakRssMb ?? undefined),
      ];
    }),
    1,
  );
}

/** CPU milliseconds with about three significant digits: 0.412, 6.67, 254. */
function cpuMs(value: number | undefined): string {
  if (value === undefined) return num(value);
  return num(value, value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0);
}

/** Below this share of its core the gateway was not what set the pace of a row. */
export const SATURATED_SHARE = 0.8;

/**
 * Why a measured row's events/s and latency are not the gateway's limit, or undefined: the
 * gateway used less than SATURATED_SHARE of its core, so the closed loop (mutation round trips),
 * the core the subgraphs and clients share, or other processes set the pace. CPU per event
 * still holds.
 */
export function rowWarning(row: SubscriptionRow): string | undefined {
  if (row.status !== 'ok' || row.gatewayCpuShare === undefined || row.gatewayCpuShare >= SATURATED_SHARE)
    return undefined;
  return (
    `the gateway used ${num(row.gatewayCpuShare, 2)} of its core (subgraphs ${num(row.subgraphCpuShare, 2)} + ` +
    `clients ${num(row.clientCpuShare, 2)} of the core they share): events/s and latency were set elsewhere, by ` +
    'the closed loop or a busy core; compare CPU per event'
  );
}

function warningLines(rows: readonly SubscriptionRow[]): string {
  const lines: string[] = [];
  for (const row of rows) {
    const warning = rowWarning(row);
    if (warning) lines.push(`⚠${lines.length + 1} ${row.target} · ${num(row.subscribers ?? undefined)}: ${warning}`);
  }
  return lines.join('\\\n');
}
