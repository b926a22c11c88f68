import { defaultOf } from '../settings/kinds.js';
import { CONFIG_FIELDS } from './settings/all.js';

// The settings reference in docs/configuration.md, generated from CONFIG_FIELDS (`pnpm docs:config`):
// names, file keys, defaults and meanings, in their order. A test fails when the committed page
// differs.

type Env = 'production' | 'development';

function shown(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.length === 0 ? '' : `\`${value.join(',')}\``;
  if (typeof value === 'object' && value !== null)
    return Object.keys(value).length === 0 ? '' : `\`${JSON.stringify(value)}\``;
  return `\`${String(value)}\``;
}

function shownDefault(field: (typeof CONFIG_FIELDS)[number]): string {
  if (field.docDefault !== undefined) return field.docDefault;
  const at = (env: Env) => shown(defaultOf(field.parse, env));
  const [dev, prod] = [at('development'), at('production')];
  return dev === prod ? prod : `dev: ${dev}, prod: ${prod}`;
}

/** A renamed setting's old names, which still work (with a deprecation warning). */
function formerly(field: (typeof CONFIG_FIELDS)[number]): string {
  if (!field.formerEnv?.length) return '';
  return ` (formerly ${field.formerEnv.map((name) => `\`${name}\``).join(', ')}: still read, with a deprecation warning)`;
}

/** The reference table: one row per setting, in CONFIG_FIELDS' order. */
export function settingsReference(): string {
  const rows = CONFIG_FIELDS.map(
    (field) => `| \`${field.env}\` | \`${field.key}\` | ${shownDefault(field)} | ${field.meaning}${formerly(field)} |`,
  );
  return ['| variable | file key | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
