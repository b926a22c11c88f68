import { existsSync } from 'node:fs';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../src/report/html.js';
import { formatSummaryTable, writeReport } from '../src/report/index.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { linearTicks, logTicks, tickLabel } from '../src/report/svg.js';
import type { BenchResults } from '../src/results.js';
import { loadSample, sampleWithRouter, withRow } from './fixtures/sample.js';

const NOT_INSTALLED = 'not installed — run pnpm router:install';
const HOSTILE = '<script>alert(1)</script>';
const CHROMIUM = '/usr/bin/chromium';

const sample = loadSample();

function sectionOf(markdown: string, id: string): string {
  const start = markdown.indexOf(`## §${id} `);
  const next = markdown.indexOf('\n## §', start + 1);
  return markdown.slice(start, next === -1 ? undefined : next);
}

/** The Markdown table line whose first two cells are `target` and `variant`. */
function tableLine(markdown: string, target: string, variant: string): string {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${target} | ${variant} |`));
  if (!line) throw new Error(`no table line for ${target} / ${variant}`);
  return line;
}

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
    expect(env).toContain('AMD EPYC 7B13 (4 cores)');
    expect(env).toContain('15.6 GiB');
    expect(env).toContain('v20.20.2');
    expect(env).toContain('@apollo/gateway 2.14.4');
    expect(env).toContain('fastify 5.12.8');
    expect(env).toContain(`**Apollo Router**: ${NOT_INSTALLED}`);
    expect(env).toContain('gateway CPU 0, subgraphs CPU 1-2, load generator CPU 3');
    expect(env).toContain('Each process group pinned with taskset');
    expect(env).toContain('**Duration**: 29 min 44 s');
  });

  it('has a section per scenario, in order, each with our table and the seed reference', () => {
    const positions = sample.scenarios.map((s) => md.indexOf(`## §${s.id} — ${s.title}`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const s of sample.scenarios) {
      const section = sectionOf(md, s.id);
      expect(section).toContain(`**§${s.id} results`);
      expect(section).toContain('**Seed reference (published)');
      expect(section).toContain('**Ours beside the seed');
    }
  });

  it('formats numbers with their units and keeps sub-millisecond deltas', () => {
    const line = tableLine(md, 'standalone', 'GetUserWithProducts');
    for (const text of ['1,412 req/s', '70.8 ms', '129 ms', '219 ms', '476 ms', '97%', '0.687 CPU-s/1k', '196 MB']) {
      expect(line).toContain(` ${text} |`);
    }
    expect(tableLine(md, 'fastify', 'static-header')).toContain('| +0.041 ms | +0.118 ms |');
    expect(tableLine(sectionOf(md, 'D'), 'fastify', 'rate-limit (memory)')).toContain('| 90.1% |');
  });

  it('says why a row has no numbers: not installed, wrong answer', () => {
    expect(tableLine(md, 'apollo-router', 'GetUserWithProducts')).toContain(`| ${NOT_INSTALLED} |`);
    expect(tableLine(md, 'express', '500 connections')).toContain(
      '| wrong answer: answer check failed before measuring',
    );
    // §A's comparison collapses to one line per query when the Router is missing.
    expect(sectionOf(md, 'A')).toContain(`| every Node target | ComplexQuery | n/a: apollo-router ${NOT_INSTALLED} |`);
  });

  it('flags rows whose bottleneck is not the gateway', () => {
    expect(tableLine(md, 'fastify', 'ComplexQuery')).toContain('| ⚠ subgraphs |');
    expect(sectionOf(md, 'A')).toContain(
      '> ⚠ fastify · ComplexQuery: throughput limited by the subgraphs, not the gateway',
    );
    expect(sectionOf(md, 'B')).toContain('throughput limited by the load generator, not the gateway');
    expect(tableLine(md, 'standalone', 'ComplexQuery')).toContain('| gateway |');
  });

  it('puts the seed figures beside our ratios', () => {
    const b = sectionOf(md, 'B');
    expect(b).toContain('| 500 concurrent, 10 min | 223.7 ms | 2,234 req/s | 172.9 ms | 2,891 req/s | +29.4% |');
    expect(b).toContain(
      '| 50 connections | nest-express → nest-fastify | 1,180 req/s | 45.3 ms | 1,322 req/s | 40.5 ms | +12.0% | +18.8% |',
    );
    expect(b).toContain('| 50 connections | fastify | 1,379 req/s | nest-fastify | 1,322 req/s | -4.1% |');
    const c = sectionOf(md, 'C');
    expect(c).toContain(
      '| static subgraph header | 0.65 / 1.12 ms | +0.00 / -0.03 ms | +0.03 / +0.04 ms | +0.44 / +0.49 ms | +0.30 / +0.16 ms |',
    );
    expect(c).toContain(
      '| fastify | jwt-client-awareness | 1.91 ms / 3.40 ms | +0.164 ms | +0.391 ms | JWT client awareness | n/a | +0.61 / +0.61 ms |',
    );
    expect(
      tableLine(sectionOf(md, 'D').split('**Ours beside')[1] ?? '', 'nest-fastify', 'rate-limit (redis) + jwt-auth'),
    ).toBe('| nest-fastify | rate-limit (redis) + jwt-auth | 921 req/s | 68.6% | 63% / 40% |');
    const e = sectionOf(md, 'E');
    expect(e).toContain('| 100 req/s | 3.54 / 4.42 ms | 4.00 / 4.79 ms | 4.36 / 5.14 ms | 4.30 / 5.12 ms |');
    expect(e).toContain('| 500 req/s | 500 req/s | 4.86 ms | 11.9 ms | 3.71x | 3.15x / 5.69x |');
  });

  it('computes Node ÷ Router ratios when the Router ran', () => {
    const md = renderMarkdown(sampleWithRouter());
    expect(md).toContain('**Apollo Router**: 2.6.0 (/opt/router/router)');
    const a = sectionOf(md, 'A');
    // 3,100 ÷ 1,388 req/s; RSS 196 MB ÷ 49 MB; the seed's 3.9x beside it.
    expect(tableLine(a.split('**Ours beside')[1] ?? '', 'fastify', 'GetUserWithProducts')).toBe(
      '| fastify | GetUserWithProducts | ok | 2.23x | 3.9x (1.5–1.7x same cores) | 2.28x | — | 2.23x | 3.5x | 3.45x | 6.4x | 4.00x | 4.94x (after 1 h) |',
    );
    expect(a).not.toContain('| every Node target |');
  });

  it('shows hostile strings as text, never as HTML or table structure', () => {
    expect(md).not.toContain('<script');
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const piped = withRow(sample, 'D', 0, {
      ...(sample.scenarios[3]?.rows[0] ?? { target: '', variant: '', status: 'ok' }),
      variant: 'a|b',
    });
    const line = tableLine(renderMarkdown(piped), 'fastify', 'a\\|b');
    expect(line.split(/(?<!\\)\|/).length).toBe(tableLine(md, 'fastify', 'none').split(/(?<!\\)\|/).length);
  });
});

