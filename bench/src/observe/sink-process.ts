import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@fedgw/test-support';
import { request } from 'undici';
import { repoPath } from '../paths.js';
import { type ManagedProcess, spawnManaged } from '../targets/child.js';
import { COUNTS_PATH, type SinkCounts } from './otlp-sink.js';

export interface RunningSink {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the gateway. */
  readonly endpoint: string;
  readonly process: ManagedProcess;
  counts(): Promise<SinkCounts>;
}

/** The OTLP sink (`node bench/dist/observe/otlp-sink-main.js`) on a free loopback port, pinned like Redis. */
export async function startSinkProcess(cpus: string | undefined): Promise<RunningSink> {
  const port = await freePort();
  const child = spawnManaged({
    name: 'otlp-sink',
    command: process.execPath,
    args: [repoPath('bench', 'dist', 'observe', 'otlp-sink-main.js'), String(port)],
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
    cwd: repoPath(),
    cpus,
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const counts = () => readCounts(endpoint);
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await counts();
      return { endpoint, process: child, counts };
    } catch (error) {
      const exit = child.exitDescription();
      if (exit || Date.now() > deadline) {
        await child.stop();
        throw new Error(`otlp-sink did not start (${exit ?? (error as Error).message}):\n${child.output()}`);
      }
      await sleep(50);
    }
  }
}

/** GET /counts of a sink at `endpoint`. */
export async function readCounts(endpoint: string): Promise<SinkCounts> {
  const response = await request(`${endpoint}${COUNTS_PATH}`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`otlp-sink: GET ${COUNTS_PATH} answered ${response.statusCode}`);
  }
  return (await response.body.json()) as SinkCounts;
}
