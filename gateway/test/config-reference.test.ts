import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS } from '../src/config/parse.js';
import { settingsReference } from '../src/config/settings-reference.js';

const SCRIPT = `${ROOT}scripts/docs-config.mjs`;
const check = (page: string) =>
  spawnSync(process.execPath, [SCRIPT, '--check', '--page', page], { cwd: ROOT, encoding: 'utf8' });

describe('the settings reference in docs/configuration.md', () => {
  it('documents every setting the parser knows, each with what it means', () => {
    for (const field of CONFIG_FIELDS) expect(field.meaning.length, field.env).toBeGreaterThan(5);
    const table = settingsReference();
    for (const field of CONFIG_FIELDS) expect(table).toContain(`| \`${field.env}\` | \`${field.key}\` |`);
  });

  it('is the committed page (pnpm docs:config regenerates it)', () => {
    const result = check(`${ROOT}docs/configuration.md`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fails the check when the page drifts from the parser', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'config-reference-')), 'configuration.md');
    const committed = readFileSync(`${ROOT}docs/configuration.md`, 'utf8');
    writeFileSync(
      copy,
      committed.replace(
        /\| `GATEWAY_LISTEN_PORT` +\| `port` +\| `4000` /,
        '| `GATEWAY_LISTEN_PORT` | `port` | `8080` ',
      ),
    );
    const result = check(copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/stale; run pnpm docs:config/);
  });
});
