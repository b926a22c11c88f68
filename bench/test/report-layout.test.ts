import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { headlessChromium, ROOT } from '@fedgw/test-support';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSection } from '../src/readme/markers.js';
import { writeReport } from '../src/report/index.js';
import type { BenchResults } from '../src/run/results.js';
import { loadSample, renameTarget, sampleWithoutRouter } from './fixtures/sample.js';

/** The width the report must fit: a laptop screen, where it is most often read. */
const VIEWPORT = { width: 1280, height: 900 };
/** An external target's name with no place to break it. */
const LONG_NAME = `compose-${'x'.repeat(192)}`;

/** The DOM the in-page check uses, typed here: the test project compiles without lib.dom. */
interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}
interface DomElement {
  readonly tagName: string;
  readonly className: unknown;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  readonly childNodes: Iterable<{ readonly nodeType: number; readonly textContent: string | null }>;
  readonly ownerSVGElement?: DomElement | null;
  getBoundingClientRect(): Box;
  contains(other: DomElement): boolean;
  closest(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
}
declare const document: {
  readonly documentElement: DomElement;
  readonly body: DomElement;
  querySelectorAll(selector: string): Iterable<DomElement>;
};
declare function getComputedStyle(el: DomElement): { overflowX: string; overflowY: string; textOverflow: string };

/**
 * Everything on the page that is off the page or cut, in words. Runs in the browser. It fails a
 * report for: a horizontal scrollbar; any element whose box leaves the viewport; any element
 * that clips or scrolls its own content (overflow other than visible, an ellipsis); text that
 * overflows its table cell, label or paragraph; SVG text outside its SVG; a chart label
 * shortened with "…"; and two pieces of text in one chart drawn over each other.
 */
function findLayoutProblems(): string[] {
  // Runs in the page: everything it uses is declared inside it.
  const TEXT_NODE = 3;
  const problems: string[] = [];
  const vw = document.documentElement.clientWidth;
  const name = (el: DomElement) => {
    const cls =
      typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const visible = (el: DomElement) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  };

  if (document.documentElement.scrollWidth > vw) {
    problems.push(`page scrolls horizontally: ${document.documentElement.scrollWidth}px wide in a ${vw}px viewport`);
  }
  const all = [...document.body.querySelectorAll('*')].filter(visible);
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.right > vw + 0.5 || r.left < -0.5)
      problems.push(`off the page (${Math.round(r.left)}–${Math.round(r.right)}px): ${name(el)}`);
    const style = getComputedStyle(el);
    const clipsX = style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
    const clipsY = style.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1;
    if (clipsX || clipsY) problems.push(`content cut or scrolled inside: ${name(el)}`);
    if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
      problems.push(`text cut with an ellipsis: ${name(el)}`);
  }
  // Text that spills out of the box it is laid out in (a long word in a fixed column, say).
  for (const el of document.querySelectorAll(
    'td, th, caption, p, li, dd, dt, h1, h2, h3, h4, figcaption, .label, .status',
  )) {
    if (visible(el) && el.scrollWidth > el.clientWidth + 1) problems.push(`text overflows its box: ${name(el)}`);
  }
  for (const text of document.querySelectorAll('svg text')) {
    const svg = text.ownerSVGElement;
    if (!svg) continue;
    const t = text.getBoundingClientRect();
    const s = svg.getBoundingClientRect();
    if (t.left < s.left - 0.5 || t.right > s.right + 0.5 || t.top < s.top - 0.5 || t.bottom > s.bottom + 0.5) {
      problems.push(`SVG text outside its SVG: ${name(text)}`);
    }
  }
  for (const chart of document.querySelectorAll('figure, svg')) {
    // Leaf text: elements with text of their own, each one box.
    const texts = [...chart.querySelectorAll('*')].filter(
      (el) => visible(el) && [...el.childNodes].some((n) => n.nodeType === TEXT_NODE && n.textContent?.trim()),
    );
    for (const el of texts) {
      if (/…/.test(el.textContent ?? '') && el.closest('.label, .tick, .group, h4, svg')) {
        problems.push(`label shortened with an ellipsis: ${name(el)}`);
      }
    }
    const boxes = texts.map((el) => ({ el, r: el.getBoundingClientRect() }));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (!a || !b || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const overlapX = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const overlapY = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (overlapX > 1 && overlapY > 1) problems.push(`text drawn over text: ${name(a.el)} / ${name(b.el)}`);
      }
    }
  }
  return problems;
}

