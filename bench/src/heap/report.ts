import type { HeapRun } from './run-heap.js';
import type { SiteShare } from './sampling.js';

/** summary.md: what a request allocates, what survives, and what keeps it. */
export function heapMarkdown(run: HeapRun, invocation: string): string {
  const { options } = run;
  const lines = [
    `# Heap under §C load: ${options.target}, ${options.rate} req/s`,
    '',
    `\`${invocation}\`. ${run.layout} Windows of ${options.durationSec} s after ${options.warmupSec} s of warm-up.`,
    '1 KB = 1,000 bytes.',
    '',
  ];
  for (const query of run.queries) {
    const gc = query.gc;
    lines.push(`## ${query.query}`, '');
    lines.push(
      `${query.requests} requests finished by the gateway in the GC-trace window (its request log lines; ` +
        `every figure is per finished request; ${query.failed} timed out at the client in all three windows), ` +
        `p50 ${query.p50Ms} ms, p99 ${query.p99Ms} ms.`,
      '',
    );
    if (gc) {
      lines.push(
        '| allocated KB/request | promoted KB/request | scavenges (pause ms) | mark-compacts (pause + steps ms, longest) |',
        '| -------------------: | ------------------: | -------------------: | ----------------------------------------: |',
        `| ${gc.allocatedKbPerRequest} | ${gc.promotedKbPerRequest} | ${gc.scavenges} (${gc.scavengePauseMs}) | ${gc.markCompacts} (${gc.markCompactPauseMs}, ${gc.markCompactMaxMs}) |`,
        '',
      );
    }
    lines.push(
      `**Every allocation, sampled**: ${query.allocated.totalKbPerRequest} KB per request.`,
      '',
      ...table('by package or file', query.allocated.byPart.slice(0, 15)),
      ...table('by site', query.allocated.bySite.slice(0, 25)),
      `**Outlived a scavenge in a window that began with a full collection** (promoted, dead since or ` +
        `not, or alive at its end): ${query.survivors.totalKbPerRequest} KB per request; the trace counted ` +
        `${query.survivorsGc?.promotedKbPerRequest ?? '?'} KB promoted per request in that ${options.survivorsSec} s window ` +
        `(${query.survivorsGc?.markCompacts ?? '?'} full collections in it).`,
      '',
      ...table('survivors by package or file', query.survivors.byPart.slice(0, 15)),
      ...table('survivors by stack (leaf first, up to our own frame)', query.survivors.byStack.slice(0, 25)),
    );
  }
  if (run.snapshots.length > 0) {
    lines.push(`## Heap snapshots under ${run.queries.at(-1)?.query} load`, '');
    for (const [index, step] of run.snapshots.entries()) {
      lines.push(
        `### Snapshot ${index + 1}: ${step.heapMb} MB alive after its full collection, ${step.requestsSincePrevious} answers since the previous`,
        '',
      );
      if (!step.newSincePrevious) {
        lines.push('| class | count | KB |', '| ----- | ----: | -: |');
        for (const total of step.top.slice(0, 15))
          lines.push(`| ${cell(total.name)} | ${total.count} | ${kb(total.bytes)} |`);
        lines.push('');
        continue;
      }
      const requests = Math.max(1, step.requestsSincePrevious);
      lines.push(
        'New since the previous snapshot and still alive:',
        '',
        '| class | count | KB | bytes per answer since |',
        '| ----- | ----: | -: | ---------------------: |',
      );
      for (const total of step.newSincePrevious.slice(0, 15))
        lines.push(
          `| ${cell(total.name)} | ${total.count} | ${kb(total.bytes)} | ${Math.round(total.bytes / requests)} |`,
        );
      lines.push(
        '',
        'What keeps them (nearest retainer first):',
        '',
        '| class | retained by | count | KB |',
        '| ----- | ----------- | ----: | -: |',
      );
      for (const group of step.retainers ?? [])
        lines.push(`| ${cell(group.name)} | ${cell(group.path)} | ${group.count} | ${kb(group.bytes)} |`);
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

function table(title: string, shares: readonly SiteShare[]): string[] {
  return [
    `| ${title} | KB/request | share |`,
    '| --- | ---: | ---: |',
    ...shares.map((share) => `| ${cell(share.name)} | ${share.kbPerRequest} | ${share.percent}% |`),
    '',
  ];
}

function cell(text: string): string {
  return `\`${text.replaceAll('|', '\\|').replaceAll('`', "'")}\``;
}

function kb(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}
