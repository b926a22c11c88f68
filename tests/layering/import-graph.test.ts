// The shape of gateway/src, from its import statements (type-only imports included, since a
// type cycle is still a design cycle): no cycle anywhere; every import runs down the layers
// (contract/ → settings/ → the core → plugin-sdk/ → plugins/ → config/ → compose/, the entry
// point on top), save the few listed below with their reasons; contract/ holds types only;
// config/ only turns env and file into a value; compose/ is the one place that builds a gateway
// from it; plugins reach the gateway only through the plugin SDK (plugin-sdk/, ADR 055).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

const SRC = join(ROOT, 'gateway/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [relative(SRC, join(dir, entry.name))]
        : [],
  );
}

/** One `import … from`, `export … from` or `import()`: what it names, and whether it loads code. */
interface ImportStatement {
  readonly specifier: string;
  /** `import type`, `export type`, or braces whose every name is `type X`: erased at compile time. */
  readonly typeOnly: boolean;
}

/** The import statements of a TypeScript text. */
function statementsIn(text: string): ImportStatement[] {
  const pattern =
    /(?:^|[\n;])\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => {
    const names = (match[2] ?? '').trim();
    const allTyped =
      /^\{[^}]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '));
    return {
      specifier: (match[3] ?? match[4]) as string,
      typeOnly: match[4] === undefined && (Boolean(match[1]) || allTyped),
    };
  });
}

/** `./x.js` from `file`, as a file of gateway/src; undefined for a package (`graphql`, `node:http`). */
function resolveIn(file: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = normalize(join(dirname(file), specifier)).replace(/\.js$/, '');
  const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
  if (!target) throw new Error(`${file}: cannot resolve ${specifier}`);
  return target;
}

const files = sourceFiles(SRC);
const fileSet = new Set(files);
/** Every import of gateway/src: from a file, to a file of gateway/src or a package. */
const imports = files.flatMap((from) =>
  statementsIn(readFileSync(join(SRC, from), 'utf8')).map((statement) => ({
    from,
    to: resolveIn(from, statement.specifier, fileSet),
    ...statement,
  })),
);
const edges = imports.flatMap(({ from, to }) => (to === undefined ? [] : [{ from, to }]));
const graph = new Map(files.map((file) => [file, edges.filter((edge) => edge.from === file).map((edge) => edge.to)]));

/**
 * The layers, bottom up (docs/architecture.md): a file may import its own layer and those below.
 * Every folder not named here, and the files at the root, are the core.
 */
const LAYERS = ['contract', 'settings', 'core', 'plugin-sdk', 'plugins', 'config', 'compose'] as const;
/** Files that are the package's public entry points: they may re-export from anywhere. */
const ENTRY = new Set(['index.ts']);
/** The layer a file is in: its top folder when that is a layer, else `core`; `entry` for the entry point. */
const layer = (file: string) => {
  if (ENTRY.has(file)) return 'entry';
  const top = file.includes('/') ? (file.split('/')[0] as string) : 'core';
  return (LAYERS as readonly string[]).includes(top) ? top : 'core';
};
const rank = (file: string) =>
  ENTRY.has(file) ? LAYERS.length : LAYERS.indexOf(layer(file) as (typeof LAYERS)[number]);
const PLUGIN_LAYERS = new Set(['plugins']);
const CORE_EXCLUDED = new Set(['plugins', 'config', 'compose', 'plugin-sdk']);

/**
 * Imports that run up the layers on purpose, each with its reason. Everything else that runs up
 * fails the test; an entry that no longer matches an import fails it too, so the list only shrinks.
 */
const UPWARD_ALLOWED: Readonly<Record<string, string>> = {
  // The options toolkit throws the core's coded error (ERR_GATEWAY_PLUGIN_OPTIONS_INVALID) and
  // reports `ConfigIssue`s as config/ does. errors.ts imports nothing of the gateway but the
  // error codes' type: moving it under settings/ would put the gateway's error classes in the
  // folder of value schemas, and touch some thirty importers for no behaviour.
  'settings/plugin-options.ts -> errors.ts': 'coded option errors live with every other coded error',
  // `headerName()` refuses the reserved headers, whose one list is header-names.ts (a leaf: it
  // imports only a contract type) so that header rules, JWT and the options agree on it.
  'settings/plugin-options.ts -> header-names.ts': 'the reserved headers are written once',
};

/** Every import running up the layers, as `from -> to`. */
const upward = () =>
  edges.filter((edge) => rank(edge.to) > rank(edge.from)).map((edge) => `${edge.from} -> ${edge.to}`);

/** Every import from a file that `from` accepts to a file that `to` accepts. */
const importsBetween = (from: (file: string) => boolean, to: (file: string) => boolean) =>
  edges.filter((edge) => from(edge.from) && to(edge.to)).map((edge) => `${edge.from} -> ${edge.to}`);

