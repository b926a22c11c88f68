// Functions a reader can hold (issue 44): no source file over MAX_FILE_LINES lines and no
// function (declaration, method, function expression or arrow) over MAX_FUNCTION_LINES lines,
// measured with the TypeScript parser on the packages' sources (tests excluded). What could not
// be split yet is listed in ALLOWED with its reason; an entry that is no longer needed fails too,
// so the list only shrinks.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const PACKAGES = ['gateway', 'adapters', 'server', 'subgraphs', 'bench', 'scripts', 'test-support'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'test']);

/** Why a long function still stands: issue 44's first pass split the four it named and the files over the bound first. */
const NEXT =
  'not split yet: over the bound before issue 44, left for the next pass (split it by the steps it performs)';

/** `file` (over MAX_FILE_LINES) or `file#function` (over MAX_FUNCTION_LINES), and why it is still long. */
const ALLOWED: Readonly<Record<string, string>> = {
  // Files over MAX_FILE_LINES.
  'gateway/src/plugins/entity-cache/fetch-cache.ts':
    'one class, FetchCache (300 of its lines): its next split is the keeping half (#keep, #store, #entry, #report) into a class of its own',
  // Functions over MAX_FUNCTION_LINES, the next to split.
  'gateway/src/plugins/trusted-documents/manifest.ts#parseManifest': NEXT,
  'subgraphs/src/deployment-files.ts#kubernetesSubgraphs': NEXT,
  'subgraphs/src/deployment-files.ts#kubernetesSubgraphs>map(…)': NEXT,
  'test-support/src/chaos-subgraph.ts#startChaosSubgraph': NEXT,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(join(dir, entry.name));
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [];
  });
}

/**
 * What a function is called where it is written: its name, the variable or property it is
 * assigned to, or, for a callback, `callee(…)`; inside another function, `outer>inner`.
 */
function nameOf(node: ts.Node): string {
  const own = ownName(node);
  for (let up = node.parent; up; up = up.parent) {
    if (ts.isFunctionLike(up) && !ts.isSourceFile(up)) return `${nameOf(up)}>${own}`;
  }
  return own;
}

function ownName(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name))) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return ts.isIdentifier(parent.name) ? parent.name.text : '<anonymous>';
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
    return `${name}(…)`;
  }
  return '<anonymous>';
}

/** Each function of `text` over MAX_FUNCTION_LINES lines, as `name (N lines)`. */
function longFunctions(file: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = PACKAGES.flatMap((name) => sourceFiles(join(ROOT, name))).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

const longFiles = files
  .filter((file) => lineCount(file.text) > MAX_FILE_LINES)
  .map((file) => ({ key: file.path, lines: lineCount(file.text) }));
const functions = files.flatMap((file) =>
  longFunctions(file.path, file.text).map(({ name, lines }) => ({ key: `${file.path}#${name}`, lines })),
);

describe('code shape: files and functions a reader can hold', () => {
  it('measures real sources (the probe sees every package and the parser sees functions)', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(longFunctions('probe.ts', `const f = () => {\n${'  x();\n'.repeat(MAX_FUNCTION_LINES)}};\n`)).toEqual([
      { name: 'f', lines: MAX_FUNCTION_LINES + 2 },
    ]);
  });

  it(`has no source file over ${MAX_FILE_LINES} lines but those allowed, each with its reason`, () => {
    expect(longFiles.filter((file) => !(file.key in ALLOWED))).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines but those allowed, each with its reason`, () => {
    expect(functions.filter((fn) => !(fn.key in ALLOWED))).toEqual([]);
  });

  it('allows nothing that is short already (the list only shrinks)', () => {
    const long = new Set([...longFiles, ...functions].map((entry) => entry.key));
    expect(Object.keys(ALLOWED).filter((key) => !long.has(key))).toEqual([]);
    for (const [key, reason] of Object.entries(ALLOWED)) expect(reason.length, key).toBeGreaterThan(10);
  });
});
