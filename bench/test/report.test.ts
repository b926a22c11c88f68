import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { headlessChromium } from '@fedgw/test-support';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linearTicks, logTicks, tickLabel } from '../src/report/chart/scale.js';
import { formatCountShare } from '../src/report/format.js';
import { renderHtml } from '../src/report/html.js';
import { formatSummaryTable, writeReport } from '../src/report/index.js';
import { escapeMarkdown, renderMarkdown } from '../src/report/markdown.js';
import { targetColor } from '../src/report/target-colors.js';
import type { BenchResults, ScenarioResult } from '../src/run/results.js';
import { BUILT_IN_TARGETS } from '../src/targets/targets.js';
import { loadSample, sampleWithoutRouter, withRow } from './fixtures/sample.js';

const NOT_INSTALLED = 'not installed — run pnpm router:install';
const HOSTILE = '<script>alert(1)</script>';

const sample = loadSample();

function sectionOf(markdown: string, id: string): string {
  const start = markdown.indexOf(`## §${id} `);
  const next = markdown.indexOf('\n## §', start + 1);
  return markdown.slice(start, next === -1 ? undefined : next);
}

/** The Markdown lines whose first two cells are `target` (marks allowed after it) and `variant`. */
function tableLines(markdown: string, target: string, variant: string): string[] {
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\| ${escaped(target)}( ⚠[\\d,]+)? \\| ${escaped(variant)} \\|`);
  return markdown.split('\n').filter((l) => pattern.test(l));
}

/** The first such line. */
function tableLine(markdown: string, target: string, variant: string): string {
  const line = tableLines(markdown, target, variant)[0];
  if (!line) throw new Error(`no table line for ${target} / ${variant}`);
  return line;
}

/** The part of a section from a table's title to the next bold title. */
function tableOf(section: string, title: string): string {
  const start = section.indexOf(`**${title}`);
  if (start === -1) throw new Error(`no table ${title}`);
  const next = section.indexOf('\n**', start + 2);
  return section.slice(start, next === -1 ? undefined : next);
}

const withTitle = (results: BenchResults, id: ScenarioResult['id'], title: string): BenchResults => ({
  ...results,
  scenarios: results.scenarios.map((s) => (s.id === id ? { ...s, title } : s)),
});

describe('writeReport', () => {
  it('writes results.json, report.md and report.html into the directory and returns their paths', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'fedgw-report-')), 'nested', 'run');
    const files = await writeReport(sample, dir);
    expect(files).toEqual({
      json: join(dir, 'results.json'),
      markdown: join(dir, 'report.md'),
      html: join(dir, 'report.html'),
    });
    expect(JSON.parse(await readFile(files.json, 'utf8'))).toEqual(sample);
    expect(await readFile(files.markdown, 'utf8')).toBe(renderMarkdown(sample));
    expect(await readFile(files.html, 'utf8')).toBe(renderHtml(sample));
  });
});

describe('report.md', () => {
  const md = renderMarkdown(sample);

  it('opens with the environment: CPU, cores, memory, Node, packages, Router, pinning, notes', () => {
    const env = md.slice(0, md.indexOf('## §A'));
    expect(env).toContain('Intel(R) Xeon(R) Processor (2 cores)');
    expect(env).toContain('23.5 GiB');
    expect(env).toContain('v24.21.0');
    expect(env).toContain('@apollo/gateway 2.14.4');
    expect(env).toContain('undici 8.12.4');
    expect(env).toContain('**Apollo Router**: 2.17.0 (/root/.cache/apollo-router/2.17.0/bin/router)');
    expect(env).toContain('gateway CPU 0, subgraphs CPU 1, load generator CPU 1');
    expect(env).toContain('**Duration**: 38 min 13 s');
  });

  it('has a section per scenario, in order, each with our two tables and the seed reference', () => {
    const positions = sample.scenarios.map((s) => md.indexOf(`## §${s.id} — ${s.title}\n`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const s of sample.scenarios) {
      const section = sectionOf(md, s.id);
      expect(section).toContain(`**§${s.id} results`);
      expect(section).toContain(`**§${s.id} CPU and memory`);
      expect(section).toContain('**Seed reference (published)');
      expect(section).toContain('**Ours beside the seed');
    }
  });

  it('names a section once, even when the run put the mark in its title ("§A — §A" never appears)', () => {
    const marked = withTitle(sample, 'A', '§A Apollo Router vs Node gateways');
    const out = renderMarkdown(marked);
    expect(out).toContain('## §A — Apollo Router vs Node gateways\n');
    expect(out).not.toMatch(/§([A-E])\W+§\1/);
    expect(renderHtml(marked)).not.toMatch(/§([A-E])\W+§\1/);
    expect(formatSummaryTable(marked)).toContain('§A  Apollo Router vs Node gateways  (closed-loop)');
  });

  it('shows p90 beside the other percentiles in every results table, units in the headers', () => {
    for (const s of sample.scenarios) {
      const header = tableOf(sectionOf(md, s.id), `§${s.id} results`).split('\n')[2];
      expect(header).toMatch(/\| p50 \(ms\) \| p90 \(ms\) \| p95 \(ms\) \| p99 \(ms\) \| Max \(ms\) \|/);
    }
    expect(tableLine(md, 'standalone', 'GetUserWithProducts')).toBe(
      '| standalone | GetUserWithProducts | ok | 673 | 143 | 162 | 180 | 214 | 2,911 | 0 |',
    );
    // §E promises avg/p50/p90/p95: the mean leads the fixed-rate columns.
    expect(tableLine(sectionOf(md, 'E'), 'nest-fastify', 'rate-limit (memory)')).toBe(
      '| nest-fastify | rate-limit (memory) | 100 req/s | 100 | 2.72 | 2.48 | 3.21 | 3.85 | 7.26 | 51.4 | 0 | 37 (0.62%) |',
    );
  });

  it("puts §C's tail beside the Router's at the same rate, with p99.9 when the run recorded it", () => {
    const c = sample.scenarios.find((s) => s.id === 'C');
    const index = (target: string) => c?.rows.findIndex((r) => r.target === target && r.variant === 'baseline') ?? -1;
    const withP999 = (results: BenchResults, target: string, p999: number) => {
      const row = results.scenarios.find((s) => s.id === 'C')?.rows[index(target)];
      if (!row?.latencyMs) throw new Error(`no §C baseline row for ${target}`);
      return withRow(results, 'C', index(target), { ...row, latencyMs: { ...row.latencyMs, p999 } });
    };
    const section = sectionOf(renderMarkdown(withP999(withP999(sample, 'nest-fastify', 30), 'apollo-router', 6)), 'C');
    const tail = tableOf(section, 'Tail at the same offered load, beside apollo-router');
    // p99 7.877 vs 3.688 ms: 2.14x; p99.9 30 vs 6 ms: 5.00x; CPU 1.475 vs 0.825: 1.79x.
    expect(tableLine(tail, 'nest-fastify', 'baseline')).toBe(
      '| nest-fastify | baseline | 2.42 / 7.88 | 1.90 / 3.69 | 2.14x | 7.88 / 30.0 | 3.69 / 6.00 | 5.00x | 1.79x |',
    );
    // The Router's missing row gives no ratio rather than a made-up one.
    expect(tableLine(tail, 'nest-fastify', 'JWT client awareness')).toContain('| — |');
    expect(tableOf(section, '§C results')).toMatch(/\| p99 \(ms\) \| p99\.9 \(ms\) \| Max \(ms\) \|/);
    // Runs recorded before p99.9 keep their columns.
    expect(tableOf(sectionOf(md, 'C'), '§C results')).not.toContain('p99.9');
  });

  it('shows late sends and errors (with their share) in the fixed-rate tables, and where failures count', () => {
    const e = sectionOf(md, 'E');
    expect(tableOf(e, '§E results')).toContain('| Errors | Late sends |');
    expect(tableLines(e, 'nest-fastify', 'rate-limit (redis)')[2]).toBe(
      '| nest-fastify ⚠1 | rate-limit (redis) | 500 req/s | 500 | 2.49 | 1.60 | 2.46 | 4.06 | 12.9 | 10,000 | 12 (0.040%) | 462 (1.5%) |',
    );
    expect(e).toContain('include every failed request, counted at 10,000 ms (its timeout)');
    expect(tableLine(sectionOf(md, 'C'), 'nest-fastify', 'static subgraph header')).toContain(
      '| 0 | 34 (0.57%) | +0.471 ms | +0.553 ms |',
    );
    // Closed loop: no schedule, so no late-sends column.
    expect(tableOf(sectionOf(md, 'A'), '§A results')).not.toContain('Late sends');
  });

  it('marks every warned row ⚠n in each of its tables and says why under the results table', () => {
    for (const s of sample.scenarios) {
      const section = sectionOf(md, s.id);
      const warned = s.rows.filter((r) => r.warnings?.length);
      for (const [i, row] of warned.entries()) {
        const mark = `⚠${i + 1}`;
        for (const title of [`§${s.id} results`, `§${s.id} CPU and memory`]) {
          const lines = tableLines(tableOf(section, title), row.target, escapeMarkdown(row.variant));
          expect(lines.some((l) => l.startsWith(`| ${row.target} ${mark} |`))).toBe(true);
        }
        expect(section).toContain(`- ${mark} `);
        expect(section.slice(section.indexOf(`- ${mark} `))).toContain(row.warnings?.[0]);
      }
      // Rows without warnings carry no mark in the results table.
      const results = tableOf(section, `§${s.id} results`);
      for (const row of s.rows.filter((r) => !r.warnings?.length)) {
        const lines = tableLines(results, row.target, escapeMarkdown(row.variant));
        expect(lines.some((l) => l.startsWith(`| ${row.target} |`))).toBe(true);
      }
    }
    expect(sectionOf(md, 'A')).toContain(
      '- ⚠1 apollo-router · GetUserWithProducts: the CPU shared by the subgraphs + the load generator saturated',
    );
    expect(sectionOf(md, 'C')).toContain('- ⚠1 nest-fastify · baseline: 1.1% of sends were late (worst 26.8 ms)');
  });

  it('carries a warning into every number derived from a warned row (ratios, deltas, gains)', () => {
    const a = tableOf(sectionOf(md, 'A'), 'Ours beside the seed');
    // The Router row is warned, so every ratio to it is too.
    expect(tableLine(a, 'fastify', 'GetUserWithProducts')).toBe(
      '| fastify ⚠1 | GetUserWithProducts | ok | 1.45x | 1.45x | 1.41x | 1.67x | 4.00x |',
    );
    // §C deltas are against a warned baseline.
    expect(
      tableLine(tableOf(sectionOf(md, 'C'), 'Ours beside the seed'), 'nest-fastify', 'static subgraph header'),
    ).toMatch(/^\| nest-fastify ⚠1 \|/);
    expect(
      tableLine(tableOf(sectionOf(md, 'C'), 'Ours beside the seed'), 'apollo-router', 'static subgraph header'),
    ).toMatch(/^\| apollo-router \|/);
    expect(sectionOf(md, 'B')).toContain('| { \\_\\_typename } · 500 connections | express → fastify ⚠4,5 |');
  });

  it('names every saturated group instead of one bottleneck, and labels what the memory column covers', () => {
    const a = tableOf(sectionOf(md, 'A'), '§A CPU and memory');
    expect(a).toContain('| Saturated (≥ 90% of its CPUs) |');
    expect(tableLine(a, 'apollo-router', 'GetUserWithProducts')).toBe(
      '| apollo-router ⚠1 | GetUserWithProducts | 98% | 0.270 | 81 | router, subgraphs + load generator |',
    );
    expect(tableLine(a, 'nest-express', 'GetUserWithProducts')).toContain('| 343 | none |');
    // standalone's peak is its process's lifetime peak: marked, and the header says what * means.
    expect(a).toContain('| Peak RSS (MB; \\* since the process started) |');
    expect(tableLine(a, 'standalone', 'ComplexQuery')).toContain('| 266 \\* | gateway |');
    expect(tableOf(sectionOf(md, 'D'), '§D CPU and memory')).toContain("| Peak RSS in the row's window (MB) |");
    expect(`${md}${renderHtml(sample)}${formatSummaryTable(sample)}`).not.toMatch(/bottleneck/i);
  });

  it('shows the standalone-undici target, and what the fetcher alone changes', () => {
    expect(tableLine(md, 'standalone-undici', 'GetUserWithProducts')).toContain('| 1,295 |');
    expect(sectionOf(md, 'A')).toContain(
      '| GetUserWithProducts | standalone | 673 req/s | standalone-undici | 1,295 req/s | +92.3% |',
    );
  });

  it('says why a row has no numbers: not installed, wrong answer, skipped, failed', () => {
    const md = renderMarkdown(sampleWithoutRouter());
    expect(tableLine(md, 'apollo-router', 'GetUserWithProducts')).toContain(`| ${NOT_INSTALLED} |`);
    expect(tableLine(md, 'express', 'ComplexQuery · 500 connections')).toContain(
      '| wrong answer: ComplexQuery for user-17: at data.user.orders\\[0\\].product.name',
    );
    expect(tableLine(md, 'apollo-router', 'JWT client awareness')).toContain(
      '| skipped: needs GraphOS-licensed JWT auth |',
    );
    // §A's comparison collapses to one line per query when the Router is missing.
    expect(sectionOf(md, 'A')).toContain(`| every Node target | ComplexQuery | n/a: apollo-router ${NOT_INSTALLED} |`);
  });

  it('puts the seed figures beside ours', () => {
    const b = sectionOf(md, 'B');
    expect(b).toContain('| 500 concurrent, 10 min | 223.7 ms | 2,234 req/s | 172.9 ms | 2,891 req/s | +29.4% |');
    expect(b).toContain(
      '| { \\_\\_typename } · 50 connections | nest-express → nest-fastify | 3,307 req/s | 15.1 ms | 6,521 req/s | 7.65 ms | +97.2% | +18.8% |',
    );
    expect(b).toContain('| ComplexQuery · 50 connections | fastify | 970 req/s | nest-fastify | 1,037 req/s | +6.9% |');
    const a = tableOf(sectionOf(md, 'A'), 'Ours beside the seed');
    expect(a).toContain(
      '| seed (published) | GetUserWithProducts |  | 3.9x (1.5–1.7x same cores) | — | 3.5x | 6.4x | 4.94x (after 1 h) |',
    );
    const c = sectionOf(md, 'C');
    expect(c).toContain(
      '| static subgraph header | 0.65 / 1.12 ms | +0.00 / -0.03 ms | +0.03 / +0.04 ms | +0.44 / +0.49 ms | +0.30 / +0.16 ms |',
    );
    expect(tableLine(tableOf(sectionOf(md, 'D'), 'Ours beside the seed'), 'nest-fastify', 'rate-limit+api-key')).toBe(
      '| nest-fastify | rate-limit+api-key | 2,206 req/s | 88.2% | 63% / 40% |',
    );
    const e = sectionOf(md, 'E');
    expect(e).toContain('| 100 req/s | 3.54 / 4.42 ms | 4.00 / 4.79 ms | 4.36 / 5.14 ms | 4.30 / 5.12 ms |');
    expect(e).toContain('| 500 req/s | 500 req/s | 2.37 ms | 4.02 ms | 1.04x | 3.15x / 5.69x |');
  });

  it('shows hostile strings as text, never as HTML or table structure', () => {
    expect(md).not.toContain('<script');
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const d = sample.scenarios.find((s) => s.id === 'D');
    const piped = withRow(sample, 'D', 0, {
      ...(d?.rows[0] ?? { target: '', variant: '', status: 'ok' }),
      variant: 'a|b',
    });
    const line = tableLine(renderMarkdown(piped), 'nest-fastify', 'a\\|b');
    const cells = (l: string) => l.split(/(?<!\\)\|/).length;
    expect(cells(line)).toBe(cells(tableLine(md, 'nest-fastify', 'demand-control-off')));
  });
});