describe('formatSummaryTable', () => {
  const text = formatSummaryTable(sample);
  const lines = text.split('\n');

  it('has a header per scenario and one line per row', () => {
    for (const s of sample.scenarios) {
      const at = lines.indexOf(`§${s.id}  ${s.title}  (${s.kind})`);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toMatch(
        /^ {2}target +variant +status +load +throughput +p50 +p95 +p99 +max +errors +gateway CPU +peak RSS/,
      );
      const rowLines = lines.slice(at + 2, at + 2 + s.rows.length);
      for (const [i, row] of s.rows.entries()) {
        const variant = row.variant.replace(/[()+]/g, '\\$&');
        expect(rowLines[i]).toMatch(new RegExp(`^ {2}${row.target} +${variant}`));
      }
    }
  });

  it('prints numbers with units, right-aligned in their columns', () => {
    const ok = lines.filter((l) => l.includes(' GetUserWithProducts ') && l.includes(' ok '));
    expect(ok).toHaveLength(5);
    expect(ok[0]).toMatch(
      /ok +100 conn\. +1,412 req\/s +70\.8 ms +129 ms +219 ms +476 ms +0 +0\.687 CPU-s\/1k +196 MB +gateway$/,
    );
    const column = new Set(ok.map((l) => l.indexOf('req/s')));
    expect(column.size).toBe(1);
  });

  it('prints the status message in place of numbers and flags other bottlenecks', () => {
    expect(lines).toContain(`  apollo-router  GetUserWithProducts  ${NOT_INSTALLED}`);
    expect(text).toContain(`failed: redis-server exited with code 1 during the run: ${HOSTILE}`);
    expect(lines.find((l) => l.startsWith('  fastify        ComplexQuery'))).toMatch(/subgraphs \(not the gateway!\)$/);
    expect(lines.find((l) => l.startsWith('  fastify       rate-limit (memory)'))).toMatch(/\+?90\.1% +gateway$/);
    expect(lines.find((l) => l.startsWith('  fastify        static-header'))).toContain('+0.041 ms  +0.118 ms');
  });

  it('gives §A ratios to apollo-router when both rows are ok, and says why not otherwise', () => {
    expect(lines).toContain(`  ratio to apollo-router: n/a (apollo-router ${NOT_INSTALLED})`);
    const withRouter = formatSummaryTable(sampleWithRouter());
    expect(withRouter).toContain(
      '  fastify vs apollo-router (GetUserWithProducts): 45% of Router throughput (Router 2.23x), latency p50 2.23x, p99 3.45x [seed: 3.9x (1.5–1.7x same cores), p50 3.5x, p99 6.4x]',
    );
    expect(withRouter).toContain(
      '  nest-express vs apollo-router (ComplexQuery): 38% of Router throughput (Router 2.63x)',
    );
    expect(withRouter).not.toContain('n/a');
  });

  it('does not pass control characters from results to the terminal', () => {
    const row = { target: 'fastify', variant: 'x', status: 'failed' as const, message: '\u001b[2Jboom\r\n' };
    expect(formatSummaryTable(withRow(sample, 'E', 0, row))).not.toMatch(/\p{Cc}(?<!\n)/u);
  });
});

