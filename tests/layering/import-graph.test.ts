// The shape of gateway/src, from its import statements (type-only imports included, since a
// type cycle is still a design cycle): no cycle anywhere; config/ only turns env and file into
// a value; compose/ is the one place that builds a gateway from it; the core and the plugins
// never reach up into either, and the core never reaches into a plugin.
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

/** `from './x.js'`, `import('./x.js')`, `export … from`: each relative import, as a file of gateway/src. */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (match) => match[1] as string,
  );
  return specifiers.map((specifier) => {
    const base = normalize(join(dirname(file), specifier)).replace(/\.js$/, '');
    const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
    if (!target) throw new Error(`${file}: cannot resolve ${specifier}`);
    return target;
  });
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file, new Set(files))]));
const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

/** The folder a file is in (`plugins`, `config`…), or `core` for the files at the root. */
const layer = (file: string) => (file.includes('/') ? (file.split('/')[0] as string) : 'core');
/** Files that are the package's public entry points: they may re-export from anywhere. */
const ENTRY = new Set(['index.ts']);
const PLUGIN_LAYERS = new Set(['plugins']);
const CORE_EXCLUDED = new Set(['plugins', 'config', 'compose']);

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

  it('plugins reach the core only through the contract and its kit (contract/kit.ts)', () => {
    expect(
      importsBetween(
        (f) => PLUGIN_LAYERS.has(layer(f)),
        (f) => !PLUGIN_LAYERS.has(layer(f)) && layer(f) !== 'contract',
      ),
    ).toEqual([]);
    // The rule sees plugin imports at all: every plugin folder imports the contract or the kit.
    expect(
      importsBetween(
        (f) => PLUGIN_LAYERS.has(layer(f)),
        (f) => f === 'contract/kit.ts',
      ).length,
    ).toBeGreaterThan(20);
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