/** The cycles of `graph` (Tarjan's strongly connected components of more than one file). */
function cycles(of: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    for (const next of of.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of of.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('gateway/src: the import graph', () => {
  it('reads real imports (the probe sees what compose/ builds)', () => {
    expect(files.length).toBeGreaterThan(80);
    expect(
      importsBetween(
        (f) => layer(f) === 'compose',
        (f) => layer(f) === 'plugins',
      ).length,
    ).toBeGreaterThan(5);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
    // The detector itself: a two-file loop is one.
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
  });

  it('every import runs down the layers, save those listed with a reason', () => {
    expect(upward().filter((edge) => !(edge in UPWARD_ALLOWED))).toEqual([]);
    // The list holds only imports that still exist.
    expect(Object.keys(UPWARD_ALLOWED).filter((edge) => !upward().includes(edge))).toEqual([]);
    // The probe sees layers: the core imports contract/ and settings/, compose/ imports plugins/.
    expect(rank('compose/create-gateway.ts')).toBeGreaterThan(rank('plugins/jwt/index.ts'));
    expect(rank('plugin-sdk/index.ts')).toBeGreaterThan(rank('http-error.ts'));
    expect(rank('executor/run-plan.ts')).toBeGreaterThan(rank('contract/plugin.ts'));
  });

  it('contract/ is types only: every import is type-only, and of contract/ or a library', () => {
    const contract = imports.filter((statement) => layer(statement.from) === 'contract');
    expect(contract.length).toBeGreaterThan(15); // the probe reads contract/'s imports
    expect(contract.filter((statement) => !statement.typeOnly).map((s) => `${s.from} -> ${s.specifier}`)).toEqual([]);
    expect(
      contract
        .filter((statement) => statement.to !== undefined && layer(statement.to) !== 'contract')
        .map((s) => `${s.from} -> ${s.to}`),
    ).toEqual([]);
    // The reader tells type-only imports from those that load code.
    expect(statementsIn("import type { A } from './a.js';\nimport { type B, c } from './b.js';")).toEqual([
      { specifier: './a.js', typeOnly: true },
      { specifier: './b.js', typeOnly: false },
    ]);
    expect(statementsIn("export { type A, type B } from './a.js';\nexport { a } from './b.js';")).toEqual([
      { specifier: './a.js', typeOnly: true },
      { specifier: './b.js', typeOnly: false },
    ]);
  });

  it('config/ is imported only by compose/ and the entry point', () => {
    expect(
      importsBetween(
        (f) => !['config', 'compose'].includes(layer(f)) && !ENTRY.has(f),
        (f) => layer(f) === 'config',
      ),
    ).toEqual([]);
  });

  it('compose/ is imported by nothing but the entry point', () => {
    expect(
      importsBetween(
        (f) => layer(f) !== 'compose' && !ENTRY.has(f),
        (f) => layer(f) === 'compose',
      ),
    ).toEqual([]);
  });

  it('the core imports no plugin', () => {
    expect(
      importsBetween(
        (f) => !CORE_EXCLUDED.has(layer(f)) && !ENTRY.has(f),
        (f) => PLUGIN_LAYERS.has(layer(f)),
      ),
    ).toEqual([]);
  });

  it('plugins reach the gateway only through the plugin SDK (plugin-sdk/), as an operator plugin does', () => {
    expect(
      importsBetween(
        (f) => PLUGIN_LAYERS.has(layer(f)),
        (f) => !PLUGIN_LAYERS.has(layer(f)) && f !== 'plugin-sdk/index.ts',
      ),
    ).toEqual([]);
    // The rule sees plugin imports at all: every plugin folder imports the SDK.
    const plugins = new Set(
      importsBetween(
        (f) => PLUGIN_LAYERS.has(layer(f)),
        (f) => f === 'plugin-sdk/index.ts',
      ).map((edge) => edge.split('/')[1]),
    );
    const folders = new Set(files.filter((f) => layer(f) === 'plugins').map((f) => f.split('/')[1]));
    expect([...folders].filter((folder) => folder !== 'shared' && !plugins.has(folder))).toEqual([]);
  });

  it('the plugin SDK is one file, imported by no core file', () => {
    expect(files.filter((f) => layer(f) === 'plugin-sdk')).toEqual(['plugin-sdk/index.ts']);
    expect(
      importsBetween(
        (f) => !CORE_EXCLUDED.has(layer(f)) && !ENTRY.has(f),
        (f) => layer(f) === 'plugin-sdk',
      ),
    ).toEqual([]);
  });

  it("plugins import neither the core's assembly nor config/ nor compose/", () => {
    expect(
      importsBetween(
        (f) => PLUGIN_LAYERS.has(layer(f)),
        (f) => f === 'gateway-core.ts' || layer(f) === 'gateway-core' || ['config', 'compose'].includes(layer(f)),
      ),
    ).toEqual([]);
  });
});
