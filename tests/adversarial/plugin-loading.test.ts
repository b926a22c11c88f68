import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, spawnNode } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// Class: a plugin module that the start accepts but that never serves. One that hangs while
// loading left the process up, never ready, with no line naming it; one whose hooks are not
// functions was accepted, and then every request it met was a 500. Both now stop the start with
// a coded error naming the module (and the hook), through the shipped entry point.

/** A config file naming one module, written beside it in a folder of its own. */
function withModule(source: string): { file: string; entry: string } {
  const folder = mkdtempSync(join(tmpdir(), 'fedgw-plugin-loading-'));
  writeFileSync(join(folder, 'plugin.mjs'), source);
  const file = join(folder, 'gateway.json');
  writeFileSync(file, JSON.stringify({ plugins: [{ module: './plugin.mjs' }] }));
  return { file, entry: `${file}: plugins[0] (./plugin.mjs)` };
}

/**
 * Starts `node server/dist/main.js` with the config file and waits for it to exit. A gateway
 * that starts anyway is stopped and reported, so the test fails with what it did instead.
 */
async function startExpectingFailure(file: string, env: Record<string, string> = {}) {
  const started = spawnNode(
    'server/dist/main.js',
    {
      GATEWAY_LISTEN_PORT: '0',
      GATEWAY_LISTEN_HOST: '127.0.0.1',
      GATEWAY_LOG_PRETTY: 'false',
      SUPERGRAPH_PATH: `${ROOT}supergraph.graphql`,
      GATEWAY_CONFIG_FILE: file,
      ...env,
    },
    /"msg":"gateway listening"/,
  );
  const outcome = await started.then(
    async ({ process }) => {
      await process.stop();
      return { started: true as const, output: process.output() };
    },
    (error: Error) => ({ started: false as const, output: error.message }),
  );
  const fatal = outcome.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.level === 60);
  return { ...outcome, fatal };
}

describe('a plugin module that never finishes loading', () => {
  it.each([
    [
      'its import (a top-level await that never settles)',
      'await new Promise(() => {});\nexport default () => ({ name: "x" });',
    ],
    ['its factory (a promise that never settles)', 'export default () => new Promise(() => {});'],
  ])(
    'stuck in %s: exit 1 within GATEWAY_PLUGIN_MODULE_TIMEOUT_MS, the fatal line naming the module',
    async (_, source) => {
      const { file, entry } = withModule(source);
      const outcome = await startExpectingFailure(file, { GATEWAY_PLUGIN_MODULE_TIMEOUT_MS: '300' });
      expect(outcome.started).toBe(false);
      expect(outcome.output).toMatch(/exited with 1 before it was ready/);
      expect(outcome.fatal).toMatchObject({
        msg: 'gateway failed to start',
        code: 'ERR_GATEWAY_PLUGIN_MODULE_TIMEOUT',
        err: { message: expect.stringContaining(`plugin module ${entry}: still loading after 300 ms`) },
      });
    },
  );
});

describe('a plugin whose hooks are not functions', () => {
  it.each([
    [
      'onSubgraphRequest',
      '{ name: "maint", onSubgraphRequest: "yes" }',
      'hook onSubgraphRequest is a string, not a function',
    ],
    [
      'authenticate',
      '{ name: "auth", authenticate: { token: true } }',
      'hook authenticate is an object, not a function',
    ],
    [
      'apollo.requestDidStart',
      '{ name: "ap", apollo: { requestDidStart: 1 } }',
      'hook apollo.requestDidStart is a number, not a function',
    ],
  ])('%s: refused at start (exit 1), naming the module and the hook', async (_, plugin, reason) => {
    const { file, entry } = withModule(`export default () => (${plugin});`);
    const outcome = await startExpectingFailure(file);
    expect(outcome.started).toBe(false);
    expect(outcome.fatal).toMatchObject({
      msg: 'gateway failed to start',
      code: 'ERR_GATEWAY_PLUGIN_MODULE_INVALID',
      err: { message: expect.stringContaining(`plugin module ${entry}: its plugin `) },
    });
    expect(String((outcome.fatal?.err as { message?: string })?.message)).toContain(reason);
  });
});
