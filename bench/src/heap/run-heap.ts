import { createWriteStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '@fedgw/test-support';
import { checkAnswers } from '../load/answer-check.js';
import { runOpenLoop } from '../load/open-loop.js';
import { type BenchQuery, COMPLEX, GET_USER_WITH_PRODUCTS_QUERY, requestBody, sampleUserIds } from '../load/queries.js';
import { type GcMark, type GcSummary, type GcTraceReader, summarizeGc } from '../measure/gc-trace.js';
import { pinProcess } from '../measure/pinning.js';
import { summarize } from '../measure/samples.js';
import { resolveLayout } from '../run/layout.js';
import { createSetups } from '../targets/setups.js';
import { startTarget } from '../targets/start-target.js';
import { startSubgraphs } from '../targets/subgraph-processes.js';
import { Inspector } from './inspector.js';
import type { HeapOptions, HeapQuery } from './options.js';
import { type SamplingProfile, type SamplingSummary, summarizeSampling } from './sampling.js';
import { type ClassTotal, parseHeapSnapshot, type RetainedBy } from './snapshot.js';

const QUERIES: Readonly<Record<HeapQuery, BenchQuery>> = {
  GetUserWithProducts: GET_USER_WITH_PRODUCTS_QUERY,
  ComplexQuery: COMPLEX,
};

/** V8's sampling interval, bytes (its default is 32 KB; the issue-22 profile used 16 KB). */
const SAMPLING_INTERVAL = 16_384;

/** A scavenge, run in the gateway (started with --expose-gc for it). */
const MINOR_GC = "gc({ type: 'minor', execution: 'sync' })";

export interface QueryHeap {
  readonly query: HeapQuery;
  readonly requests: number;
  readonly failed: number;
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  /** Window 1: the GC trace alone. */
  readonly gc: GcSummary | null;
  /** Window 2: every allocation, sampled. */
  readonly allocated: SamplingSummary;
  /** Window 3: what is alive at its end, after a full collection at its start. */
  readonly survivors: SamplingSummary;
  /** Window 3's GC trace: what was promoted in it (to scale the survivors by). */
  readonly survivorsGc: GcSummary | null;
}

export interface SnapshotStep {
  readonly atSec: number;
  readonly heapMb: number;
  readonly requestsSincePrevious: number;
  readonly top: readonly ClassTotal[];
  /** Alive now and not in the previous snapshot. */
  readonly newSincePrevious?: readonly ClassTotal[];
  readonly retainers?: readonly RetainedBy[];
}

export interface HeapRun {
  readonly options: HeapOptions;
  readonly layout: string;
  readonly queries: readonly QueryHeap[];
  readonly snapshots: readonly SnapshotStep[];
}

export async function runHeap(options: HeapOptions, outDir: string, log: (line: string) => void): Promise<HeapRun> {
  const { layout, note } = resolveLayout({ pin: options.pin, cpus: {} });
  if (layout) pinProcess(process.pid, layout.load);
  const setup = (await createSetups()).none;
  const subgraphs = await startSubgraphs(options.basePort + 1, layout?.subgraphs);
  const inspectPort = await freePort();
  try {
    const target = await startTarget({ name: options.target, kind: 'mount' }, setup, {
      port: options.basePort,
      subgraphUrls: subgraphs.urls,
      cpus: layout?.gateway,
      nodeFlags: [`--inspect=127.0.0.1:${inspectPort}`, '--expose-gc', ...options.nodeFlags],
      router: null,
      setupContext: {},
    });
    const trace = target.gcTrace;
    if (!trace) throw new Error(`${options.target}: no GC trace (not a single-process mount)`);
    const inspector = await Inspector.connect('127.0.0.1', inspectPort);
    try {
      const queries = options.queries.map((name) => QUERIES[name]);
      const answers = await checkAnswers({ url: target.url, queries, userIds: sampleUserIds(20) });
      if (!answers.ok) throw new Error(`wrong answer: ${answers.message}`);
      log(`${options.target}: ${answers.checked} answers checked; ${note}`);
      await inspector.call('HeapProfiler.enable');
      const results: QueryHeap[] = [];
      for (const name of options.queries)
        results.push(await measureQuery(name, options, target.url, trace, inspector, outDir, log));
      const last = QUERIES[options.queries.at(-1) as HeapQuery];
      const snapshots = await takeSnapshots(last, options, target.url, inspector, outDir, log);
      return { options, layout: note, queries: results, snapshots };
    } finally {
      inspector.close();
      await target.stop();
    }
  } finally {
    await subgraphs.stop();
  }
}

async function measureQuery(
  name: HeapQuery,
  options: HeapOptions,
  url: string,
  trace: GcTraceReader,
  inspector: Inspector,
  outDir: string,
  log: (line: string) => void,
): Promise<QueryHeap> {
  const query = QUERIES[name];
  const load = (durationSec: number) =>
    runOpenLoop({ url, rate: options.rate, durationSec, body: () => requestBody(query) });
  if (options.warmupSec > 0) await load(options.warmupSec);

  // Exact edges: the window opens at a collection (one forced here would shrink the young
  // generation and change what is promoted after it) and closes with a forced one, whose bytes
  // are the window's last allocations.
  await nextCollection(trace);
  const mark = trace.mark();
  const measured = await load(options.durationSec);
  const end = trace.mark();
  await collect(inspector, trace);
  const requests = finished(trace, mark, measured.ok);
  const gc = summarizeGc(trace.since(mark).slice(0, end.events - mark.events), requests, trace.since(end));
  log(`${name}: ${measured.ok} answered in time, ${requests} finished; ${gcLine(gc)}`);

  await inspector.call('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const sampledMark = trace.mark();
  const sampled = await load(options.durationSec);
  const all = await inspector.call<{ profile: SamplingProfile }>('HeapProfiler.stopSampling');
  const allocated = summarizeSampling(all.profile, finished(trace, sampledMark, sampled.ok));
  if (options.profiles) await writeFile(join(outDir, `${name}.heapprofile`), JSON.stringify(all.profile));
  log(`${name}: sampled ${allocated.totalKbPerRequest} KB allocated per request`);

  // Marked once the forced collection's own lines are in: its promotions are not the window's.
  await collect(inspector, trace);
  const survivorsMark = trace.mark();
  // stopSampling forces a full collection before it builds the profile: without
  // includeObjectsCollectedByMajorGC it would drop every promoted object that died since, which
  // is most of what was promoted. Two scavenges first, so what died young is dropped (minor GC
  // samples are not kept) and what is left is what outlived a scavenge, or is alive at the end.
  await inspector.call('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
  });
  const kept = await load(options.survivorsSec);
  for (let pass = 0; pass < 2; pass++) await inspector.call('Runtime.evaluate', { expression: MINOR_GC });
  const alive = await inspector.call<{ profile: SamplingProfile }>('HeapProfiler.stopSampling');
  const survivors = summarizeSampling(alive.profile, finished(trace, survivorsMark, kept.ok));
  const survivorsGc = trace.summarize(survivorsMark, kept.ok);
  log(`${name}: ${survivors.totalKbPerRequest} KB per request outlived a scavenge`);

  const latency = summarize(measured.samples);
  return {
    query: name,
    requests,
    failed: measured.errors + sampled.errors + kept.errors,
    p50Ms: latency?.p50 ?? null,
    p99Ms: latency?.p99 ?? null,
    gc,
    allocated,
    survivors,
    survivorsGc,
  };
}

/** Snapshots `every` seconds apart while the load runs; each compared with the one before. */
async function takeSnapshots(
  query: BenchQuery,
  options: HeapOptions,
  url: string,
  inspector: Inspector,
  outDir: string,
  log: (line: string) => void,
): Promise<SnapshotStep[]> {
  if (options.snapshots === 0) return [];
  let answered = 0;
  const loadSec = options.snapshots * options.snapshotEverySec + 2;
  const load = runOpenLoop({
    url,
    rate: options.rate,
    durationSec: loadSec,
    body: () => requestBody(query),
    onAnswer: () => {
      answered++;
    },
  });
  // Taken under load; read only after it, so parsing does not stall the load generator.
  const taken: { file: string; atSec: number; requests: number }[] = [];
  let answeredBefore = 0;
  const started = Date.now();
  for (let index = 0; index < options.snapshots; index++) {
    await new Promise((resolve) => setTimeout(resolve, options.snapshotEverySec * 1000));
    const file = join(outDir, `heap-${index + 1}.heapsnapshot`);
    await writeSnapshot(inspector, file);
    taken.push({ file, atSec: Math.round((Date.now() - started) / 1000), requests: answered - answeredBefore });
    answeredBefore = answered;
    log(`snapshot ${index + 1} taken`);
  }
  await load;
  const steps: SnapshotStep[] = [];
  let previousIds: Set<number> | null = null;
  for (const [index, { file, atSec, requests }] of taken.entries()) {
    const graph = parseHeapSnapshot(await readFile(file, 'utf8'));
    const totals = graph.classTotals();
    const heapMb = round(totals.reduce((sum, total) => sum + total.bytes, 0) / 1e6);
    let step: SnapshotStep = { atSec, heapMb, requestsSincePrevious: requests, top: totals.slice(0, 25) };
    if (previousIds) {
      const fresh = graph.newSince(previousIds).slice(0, 25);
      const classes = fresh.slice(0, 12).map((total) => total.name);
      step = { ...step, newSincePrevious: fresh, retainers: graph.retainersOfNew(previousIds, classes) };
    }
    previousIds = graph.ids();
    steps.push(step);
    log(`snapshot ${index + 1}: ${heapMb} MB alive, ${requests} answers since the previous`);
  }
  return steps;
}

async function writeSnapshot(inspector: Inspector, file: string): Promise<void> {
  await rm(file, { force: true });
  const out = createWriteStream(file);
  inspector.on('HeapProfiler.addHeapSnapshotChunk', (params) => {
    out.write((params as { chunk: string }).chunk);
  });
  await inspector.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** A forced full collection, once its trace lines have arrived (they come over the stdout pipe). */
async function collect(inspector: Inspector, trace: GcTraceReader): Promise<void> {
  const before = trace.mark().events;
  await inspector.call('HeapProfiler.collectGarbage');
  for (let waited = 0; waited < 2000 && trace.mark().events === before; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Resolves once the next collection's trace line has arrived (at most 10 s). */
async function nextCollection(trace: GcTraceReader): Promise<void> {
  const before = trace.mark().events;
  for (let waited = 0; waited < 10_000 && trace.mark().events === before; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The requests the gateway finished in the window (its request log lines), else those answered in time. */
function finished(trace: GcTraceReader, mark: GcMark, answered: number): number {
  const logged = trace.requestsSince(mark);
  return logged > 0 ? logged : answered;
}

function gcLine(gc: GcSummary | null): string {
  if (!gc) return 'no collection in the window';
  return (
    `${gc.allocatedKbPerRequest} KB allocated and ${gc.promotedKbPerRequest} KB promoted per request; ` +
    `${gc.scavenges} scavenges, ${gc.markCompacts} mark-compacts (${gc.markCompactPauseMs} ms)`
  );
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
