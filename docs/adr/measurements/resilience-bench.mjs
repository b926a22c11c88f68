// ADR 019: per-call CPU of our retries and breaker against cockatiel.
// After `pnpm build`, copy this file into a scratch directory, `npm i cockatiel@4.0.0` there, and run
// `REPO=<this repository> node resilience-bench.mjs` with Node 24 (ESM resolves packages from the scratch directory).
import { pathToFileURL } from 'node:url';
import { circuitBreaker, ExponentialBackoff, handleWhenResult, retry, SamplingBreaker, wrap } from 'cockatiel';

const { RetryingFetch } = await import(
  new URL('gateway/dist/subgraph-fetch/retrying-fetch.js', pathToFileURL(`${process.env.REPO}/`)).href
);

const N = 300_000;
const ok = { received: { status: 200 }, unhealthy: false };
const ours = new RetryingFetch({
  timeoutMs: 30_000,
  retry: { maxRetries: 1, backoffMs: 50, budgetRatio: 0.1, budgetMinPerSecond: 10 },
  circuitBreaker: { failureRate: 0.5, minRequests: 20, cooldownMs: 5000 },
  onCircuitChange() {},
  onRetry() {},
});
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
const send = async () => ok;
async function time(label, fn) {
  for (let i = 0; i < 20_000; i++) await fn(); // warm up
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const cpu = process.cpuUsage(t0);
  const wall = performance.now() - w0;
  console.log(
    `${label}: ${(((cpu.user + cpu.system) / N) * 1000).toFixed(0)} ns CPU/call, ${((wall / N) * 1e6).toFixed(0)} ns wall/call`,
  );
}
const base = () => send();
await time('bare call', base);
await time('ours (RetryingFetch.run)', () => ours.run(true, () => send()));
await time('cockatiel (retry+breaker)', () => policy.execute(() => send()));
await time('AbortSignal.timeout alone', async () => AbortSignal.timeout(30_000));
await time('cockatiel + AbortSignal.timeout', () => {
  AbortSignal.timeout(30_000);
  return policy.execute(() => send());
});
