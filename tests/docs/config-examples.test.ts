// The config files the docs show are read as written: each parses, in the grouped keys (ADR 039
// and its amendment), with no deprecated flat key an operator would copy and then see warned about.
import { readFileSync } from 'node:fs';
import { type ConfigWarning, parseConfig } from '@fedgw/gateway';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

/** The first fenced JSON block after `marker` in a page of docs/. */
function jsonAfter(page: string, marker: string): string {
  const text = readFileSync(`${ROOT}docs/${page}`, 'utf8');
  const at = text.indexOf(marker);
  expect(at, `${page} still says ${marker}`).toBeGreaterThanOrEqual(0);
  const block = /^\s*```json\n([\s\S]*?)^\s*```/m.exec(text.slice(at));
  expect(block, `a JSON block after ${marker} in ${page}`).not.toBeNull();
  return block?.[1] as string;
}

/** The config parsed from `file` as GATEWAY_CONFIG_FILE (in /srv), with the warnings it gave. */
function fromFile(file: string, env: Record<string, string> = {}) {
  const warnings: ConfigWarning[] = [];
  const config = parseConfig(
    { GATEWAY_CONFIG_FILE: 'gateway.json', ...env },
    { cwd: '/srv', readFile: () => file, onWarning: (warning) => warnings.push(warning) },
  );
  const deprecated = warnings.filter((warning) => warning.message.startsWith('deprecated'));
  return { config, deprecated };
}

describe('config files shown in the docs', () => {
  const example = jsonAfter('configuration.md', 'Example file:');

  it('docs/configuration.md: the example file parses into the groups, nothing deprecated', () => {
    const { config, deprecated } = fromFile(example);
    expect(deprecated).toEqual([]);
    expect(config.http).toMatchObject({ bodyLimitBytes: 1024 * 1024, requestTimeoutMs: 20_000 });
    expect(config.limits).toMatchObject({ maxDepth: 12, maxCost: 10_000 });
    expect(config.subscriptions.maxOpen).toBe(50_000);
    expect(config.rateLimit).toMatchObject({ max: 600, windowMs: 60_000, keyBy: 'sub' });
  });

  it('the check sees a flat key from before the groups', () => {
    const flat = JSON.stringify({ ...JSON.parse(example), limits: undefined, maxDepth: 12 });
    expect(fromFile(flat).deprecated.map((warning) => warning.setting)).toEqual(['gateway.json: maxDepth']);
  });

  it('docs/plugins.md: a built-in name and a plugin module, as the start section names them', () => {
    const { config, deprecated } = fromFile(jsonAfter('plugins.md', '**Name it in the config file**'));
    expect(deprecated).toEqual([]);
    expect(config.plugins).toEqual(['client-awareness']);
    expect(config.pluginModules).toEqual([
      {
        entry: 'gateway.json: plugins[1] (./plugins/maintenance.mjs)',
        path: '/srv/plugins/maintenance.mjs',
        options: { subgraphs: ['reviews'], message: 'back at noon' },
      },
    ]);
  });

  it("docs/plugins.md: the header rules, under the file's headerRules.rules", () => {
    const rules = JSON.parse(jsonAfter('plugins.md', '### Header rules'));
    const { config, deprecated } = fromFile(JSON.stringify({ headerRules: { rules } }), {
      GATEWAY_PLUGINS: 'header-rules',
    });
    expect(deprecated).toEqual([]);
    expect(config.headerRules.rules).toEqual(rules);
  });
});
