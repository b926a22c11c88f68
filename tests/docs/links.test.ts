// The docs say where things are; this keeps them honest. Every relative Markdown link in the
// README and docs/ (ADRs included) points at a file that exists and, with `#anchor`, at a
// heading that file has (GitHub's slugs); every repository path named in backticks
// (`gateway/src/plugins/metrics/`, `server/test/main.test.ts:12`) exists. The generated run
// reports under docs/results are not checked here (their generator is, in bench/test).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(ROOT, 'docs/adr'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/adr/${name}`),
];

/** Paths a page names before they exist: the example a guide walks through creating. */
const TO_BE_CREATED: Readonly<Record<string, readonly string[]>> = {
  'docs/adding-a-subgraph.md': ['subgraphs/src/inventory/'],
};

/** The repository's top-level folders and files: a backticked path starting with one is a path of ours. */
const TOP_LEVEL = new Set(readdirSync(ROOT).filter((name) => !name.startsWith('.') && name !== 'node_modules'));

/** The page without fenced code blocks (their text is code, not links), line numbers kept. */
function prose(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: its text, lowercased, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(path: string): Set<string> {
  let anchors = anchorCache.get(path);
  if (anchors) return anchors;
  anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = readFileSync(path, 'utf8');
  for (const match of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  anchorCache.set(path, anchors);
  return anchors;
}

interface Problem {
  readonly page: string;
  readonly line: number;
  readonly problem: string;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Relative Markdown links whose file or anchor does not exist (`page` as the repository has it, or `content`). */
function linkProblems(page: string, content = readFileSync(join(ROOT, page), 'utf8')): Problem[] {
  const text = prose(content);
  const problems: Problem[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [file = '', anchor] = target.split('#');
    const path = file === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(file));
    const line = lineOf(text, match.index ?? 0);
    if (!existsSync(path)) {
      problems.push({ page, line, problem: `link to ${target}: no file ${relative(ROOT, path)}` });
    } else if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(path).has(anchor)) {
      problems.push({ page, line, problem: `link to ${target}: ${relative(ROOT, path)} has no heading #${anchor}` });
    }
  }
  return problems;
}

/**
 * Backticked paths of ours that do not exist: `top-level/...` with no wildcard or placeholder.
 * A trailing `:12` (a line) is dropped; a trailing `/` must be a folder.
 */
function pathProblems(page: string, content = readFileSync(join(ROOT, page), 'utf8')): Problem[] {
  const text = prose(content);
  const problems: Problem[] = [];
  for (const match of text.matchAll(/`([^`\s]+)`/g)) {
    const named = (match[1] as string).replace(/:\d+(-\d+)?$/, '');
    const top = named.split('/')[0] as string;
    if (!named.includes('/') || !TOP_LEVEL.has(top) || /[*<>{}…$|,]/.test(named)) continue;
    if (TO_BE_CREATED[page]?.includes(named)) continue;
    const path = join(ROOT, named);
    const line = lineOf(text, match.index ?? 0);
    if (!existsSync(path)) problems.push({ page, line, problem: `\`${named}\` does not exist` });
    else if (named.endsWith('/') && !statSync(path).isDirectory()) {
      problems.push({ page, line, problem: `\`${named}\` is not a folder` });
    }
  }
  return problems;
}

const format = (problems: Problem[]) => problems.map(({ page, line, problem }) => `${page}:${line}: ${problem}`);

describe('docs: links and named paths', () => {
  it('every relative link reaches a file, and its anchor a heading of that file', () => {
    expect(format(PAGES.flatMap((page) => linkProblems(page)))).toEqual([]);
  });

  it('every repository path named in backticks exists', () => {
    expect(format(PAGES.flatMap((page) => pathProblems(page)))).toEqual([]);
  });

  it('the checks find what they look for (a dead anchor, a dead path, GitHub slugs)', () => {
    expect(slug('Header rules (`header-rules`)')).toBe('header-rules-header-rules');
    expect(slug('Security: limits on every request')).toBe('security-limits-on-every-request');
    expect(anchorsOf(join(ROOT, 'README.md')).has('two-commands')).toBe(true);
    expect(anchorsOf(join(ROOT, 'README.md')).has('no-such-heading')).toBe(false);
    // The two checks on a page with one of each fault (issue 35's own two), and their good twins.
    const page = [
      'See [results](../README.md#results) and [two commands](../README.md#two-commands).',
      'Spans: `gateway/src/tracing/`, `gateway/src/plugins/tracing/`.',
      '```sh',
      'ls `gateway/test/plugins/metrics.test.ts`  # code, not a claim',
      '```',
    ].join('\n');
    expect(format(linkProblems('docs/page.md', page))).toEqual([
      'docs/page.md:1: link to ../README.md#results: README.md has no heading #results',
    ]);
    expect(format(pathProblems('docs/page.md', page))).toEqual([
      'docs/page.md:2: `gateway/src/tracing/` does not exist',
    ]);
  });
});
