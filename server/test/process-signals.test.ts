// The gateway process (server/dist/main.js, what the image and `pnpm start` run): SIGHUP drains
// as SIGTERM does, a crash leaves a fatal log line before the exit, and one rule reads repeated
// stop signals for the single process and the cluster primary alike (stop-signals.ts).
import { EventEmitter } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postGraphQL, ROOT, send, startGateway } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { onStopSignals } from '../src/stop-signals.js';

const FIXTURES = `${ROOT}server/test/fixtures/plugin-modules`;

/** GATEWAY_CONFIG_FILE naming one fixture plugin module with `options`. */
function withPlugin(module: string, options: unknown): Record<string, string> {
  const path = join(mkdtempSync(join(tmpdir(), 'fedgw-process-')), 'gateway.json');
  writeFileSync(path, JSON.stringify({ plugins: [{ module: `${FIXTURES}/${module}`, options }] }));
  return { GATEWAY_CONFIG_FILE: path };
}

describe('SIGHUP', () => {
  it('drains like SIGTERM: /ready 503, the in-flight request finishes, exit 0', async () => {
    // The plugin answers for every subgraph (none runs) and holds each operation 2.5 s: past the
    // drain's delay, in which /ready is read (1 s, so a loaded machine still reads it before the
    // listener closes).
    const gateway = await startGateway('fastify', {
      ...withPlugin('maintenance.mjs', { subgraphs: ['users', 'products', 'reviews'], message: 'off', holdMs: 2500 }),
      SHUTDOWN_DELAY_MS: '1000',
    });
    const inFlight = postGraphQL(gateway.url, { query: '{ topProducts(first: 1) { id } }' });
    await gateway.untilOutput(/maintenance-module: holding an operation/);
    gateway.child.kill('SIGHUP');
    await gateway.untilLog({ msg: 'shutting down', signal: 'SIGHUP' });
    expect((await send(`${gateway.origin}/ready`, { method: 'GET' })).status).toBe(503);
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.errors?.[0]?.message).toBe('products: off');
    expect(await gateway.exited, gateway.output()).toBe(0);
    const messages = gateway.logLines().map((line) => [line.msg, line.signal]);
    expect(messages).toContainEqual(['shutting down', 'SIGHUP']);
    expect(messages).toContainEqual(['shutdown complete', undefined]);
  });
});

describe('a crash leaves a fatal log line, then exit 1', () => {
  it.each([
    ['exception', 'uncaughtException', 'a plugin callback threw'],
    ['rejection', 'unhandledRejection', 'a plugin promise nobody awaited'],
  ])('an uncaught %s', async (crash, origin, message) => {
    const gateway = await startGateway('express', withPlugin('crash.mjs', { crash }));
    // The answer may or may not make it out before the process ends.
    void postGraphQL(gateway.url, { query: '{ __typename }' }).catch(() => undefined);
    expect(await gateway.exited, gateway.output()).toBe(1);
    const fatal = gateway.logLines().filter((line) => line.level === 60);
    expect(fatal).toEqual([
      expect.objectContaining({
        msg: 'uncaught exception: exiting',
        origin,
        err: expect.objectContaining({ message }),
      }),
    ]);
  });
});

describe('stop signals, one rule', () => {
  it('the first stops; only a second SIGINT forces, whatever came between', () => {
    const seen: string[] = [];
    const signals = new EventEmitter();
    const remove = onStopSignals(
      { stop: (signal) => seen.push(`stop ${signal}`), force: (signal) => seen.push(`force ${signal}`) },
      signals,
    );
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGTERM', 'SIGINT']) signals.emit(signal, signal);
    expect(seen).toEqual(['stop SIGTERM']);
    signals.emit('SIGINT', 'SIGINT');
    expect(seen).toEqual(['stop SIGTERM', 'force SIGINT']);
    remove();
    expect(signals.eventNames()).toEqual([]);
  });
});
