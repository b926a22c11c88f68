// A renamed setting keeps its old name working, with a deprecation warning: a deployment that
// copied this template must not break, or silently lose a setting, on upgrade.
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type ConfigWarning, parseConfig } from '../../src/config/parse.js';
import { settingsReference } from '../../src/config/settings-reference.js';

function parseWithWarnings(env: Record<string, string>) {
  const warnings: ConfigWarning[] = [];
  const config = parseConfig(env, { onWarning: (warning) => warnings.push(warning) });
  return { config, warnings };
}

const RENAMED = [
  ['DEFAULT_LIST_SIZE', 'DEMAND_CONTROL_LIST_SIZE', 'defaultListSize', '3', 3],
  ['CLIENT_NAME_CLAIM', 'CLIENT_AWARENESS_NAME_CLAIM', 'clientNameClaim', 'azp', 'azp'],
  ['CLIENT_VERSION_CLAIM', 'CLIENT_AWARENESS_VERSION_CLAIM', 'clientVersionClaim', 'ver', 'ver'],
] as const;

describe('renamed settings', () => {
  it.each(RENAMED)('%s still sets what %s sets, with a warning naming both', (old, now, key, raw, value) => {
    const { config, warnings } = parseWithWarnings({ [old]: raw });
    expect((config as unknown as Record<string, unknown>)[key]).toEqual(value);
    expect(warnings).toContainEqual({ setting: old, message: expect.stringContaining(`renamed ${now}`) });
  });

  it.each(RENAMED)('%s and %s both set: the new name wins and the old one is reported', (old, now, key, raw) => {
    const newer = key === 'defaultListSize' ? '7' : 'sub';
    const { config, warnings } = parseWithWarnings({ [old]: raw, [now]: newer });
    expect(String((config as unknown as Record<string, unknown>)[key])).toBe(newer);
    expect(warnings).toContainEqual({ setting: old, message: expect.stringContaining(`${now} is set too`) });
  });

  it('a bad value under the old name is refused naming the old name', () => {
    expect(() => parseConfig({ DEFAULT_LIST_SIZE: 'many' })).toThrow(/DEFAULT_LIST_SIZE: expected an integer/);
  });

  it('the new names are the ones read without a warning', () => {
    const { warnings } = parseWithWarnings({ DEMAND_CONTROL_LIST_SIZE: '3', CLIENT_AWARENESS_NAME_CLAIM: 'azp' });
    expect(warnings.filter((warning) => warning.message.includes('deprecated'))).toEqual([]);
  });

  it('no former name is a current name, and none is listed twice', () => {
    const current = new Set(CONFIG_FIELDS.map((field) => field.env));
    const former = CONFIG_FIELDS.flatMap((field) => field.formerEnv ?? []);
    expect(former.filter((name) => current.has(name))).toEqual([]);
    expect(new Set(former).size).toBe(former.length);
    expect(former.sort()).toEqual(RENAMED.map(([old]) => old).sort());
  });

  it('the settings reference names each old name', () => {
    const reference = settingsReference();
    for (const [old, now] of RENAMED) {
      const row = reference.split('\n').find((line) => line.startsWith(`| \`${now}\``));
      expect(row).toContain(`formerly \`${old}\``);
    }
  });
});
