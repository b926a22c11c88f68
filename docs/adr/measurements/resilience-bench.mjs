// ADR 019: per-call CPU of our retries and breaker against cockatiel, around a trivial async function.
// After `pnpm build`, copy this file into a scratch directory, `npm i cockatiel@4.0.0` there, and run
// `REPO=<this repository> node resilience-bench.mjs` with Node 24 (ESM resolves packages from the
// scratch directory). Optional: BASE=<a build of 371c30e or older> adds that RetryingFetch (a callback
// per fetch and per attempt), PROTO=<a build with retrying-fetch-cockatiel.ts in place of
// gateway/src/subgraph-fetch/retrying-fetch.ts> adds our semantics on cockatiel.
// Each row runs in a process of its own (no timers or garbage left by another row), rows interleaved
// over ROUNDS. "(no deadline)": AbortSignal.timeout returns one shared signal, so the row shows the
// policy alone; the deadline signal, which a fetch needs with either, has its own row.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { circuitBreaker, ExponentialBackoff, handleWhenResult, retry, SamplingBreaker, wrap } from 'cockatiel';

const load = async (root) =>
  (await import(new URL('gateway/dist/subgraph-fetch/retrying-fetch.js', pathToFileURL(`${root}/`)).href))
    .RetryingFetch;

const N = 300_000;
const ROUNDS = 3;
const ok = { received: { status: 200 }, unhealthy: false };
const options = {
  timeoutMs: 30_000,
  retry: { maxRetries: 1, backoffMs: 50, budgetRatio: 0.1, budgetMinPerSecond: 10 },
  circuitBreaker: { failureRate: 0.5, minRequests: 20, cooldownMs: 5000 },
  onCircuitChange() {},
  onRetry() {},
};
// What the data source hands the loop per fetch: its request, and the HTTP side that sends it.
const attempter = { send: async () => ok };
const request = () => ({ headers: {}, body: '{}', readLimit: 1e9, keepText: false, context: undefined });
const SHARED_SIGNAL = new AbortController().signal;
const noDeadline = () => {
  AbortSignal.timeout = () => SHARED_SIGNAL;
};

const ours = new (await load(process.env.REPO))(options);
const base = process.env.BASE && new (await load(process.env.BASE))(options);
const proto = process.env.PROTO && new (await load(process.env.PROTO))(options);
const policy = wrap(
  retry(
    handleWhenResult((r) => r.unhealthy && r.retryable),
    { maxAttempts: 1, backoff: new ExponentialBackoff({ initialDelay: 50 }) },
  ),
  circuitBreaker(
    handleWhenResult((r) => r.unhealthy),
    { halfOpenAfter: 5000, breaker: new SamplingBreaker({ threshold: 0.5, duration: 10_000, minimumRps: 2 }) },
  ),
);

/** [label, one call, setup run once before the warm-up] */
const rows = [
  ['bare call', () => attempter.send()],
  ['AbortSignal.timeout alone', async () => AbortSignal.timeout(30_000)],
  ['ours: RetryingFetch.run', () => ours.run(true, attempter, request())],
  ['ours (no deadline)', () => ours.run(true, attempter, request()), noDeadline],
  ['cockatiel wrap(retry, circuitBreaker)', () => policy.execute(() => attempter.send())],
  ['cockatiel wrap + AbortSignal.timeout', () => policy.execute(() => attempter.send(), AbortSignal.timeout(30_000))],
];
if (base) {
  // Before: a request object, a tooLarge callback and a send callback per fetch, a callback per attempt.
  const before = () => {
    const send = { ...request(), tooLarge: (status) => ({ status }) };
    return base.run(true, (signal, retryDelay) => attempter.send(send, signal, retryDelay));
  };
  rows.push(['ours before (callbacks)', before], ['ours before (no deadline)', before, noDeadline]);
}
if (proto) {
  const glued = () => proto.run(true, attempter, request());
  rows.push(['our semantics on cockatiel', glued], ['our semantics on cockatiel (no deadline)', glued, noDeadline]);
}

async function time(fn) {
  for (let i = 0; i < 20_000; i++) await fn(); // warm up
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const cpu = process.cpuUsage(t0);
  return { cpu: ((cpu.user + cpu.system) / N) * 1000, wall: ((performance.now() - w0) / N) * 1e6 };
}

if (process.env.ROW !== undefined) {
  const [, fn, setup] = rows[Number(process.env.ROW)];
  setup?.();
  console.log(JSON.stringify(await time(fn)));
} else {
  console.log(
    `Node ${process.version}, ${N} calls a row after 20,000 warm-up; ns a call, CPU / wall, a column a round`,
  );
  const results = rows.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = rows.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const env = { ...process.env, ROW: `${i}` };
      results[i].push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env }).toString()));
    }
  }
  rows.forEach(([label], i) => {
    const cells = results[i].map((r) => `${r.cpu.toFixed(0)} / ${r.wall.toFixed(0)}`.padStart(15));
    console.log(`${label.padEnd(42)}${cells.join('')}`);
  });
}