describe('report.html layout at 1280 px in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    const { executablePath, args } = await headlessChromium();
    browser = await chromium.launch({ executablePath, headless: true, args: [...args] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Writes the report, optionally breaks its HTML, loads it at 1280 px and lists its problems. */
  async function problemsOf(results: BenchResults, breakIt?: (html: string) => string): Promise<string[]> {
    const dir = await mkdtemp(join(tmpdir(), 'fedgw-layout-'));
    const files = await writeReport(results, dir);
    if (breakIt) await writeFile(files.html, breakIt(await readFile(files.html, 'utf8')));
    const page: Page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(pathToFileURL(files.html).href, { waitUntil: 'load' });
      return await page.evaluate(findLayoutProblems);
    } finally {
      await page.close();
    }
  }

  /** Adds markup or CSS at the end of the body, where it lays out inside the page. */
  const inject = (markup: string) => (html: string) => html.replace('</main>', `${markup}</main>`);

  it('fits the sample: nothing off the page, cut, or drawn over other text', async () => {
    expect(await problemsOf(loadSample())).toEqual([]);
  });

  it('fits the committed full run the published results come from', async () => {
    const folder = findSection(readFileSync(join(ROOT, 'docs', 'benchmark.md'), 'utf8'))?.folder;
    expect(folder, 'docs/benchmark.md names no bench run').toBeDefined();
    const results = JSON.parse(readFileSync(join(ROOT, folder as string, 'results.json'), 'utf8')) as BenchResults;
    expect(await problemsOf(results)).toEqual([]);
  });

  it('fits a run without the Router (status messages in place of bars)', async () => {
    expect(await problemsOf(sampleWithoutRouter())).toEqual([]);
  });

  it('fits a 200-character target name with no place to break it: it wraps', async () => {
    expect(await problemsOf(renameTarget(loadSample(), 'compose-gateway', LONG_NAME))).toEqual([]);
  });

  describe('fails a report that is broken on purpose', () => {
    it('a 200-character name rendered without wrapping', async () => {
      const noWrap = '<style>* { overflow-wrap: normal !important; }</style>';
      // The style alone breaks nothing: the long name does.
      expect(await problemsOf(loadSample(), inject(noWrap))).toEqual([]);
      const problems = await problemsOf(renameTarget(loadSample(), 'compose-gateway', LONG_NAME), inject(noWrap));
      expect(problems).toContainEqual(expect.stringMatching(/^page scrolls horizontally/));
      expect(problems).toContainEqual(expect.stringMatching(/^off the page .*compose-xxxx/));
    });

    it('an element wider than the page', async () => {
      const problems = await problemsOf(loadSample(), inject('<div style="width: 1500px; height: 4px"></div>'));
      expect(problems).toContainEqual(expect.stringMatching(/^off the page \(\d+–\d+px\): <div>/));
    });

    it('a table that scrolls inside its wrapper', async () => {
      const wide =
        '<div style="overflow-x: auto"><table><tr><td style="min-width: 2000px">wide</td></tr></table></div>';
      const problems = await problemsOf(loadSample(), inject(wide));
      expect(problems).toContainEqual(expect.stringMatching(/^content cut or scrolled inside: <div>/));
    });

    it('a label cut with an ellipsis', async () => {
      const cut =
        '<p style="width: 80px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis">a label far too long to fit</p>';
      const problems = await problemsOf(loadSample(), inject(cut));
      expect(problems).toContainEqual(expect.stringMatching(/^text cut with an ellipsis: <p>/));
    });

    it('SVG text outside its SVG, and a chart label shortened with "…"', async () => {
      const svg =
        '<figure><svg width="120" height="20" xmlns="http://www.w3.org/2000/svg"><text x="60" y="15">a legend label cut off</text></svg></figure>' +
        '<figure><div class="label">nest-fastify · ComplexQuery · 2…</div></figure>';
      const problems = await problemsOf(loadSample(), inject(svg));
      expect(problems).toContainEqual('SVG text outside its SVG: <text> "a legend label cut off"');
      expect(problems).toContainEqual(expect.stringMatching(/^label shortened with an ellipsis: <div\.label>/));
    });

    it('charts squeezed until their tick labels run into each other', async () => {
      const squeeze = '<style>.panels { grid-template-columns: repeat(3, 210px) !important; }</style>';
      const problems = await problemsOf(loadSample(), inject(squeeze));
      expect(problems).toContainEqual(
        expect.stringMatching(/^text drawn over text: <span\.tick> ".*" \/ <span\.tick>/),
      );
    });
  });
});
