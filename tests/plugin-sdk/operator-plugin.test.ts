// An operator's plugin written outside the repository (docs/examples/operator-plugin: its own
// package.json, not a workspace package) against the published SDK only. It is copied where
// an operator would put it in the image (/etc/gateway/config), beside a package
// `@fedgw/gateway` in an ancestor `node_modules` that exports nothing but `./plugin-sdk` (the
// real declarations and code behind it), as the image's /node_modules link provides it:
// `tsc` typechecks and compiles it there, and `pnpm start` loads it from the config file
// and serves its effect over HTTP.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postGraphQL, ROOT, type RunningProcess, spawnNode } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const EXAMPLE = join(ROOT, 'docs/examples/operator-plugin');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/**
 * A filesystem root of its own: `node_modules/@fedgw/gateway` exporting only the SDK, and the
 * example in `etc/gateway/config`. Returns the example's folder.
 */
function operatorTree(root: string): string {
  const sdkOnly = join(root, 'node_modules/@fedgw/gateway');
  mkdirSync(sdkOnly, { recursive: true });
  const gateway = JSON.parse(readFileSync(join(ROOT, 'gateway/package.json'), 'utf8'));
  writeFileSync(
    join(sdkOnly, 'package.json'),
    JSON.stringify({
      name: gateway.name,
      version: gateway.version,
      type: 'module',
      exports: { './plugin-sdk': gateway.exports['./plugin-sdk'] },
    }),
  );
  symlinkSync(join(ROOT, 'gateway/dist'), join(sdkOnly, 'dist'));
  mkdirSync(join(root, 'node_modules/@types'));
  symlinkSync(join(ROOT, 'node_modules/@types/node'), join(root, 'node_modules/@types/node'));
  const folder = join(root, 'etc/gateway/config');
  mkdirSync(folder, { recursive: true });
  for (const entry of ['package.json', 'tsconfig.json', 'gateway.json', 'src']) {
    cpSync(join(EXAMPLE, entry), join(folder, entry), { recursive: true });
  }
  return folder;
}

describe('an operator plugin outside the repository, on the plugin SDK alone', () => {
  let root: string;
  let folder: string;
  let gateway: RunningProcess | undefined;
  let url: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'fedgw-operator-'));
    folder = operatorTree(root);
    const compiled = spawnSync(process.execPath, [TSC, '-p', folder], { encoding: 'utf8', timeout: 60_000 });
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const started = await spawnNode(
      'scripts/launch.mjs',
      {
        GATEWAY_LISTEN_PORT: '0',
        GATEWAY_LISTEN_HOST: '127.0.0.1',
        GATEWAY_LOG_PRETTY: 'false',
        SUPERGRAPH_PATH: join(ROOT, 'supergraph.graphql'),
        GATEWAY_CONFIG_FILE: join(folder, 'gateway.json'),
      },
      /"url":"(http:\/\/[^"]+)".*"msg":"gateway listening"/,
      ['server/dist/main.js'],
    );
    gateway = started.process;
    url = started.match[1] as string;
  }, 90_000);

  afterAll(async () => {
    if (gateway) expect(await gateway.stop()).toBe(0);
    rmSync(root, { recursive: true, force: true });
  });

  it('typechecks and compiles against the SDK export alone (tsc, no error)', () => {
    expect(readFileSync(join(folder, 'dist/tenant-gate.mjs'), 'utf8')).toContain("from '@fedgw/gateway/plugin-sdk'");
  });

  it('refuses a caller without a known tenant with the SDK helper httpError: 401 UNAUTHENTICATED', async () => {
    for (const headers of [{}, { 'x-tenant': 'initech' }] as Record<string, string>[]) {
      const answer = await postGraphQL(url, { query: '{ __typename }' }, headers);
      expect(answer.status).toBe(401);
      expect(answer.body.errors?.[0]).toMatchObject({
        message: 'Unknown tenant: send a known one in x-tenant',
        extensions: { code: 'UNAUTHENTICATED' },
      });
    }
  });

  it("admits a known tenant, and its identity fact reaches the answer's headers", async () => {
    const answer = await postGraphQL(url, { query: '{ __typename }' }, { 'x-tenant': 'acme' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { __typename: 'Query' } });
    expect(answer.headers.get('x-tenant')).toBe('acme');
  });

  it('the same module with a bad option stops the start, naming the option', async () => {
    const config = join(folder, 'bad.json');
    writeFileSync(
      config,
      JSON.stringify({ plugins: [{ module: './dist/tenant-gate.mjs', options: { tenant: 'x' } }] }),
    );
    const failure = await spawnNode(
      'scripts/launch.mjs',
      {
        GATEWAY_LISTEN_PORT: '0',
        GATEWAY_LOG_PRETTY: 'false',
        SUPERGRAPH_PATH: join(ROOT, 'supergraph.graphql'),
        GATEWAY_CONFIG_FILE: config,
      },
      /gateway listening/,
      ['server/dist/main.js'],
    ).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/exited with 1 before it was ready/);
    expect(failure).toMatch(/tenant-gate.*tenants: is required/);
    expect(failure).toMatch(/tenant: unknown/);
  });
});
