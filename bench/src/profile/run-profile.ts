import { readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { checkAnswers } from '../load/answer-check.js';
import { runClosedLoop } from '../load/closed-loop.js';
import {
  type BenchQuery,
  COMPLEX,
  DASHBOARD,
  GET_USER_WITH_PRODUCTS_QUERY,
  requestBody,
  sampleUserIds,
} from '../load/queries.js';
import { pinProcess } from '../measure/pinning.js';
import { readCpuSeconds, readPeakRssMb, resetPeakRss } from '../measure/proc-stats.js';
import { resolveLayout } from '../run/layout.js';
import { createSetups } from '../targets/setups.js';
import { startTarget } from '../targets/start-target.js';
import { startSubgraphs } from '../targets/subgraph-processes.js';
import type { ProfileOptions, ProfileQuery } from './options.js';
import { type CpuProfile, type ProfileSummary, summarizeProfile } from './summarize.js';

const QUERIES: Readonly<Record<ProfileQuery, BenchQuery>> = {
  GetUserWithProducts: GET_USER_WITH_PRODUCTS_QUERY,
  ComplexQuery: COMPLEX,
  Dashboard: DASHBOARD,
};

export interface ProfileRun {
  readonly options: ProfileOptions;
  readonly layout: string;
  /** Answers per second in the measured window (after the warm-up). */
  readonly rps: number;
  readonly failed: number;
  /** Gateway CPU-seconds per 1,000 answers in the measured window. */
  readonly gatewayCpuSecPer1k: number | null;
  readonly peakRssMb: number | null;
  readonly summary: ProfileSummary;
  readonly profilePath: string;
}

/**
 * One profiled run: subgraphs and gateway as in `pnpm bench` (pinned, NODE_ENV=production, request
 * logs on), the gateway under `--cpu-prof`; answers checked, warm-up, measured window, then a
 * SIGTERM so V8 writes the profile, which is summed by part.
 */
export async function runProfile(
  options: ProfileOptions,
  outDir: string,
  log: (line: string) => void,
): Promise<ProfileRun> {
  const { layout, note } = resolveLayout({ pin: options.pin, cpus: {} });
  if (layout) pinProcess(process.pid, layout.load);
  const query = QUERIES[options.query];
  const setup = (await createSetups())[options.setup];
  const subgraphs = await startSubgraphs(options.basePort + 1, layout?.subgraphs);
  try {
    const target = await startTarget({ name: options.target, kind: 'mount' }, setup, {
      port: options.basePort,
      subgraphUrls: subgraphs.urls,
      cpus: layout?.gateway,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${outDir}`, ...options.nodeFlags],
      router: null,
      setupContext: {},
    });
    const pid = target.process?.pid as number;
    let measured: Awaited<ReturnType<typeof runClosedLoop>>;
    let cpu: number | null = null;
    let peakRssMb: number | null = null;
    try {
      const answers = await checkAnswers({ url: target.url, queries: [query], userIds: sampleUserIds(20) });
      if (!answers.ok) throw new Error(`wrong answer: ${answers.message}`);
      const load = { url: target.url, connections: options.connections, body: () => requestBody(query) };
      log(`${options.target} (${options.setup}), ${query.name}: ${answers.checked} answers checked; ${note}`);
      if (options.warmupSec > 0) await runClosedLoop({ ...load, durationSec: options.warmupSec });
      const cpuBefore = readCpuSeconds(pid);
      resetPeakRss(pid);
      measured = await runClosedLoop({ ...load, durationSec: options.durationSec });
      const cpuAfter = readCpuSeconds(pid);
      const peak = readPeakRssMb(pid);
      peakRssMb = peak === null ? null : Math.round(peak);
      if (cpuBefore !== null && cpuAfter !== null) cpu = cpuAfter - cpuBefore;
    } finally {
      await target.stop();
    }
    const written = (await readdir(outDir)).find(
      (file) => file.endsWith('.cpuprofile') && file !== 'profile.cpuprofile',
    );
    if (!written) throw new Error(`the gateway wrote no .cpuprofile to ${outDir} (did it exit cleanly?)`);
    const profilePath = join(outDir, 'profile.cpuprofile');
    await rename(join(outDir, written), profilePath);
    const summary = summarizeProfile(JSON.parse(await readFile(profilePath, 'utf8')) as CpuProfile);
    const answered = measured.ok;
    return {
      options,
      layout: note,
      rps: Math.round(answered / measured.durationSec),
      failed: measured.errors,
      gatewayCpuSecPer1k: cpu === null || answered === 0 ? null : Math.round((cpu / answered) * 1e6) / 1e3,
      peakRssMb,
      summary,
      profilePath,
    };
  } finally {
    await subgraphs.stop();
  }
}
