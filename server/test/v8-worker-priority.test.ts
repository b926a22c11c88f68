// The gateway process lowers V8's background threads below its request thread (issue 31: on a
// core they share, a full collection's helper threads took half of it from requests).
import { getPriority } from 'node:os';
import { parseConfig } from '@fedgw/gateway';
import { startGateway } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { V8_WORKER_THREAD } from '../src/v8-worker-priority.js';
import { threadNices } from './helpers/proc-stat.js';

describe.runIf(process.platform === 'linux')("V8's helper threads yield to the request thread", () => {
  // What this test runner itself runs at (a CI job may be niced): the gateway inherits it.
  const inherited = getPriority();

  it('by default, every V8Worker thread at nice 10 and the main thread as started', async () => {
    const gateway = await startGateway('fastify', {});
    try {
      const threads = threadNices(gateway.child.pid as number);
      const workers = threads.filter(([name]) => V8_WORKER_THREAD.test(name));
      expect(workers.length).toBeGreaterThan(0);
      // A runner started above nice 10 is left as it is: the gateway never raises a priority.
      expect(
        workers.every(([, nice]) => nice === Math.max(10, inherited)),
        JSON.stringify(threads),
      ).toBe(true);
      expect(threads.find(([name]) => /MainThread$/.test(name))?.[1]).toBe(inherited);
      const listening = gateway.logLines().find((line) => line.msg === 'gateway listening');
      expect(listening).toMatchObject({ v8WorkerNice: 10, v8WorkersNiced: inherited < 10 ? workers.length : 0 });
    } finally {
      await gateway.stop();
    }
  });

  it('GATEWAY_V8_WORKER_NICE=0 leaves them as Node starts them', async () => {
    const gateway = await startGateway('express', { GATEWAY_V8_WORKER_NICE: '0' });
    try {
      const workers = threadNices(gateway.child.pid as number).filter(([name]) => V8_WORKER_THREAD.test(name));
      expect(workers.length).toBeGreaterThan(0);
      expect(workers.every(([, nice]) => nice === inherited)).toBe(true);
      expect(gateway.logLines().find((line) => line.msg === 'gateway listening')).toMatchObject({ v8WorkersNiced: 0 });
    } finally {
      await gateway.stop();
    }
  });
});

describe('GATEWAY_V8_WORKER_NICE', () => {
  it('takes 0 to 19 and names itself when out of range', () => {
    expect(parseConfig({}).v8WorkerNice).toBe(10);
    expect(parseConfig({ GATEWAY_V8_WORKER_NICE: '5' }).v8WorkerNice).toBe(5);
    expect(() => parseConfig({ GATEWAY_V8_WORKER_NICE: '20' })).toThrow(/GATEWAY_V8_WORKER_NICE/);
    expect(() => parseConfig({ GATEWAY_V8_WORKER_NICE: '-1' })).toThrow(/GATEWAY_V8_WORKER_NICE/);
  });
});
