import type { ProfileRun } from './run-profile.js';
import type { Share } from './summarize.js';

/** summary.md: the run's figures and the profile's self time by part, package and function. */
export function profileMarkdown(run: ProfileRun, invocation: string): string {
  const { options, summary } = run;
  const table = (title: string, shares: readonly Share[]) => [
    `| ${title} | self ms | share of busy time |`,
    '| --- | ---: | ---: |',
    ...shares.map(
      (share) => `| ${share.name.replaceAll('|', '\\|')} | ${share.ms.toFixed(0)} | ${share.percent.toFixed(1)}% |`,
    ),
  ];
  return [
    `# CPU profile: ${options.target}, ${options.query}, setup ${options.setup}`,
    '',
    `\`${invocation}\``,
    '',
    `- ${run.layout}`,
    `- ${options.connections} closed-loop connections, ${options.warmupSec} s warm-up then ${options.durationSec} s measured; node flags: \`--cpu-prof${options.nodeFlags.map((flag) => ` ${flag}`).join('')}\``,
    `- measured window: ${run.rps} answers/s, ${run.failed} failed, gateway ${run.gatewayCpuSecPer1k ?? '?'} CPU-s per 1k answers, peak RSS ${run.peakRssMb ?? '?'} MB (profiling itself slows the gateway: compare these with each other, not with \`pnpm bench\`)`,
    `- profile (startup, warm-up and window): ${(summary.busyMs / 1000).toFixed(1)} s busy, ${(summary.idleMs / 1000).toFixed(1)} s idle; shares below are of the busy time`,
    '',
    ...table('part', summary.categories),
    '',
    ...table('package', summary.packages),
    '',
    ...table('function (self time)', summary.functions),
    '',
  ].join('\n');
}