describe('formatSummaryTable', () => {
  const text = formatSummaryTable(sample);
  const lines = text.split('\n');

  it('has a header per scenario with p90 and the saturated groups, and one line per row', () => {
    for (const s of sample.scenarios) {
      const at = lines.indexOf(`§${s.id}  ${s.title}  (${s.kind})`);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toMatch(
        /^ {2}target +variant +status +load +throughput +p50 +p90 +p95 +p99 +max +errors +.*gateway CPU +peak RSS.* saturated$/,
      );
      const rowLines = lines.slice(at + 2, at + 2 + s.rows.length);
      for (const [i, row] of s.rows.entries()) {
        const variant = row.variant.replace(/[()+{}]/g, '\\$&');
        expect(rowLines[i]).toMatch(new RegExp(`^ {2}${row.target}( ⚠\\d+)? +${variant}`));
      }
    }
  });

  it('prints numbers with units, right-aligned in their columns', () => {
    const ok = lines.filter((l) => / GetUserWithProducts /.test(l) && l.includes(' ok ') && l.includes('100 conn.'));
    expect(ok.length).toBeGreaterThanOrEqual(8);
    expect(ok.find((l) => l.startsWith('  standalone '))).toMatch(
      /ok +100 conn\. +673 req\/s +143 ms +162 ms +180 ms +214 ms +2,911 ms +0 +1\.48 CPU-s\/1k +266 MB +gateway$/,
    );
    expect(new Set(ok.map((l) => l.indexOf('req/s'))).size).toBe(1);
  });

  it('prints late sends and errors at fixed rates, the status in place of numbers, and each warning', () => {
    expect(lines.find((l) => l.startsWith('  nest-fastify ⚠1  rate-limit (redis)'))).toMatch(
      /12 \(0\.040%\) +462 \(1\.5%\) +0\.864 CPU-s\/1k +321 MB +none$/,
    );
    expect(text).toContain(`failed: no successful request (30112 errors): ${HOSTILE}`);
    expect(lines).toContain(
      '  ⚠1 apollo-router · GetUserWithProducts: the CPU shared by the subgraphs + the load generator saturated: this row is not a measure of the target alone',
    );
    expect(lines.find((l) => l.startsWith('  fastify ⚠4'))).toMatch(
      /gateway, subgraphs \+ load generator, load generator$/,
    );
    expect(lines.find((l) => /^ {2}nest-fastify +static subgraph header/.test(l))).toContain('+0.471 ms  +0.553 ms');
  });

  it('gives §A ratios to apollo-router when both rows are ok, and says why not otherwise', () => {
    expect(text).toContain(
      "  fastify vs apollo-router (GetUserWithProducts): CPU per request 1.47x the Router's, peak RSS 4.00x, 69% of Router throughput (Router 1.45x), latency p50 1.41x, p99 1.67x [seed: 3.9x (1.5–1.7x same cores), p50 3.5x, p99 6.4x]",
    );
    expect(text).toContain('  ratio to apollo-router: n/a for 1 more rows (compose-gateway failed)');
    const without = formatSummaryTable(sampleWithoutRouter());
    expect(without).toContain(`  ratio to apollo-router: n/a (apollo-router ${NOT_INSTALLED})`);
  });

  it('does not pass control characters from results to the terminal', () => {
    const row = { target: 'fastify', variant: 'x', status: 'failed' as const, message: '\u001b[2Jboom\r\n' };
    expect(formatSummaryTable(withRow(sample, 'E', 0, row))).not.toMatch(/\p{Cc}(?<!\n)/u);
  });
});