describe('report.html (markup)', () => {
  const html = renderHtml(sample);

  it('escapes every string from the results and runs no script', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const hostile = withRow(sample, 'A', 0, {
      ...(sample.scenarios[0]?.rows[0] ?? { target: '', variant: '', status: 'ok' }),
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
    const urls = html.match(/https?:\/\/[^"' )]+/g) ?? [];
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg']));
  });

  it('draws no NaN or Infinity, even for a scenario with no numbers at all', () => {
    const empty: BenchResults = {
      ...sample,
      scenarios: [
        {
          ...(sample.scenarios[0] as BenchResults['scenarios'][number]),
          rows: [{ target: 'apollo-router', variant: 'q', status: 'not-installed', message: NOT_INSTALLED }],
        },
      ],
    };
    const out = renderHtml(empty);
    expect(out).toContain('No row has latencies to plot.');
    expect(`${html}${out}${renderMarkdown(empty)}`).not.toMatch(/NaN|Infinity/);
  });
});

describe('report.html in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium); .ci/run does.`,
      );
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders without errors: title, charts per scenario, visible not-installed message, escaped text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fedgw-report-'));
    const files = await writeReport(sample, dir);
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

    expect(await page.title()).toBe(`Federation gateway benchmark — ${sample.runId}`);
    for (const s of sample.scenarios) {
      const section = page.locator(`#scenario-${s.id}`);
      expect(await section.locator('h2').textContent()).toBe(`§${s.id} — ${s.title}`);
      const measured = s.rows.filter((r) => r.rps !== undefined).length;
      const bars = section.locator('svg.chart-throughput rect.bar');
      expect(await bars.count()).toBe(measured);
      expect((await bars.first().boundingBox())?.width).toBeGreaterThan(10);
      const lines = section.locator('svg.chart-latency path.series');
      expect(await lines.count()).toBe(s.rows.filter((r) => r.latencyMs).length);
      expect(await lines.count()).toBeGreaterThan(0);
      expect(await section.locator('table').count()).toBeGreaterThanOrEqual(3);
    }
    const notInstalled = page.locator('#scenario-A td', { hasText: NOT_INSTALLED }).first();
    expect(await notInstalled.isVisible()).toBe(true);
    expect(
      await page.locator('#scenario-A svg.chart-throughput text.no-data', { hasText: NOT_INSTALLED }).count(),
    ).toBe(2);
    expect(await page.locator('#scenario-B .flags').textContent()).toContain(
      'throughput limited by the load generator',
    );
    // The hostile message is on the page as text, and no script element exists.
    expect(await page.locator('#scenario-E td', { hasText: HOSTILE }).count()).toBe(1);
    expect(await page.locator('script').count()).toBe(0);

    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    expect((await stat(png)).size).toBeGreaterThan(50_000);
    console.log(`report screenshot: ${png}`);

    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });
});

describe('chart scales', () => {
  it('puts linear ticks on round steps from 0 past the largest value', () => {
    expect(linearTicks(1_412)).toEqual([0, 500, 1_000, 1_500]);
    expect(linearTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(linearTicks(2).map(tickLabel)).toEqual(['0', '0.5', '1', '1.5', '2']);
    expect(linearTicks(0)).toEqual([0, 1]);
  });

  it('puts log ticks on 1-2-5 steps around the data, at least two of them', () => {
    expect(logTicks(1.91, 11)).toEqual([1, 2, 5, 10, 20]);
    expect(logTicks(0.65, 1.12)).toEqual([0.5, 1, 2]);
    expect(logTicks(2, 2)).toEqual([1, 2, 5]);
    expect(logTicks(0.001, 5_000)).toEqual([0.001, 0.01, 0.1, 1, 10, 100, 1_000, 10_000]);
    expect([0.001, 0.5, 1_000].map(tickLabel)).toEqual(['0.001', '0.5', '1,000']);
  });
});
