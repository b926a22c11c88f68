import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/federation-audit.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'fedgw-audit-args-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The script refuses before it starts anything: no gateway, no audit, nothing downloaded.
function run(args: string[], auditDir?: string) {
  const env = { ...process.env };
  delete env.FEDERATION_AUDIT_DIR;
  if (auditDir) env.FEDERATION_AUDIT_DIR = auditDir;
  return spawnSync(process.execPath, [SCRIPT, ...args], { env, encoding: 'utf8', timeout: 30_000 }); // deadline: a refusal is immediate
}

describe('pnpm audit:federation refuses what it cannot run, naming how to fix it', () => {
  it('without a checkout: exit 2, names --audit-dir and where to clone the audit', () => {
    const result = run([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--audit-dir or FEDERATION_AUDIT_DIR');
    expect(result.stderr).toContain('https://github.com/graphql-hive/federation-gateway-audit');
  });

  it('a directory that is not the audit: exit 2', () => {
    const result = run(['--audit-dir', scratch]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a checkout of @graphql-hive/federation-gateway-audit');
  });

  it('an unknown mount or planner: exit 2, naming it and the accepted ones', () => {
    const fake = join(scratch, 'audit');
    mkdirSync(join(fake, 'node_modules'), { recursive: true });
    writeFileSync(join(fake, 'package.json'), JSON.stringify({ name: '@graphql-hive/federation-gateway-audit' }));
    const mount = run(['--mounts', 'fastify,koa'], fake);
    expect(mount.status).toBe(2);
    expect(mount.stderr).toContain(
      '--mounts: unknown koa (expected some of nest-fastify, nest-express, fastify, express)',
    );
    const planner = run(['--planners', 'rust'], fake);
    expect(planner.status).toBe(2);
    expect(planner.stderr).toContain('--planners: unknown rust');
  });
});