describe('target colours', () => {
  it('gives every built-in target its own colour, and an external one a stable colour of its own', () => {
    const builtIn = BUILT_IN_TARGETS.map(targetColor);
    expect(new Set(builtIn).size).toBe(BUILT_IN_TARGETS.length);
    expect(targetColor('compose-gateway')).toBe(targetColor('compose-gateway'));
    for (const name of ['compose-gateway', 'staging', 'x'.repeat(200)]) {
      expect(builtIn).not.toContain(targetColor(name));
      expect(targetColor(name)).toMatch(/^#[0-9a-f]{6}$/);
    }
  });
});

describe('report.html (markup)', () => {
  const html = renderHtml(sample);

  it('escapes every string from the results and runs no script', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const a = sample.scenarios.find((s) => s.id === 'A');
    const hostile = withRow(sample, 'A', 0, {
      ...(a?.rows[0] ?? { target: '', variant: '', status: 'ok' }),
      target: '"><img src=x onerror=alert(1)>',
      variant: "'><svg onload=alert(2)>",
    });
    const out = renderHtml(hostile);
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<svg onload');
    expect(out).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });

  it('is self-contained: no external scripts, styles, fonts or images, and a CSP that forbids them', () => {
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<link|<img|@import|url\((?!#)|src=/i);
    expect(html.match(/https?:\/\/[^"' )]+/g) ?? []).toEqual(['http://127.0.0.1:4000/graphql']);
  });

  it('draws no NaN or Infinity, even for a scenario with no numbers at all', () => {
    const empty: BenchResults = {
      ...sample,
      scenarios: sample.scenarios.map((s) => ({
        ...s,
        rows: [{ target: 'apollo-router', variant: 'q', status: 'not-installed' as const, message: NOT_INSTALLED }],
      })),
    };
    const out = renderHtml(empty);
    expect(out).toContain(NOT_INSTALLED);
    expect(`${html}${out}${renderMarkdown(empty)}${formatSummaryTable(empty)}`).not.toMatch(/NaN|Infinity/);
  });
});

describe('report.html in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    const { executablePath, args } = await headlessChromium();
    browser = await chromium.launch({ executablePath, headless: true, args: [...args] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(results: BenchResults) {
    const dir = await mkdtemp(join(tmpdir(), 'fedgw-report-'));
    const files = await writeReport(results, dir);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => problems.push(`dialog: ${d.message()}`));
    page.on('request', (r) => requests.push(r.url()));
    const url = pathToFileURL(files.html).href;
    await page.goto(url, { waitUntil: 'load' });
    return { page, dir, url, problems, requests };
  }

  it('renders without errors or requests: one heading per scenario, its charts, its tables', async () => {
    const { page, dir, url, problems, requests } = await open(sample);
    expect(await page.title()).toBe(`Federation gateway benchmark — ${sample.runId}`);
    for (const s of sample.scenarios) {
      const section = page.locator(`#scenario-${s.id}`);
      expect(await section.locator('h2').textContent()).toBe(`§${s.id} — ${s.title}`);
      expect(await section.locator('figure.chart').count()).toBeGreaterThan(0);
      expect(await section.locator('table').count()).toBeGreaterThanOrEqual(4);
    }
    expect(await page.locator('#scenario-E td', { hasText: 'rate-limit (redis)' }).count()).toBeGreaterThan(0);
    expect(await page.locator('#scenario-A td', { hasText: HOSTILE }).count()).toBe(1);
    expect(await page.locator('script').count()).toBe(0);

    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    expect((await stat(png)).size).toBeGreaterThan(50_000);
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });

  it('keeps one colour per target across every chart of every section', async () => {
    const { page } = await open(sample);
    const seen = await page.$$eval('figure.chart .label[data-target]', (labels) =>
      labels.map((l) => [l.getAttribute('data-target'), l.querySelector('.sw')?.getAttribute('style')]),
    );
    const colours = new Map<string, Set<string>>();
    for (const [target, colour] of seen)
      colours.set(String(target), (colours.get(String(target)) ?? new Set()).add(String(colour)));
    // The sample run predates the Hive Gateway and cluster targets: they are checked below, by colour alone.
    const inSample = BUILT_IN_TARGETS.filter((name) => !name.startsWith('hive-') && name !== 'nest-fastify-cluster');
    expect([...colours.keys()]).toEqual(expect.arrayContaining([...inSample, 'compose-gateway']));
    const builtIn = new Set(BUILT_IN_TARGETS.map(targetColor));
    expect(builtIn.size).toBe(BUILT_IN_TARGETS.length);
    for (const [target, set] of colours) expect([target, set.size]).toEqual([target, 1]);
    const distinct = new Set([...colours.values()].map((set) => [...set][0]));
    expect(distinct.size).toBe(colours.size);
    await page.close();
  });

  it('draws each finding: §A per target, §B one panel per connection count, §C deltas, §D kept %, §E per store', async () => {
    const { page } = await open(sample);
    const a = page.locator('#chart-A-throughput');
    expect(await a.locator('.bar').count()).toBe(15);
    expect(await a.locator('.value', { hasText: '2,493 req/s · 69% of Router ⚠1' }).count()).toBe(1);
    expect(await page.locator('#chart-A-latency .track .mk.p50').count()).toBe(15);

    const b = page.locator('#chart-B-throughput');
    const counts = ['50 connections', '200 connections', '500 connections'];
    expect(await b.locator('.panel h4').allTextContents()).toEqual([...counts, ...counts]);
    expect(await b.locator('.facet-title').allTextContents()).toEqual(['{ __typename }', 'ComplexQuery']);
    for (const panel of await b.locator('.panel').all()) expect(await panel.locator('.label').count()).toBe(4);
    expect(await page.locator('#chart-B-latency .panel').count()).toBe(6);

    const c = page.locator('#chart-C-deltas');
    expect(await c.locator('.panel h4').allTextContents()).toEqual(['Δ p50 vs baseline', 'Δ p99 vs baseline']);
    expect(await c.locator('.bar').count()).toBe(10);
    expect(await c.locator('.value.neg', { hasText: '-0.351 ms' }).count()).toBe(1);
    expect(await c.locator('figcaption').textContent()).toContain('no run-to-run spread is shown');
    expect(await c.locator('.status', { hasText: 'skipped: needs GraphOS-licensed JWT auth' }).count()).toBe(2);

    const d = page.locator('#chart-D-kept');
    expect(await d.locator('.value').allTextContents()).toEqual([
      '100.0% · 2,501 req/s',
      '94.1% · 2,353 req/s',
      '92.1% · 2,304 req/s',
      '88.2% · 2,206 req/s',
      '74.1% · 1,853 req/s',
    ]);
    expect(await d.locator('.gl.ref').count()).toBe(5);

    const e = page.locator('#chart-E-rates');
    expect(await e.locator('.group').allTextContents()).toEqual([
      'nest-fastify · rate-limit (memory)',
      'nest-fastify · rate-limit (redis)',
    ]);
    const rates = ['100 req/s', '300 req/s', '500 req/s'];
    expect(await e.locator('.label .name').allTextContents()).toEqual([...rates, ...rates]);
    await page.close();
  });

  it('marks every warned row ⚠ in every chart, linked to a note that exists', async () => {
    const { page } = await open(sample);
    for (const s of sample.scenarios) {
      const warned = s.rows.filter((r) => r.warnings?.length);
      for (const [i, row] of warned.entries()) {
        const id = `note-${s.id}-${i + 1}`;
        expect(await page.locator(`#${id}`).textContent()).toContain(row.warnings?.[0]);
        for (const chart of await page.locator(`#scenario-${s.id} figure.chart`).all()) {
          // A row that appears in this chart with its own label must carry its mark there.
          const labels = chart.locator(`.label[data-target="${row.target}"]`);
          const marked = chart.locator(`.label[data-target="${row.target}"] a.mark[href="#${id}"]`);
          if ((await labels.count()) > 0) expect(await marked.count()).toBeGreaterThan(0);
        }
        expect(await page.locator(`#scenario-${s.id} tr.flagged a.mark[href="#${id}"]`).count()).toBeGreaterThan(0);
      }
    }
    for (const href of await page.$$eval('a.mark', (as) => as.map((a) => a.getAttribute('href')))) {
      expect(await page.locator(String(href)).count()).toBe(1);
    }
    await page.close();
  });
});

describe('chart scales', () => {
  it('puts linear ticks on round steps from 0 past the largest value', () => {
    expect(linearTicks(1_412)).toEqual([0, 500, 1_000, 1_500]);
    expect(linearTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(linearTicks(2).map((t) => tickLabel(t))).toEqual(['0', '0.5', '1', '1.5', '2']);
    expect(linearTicks(0)).toEqual([0, 1]);
  });

  it('puts log ticks on 1-2-5 steps around the data, thinning them to fit', () => {
    expect(logTicks(1.91, 11)).toEqual([1, 2, 5, 10, 20]);
    expect(logTicks(0.65, 1.12)).toEqual([0.5, 1, 2]);
    expect(logTicks(2, 2)).toEqual([1, 2, 5]);
    expect(logTicks(0.001, 5_000)).toEqual([0.001, 0.01, 0.1, 1, 10, 100, 1_000, 10_000]);
    expect(logTicks(0.001, 5_000, 5)).toEqual([0.001, 0.1, 10, 1_000, 100_000]);
    expect([0.001, 0.5, 1_000].map((t) => tickLabel(t))).toEqual(['0.001', '0.5', '1,000']);
    expect([1_000, 2_500, 10_000].map((t) => tickLabel(t, true))).toEqual(['1k', '2.5k', '10k']);
  });
});

describe('counts with their share', () => {
  it('gives small shares two significant digits, and never shows a non-zero count as 0%', () => {
    expect(formatCountShare(84, 200_000)).toBe('84 (0.042%)');
    expect(formatCountShare(3, 30)).toBe('3 (10%)');
    expect(formatCountShare(1, 1_000_000)).toBe('1 (<0.001%)');
    expect(formatCountShare(0, 1_000_000)).toBe('0');
  });
});
