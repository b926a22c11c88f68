import type { BenchResults } from '../run/results.js';
import { renderSoakSection, SOAK_MARKERS } from '../soak/readme-section.js';
import type { SoakResults } from '../soak/results.js';
import { renderEntityCacheSection } from './entity-cache.js';
import { findSection, RESULTS_MARKERS, replaceSection } from './markers.js';
import { renderResultsSection } from './results-section.js';
import { ISSUE_31_RATE, renderRouterTargets } from './router-targets.js';
import { renderVerdict } from './verdict.js';

// Where generated sections live: the README's verdict, and the full results and the soak in
// docs/benchmark.md. One list, so `pnpm bench:readme` and the test that keeps them honest agree.

type AnyResults = BenchResults | SoakResults;

interface GeneratedKind {
  readonly markers: string;
  /** Which runs it is generated from. */
  readonly from: 'bench' | 'soak';
  /** Whether a run of that kind has what the section answers from (a folder named on the command line may not). */
  readonly fits?: (results: BenchResults) => boolean;
  readonly render: (results: AnyResults, folder: string, linkPrefix: string) => string;
}

export const VERDICT_MARKERS = 'bench-verdict';
export const ROUTER_TARGETS_MARKERS = 'bench-router-targets';
export const ENTITY_CACHE_MARKERS = 'bench-entity-cache';

/** The verdict and the full tables answer from a run of every section. */
const everySection = (results: BenchResults) =>
  ['A', 'B', 'C', 'D', 'E', 'F'].every((id) => results.scenarios.some((s) => s.id === id));
/** Issue 31's targets are set at §C's open loop at 500 req/s with the Router beside us. */
const atTargetRate = (results: BenchResults) =>
  results.scenarios.some((s) => s.id === 'C' && s.rows.some((row) => row.rate === ISSUE_31_RATE));

const KINDS: readonly GeneratedKind[] = [
  {
    markers: VERDICT_MARKERS,
    from: 'bench',
    fits: everySection,
    render: (r, folder) => renderVerdict(r as BenchResults, folder),
  },
  {
    markers: ROUTER_TARGETS_MARKERS,
    from: 'bench',
    fits: atTargetRate,
    render: (r, folder) => renderRouterTargets(r as BenchResults, folder),
  },
  {
    markers: ENTITY_CACHE_MARKERS,
    from: 'bench',
    fits: (results) => results.scenarios.some((s) => s.id === 'G'),
    render: (r, folder, prefix) => renderEntityCacheSection(r as BenchResults, folder, prefix),
  },
  {
    markers: RESULTS_MARKERS,
    from: 'bench',
    fits: everySection,
    render: (r, folder, prefix) => renderResultsSection(r as BenchResults, folder, prefix),
  },
  {
    markers: SOAK_MARKERS,
    from: 'soak',
    render: (r, folder, prefix) => renderSoakSection(r as SoakResults, folder, prefix),
  },
];

/** Documents holding generated sections; `linkPrefix` leads from each back to the repository root. */
export const GENERATED_DOCUMENTS = [
  { path: 'README.md', linkPrefix: '' },
  { path: 'docs/benchmark.md', linkPrefix: '../' },
] as const;

const isSoak = (results: AnyResults): results is SoakResults => 'kind' in results && results.kind === 'soak';

/** The run folders a document's markers name now. */
export function namedFolders(text: string): string[] {
  return KINDS.map((kind) => findSection(text, kind.markers)?.folder).filter((f): f is string => f !== undefined);
}

/**
 * `text` with every generated section regenerated from `folders` (each run fills the sections
 * of its kind that the document has), or, without folders, from the folder each marker names.
 */
export function regenerate(
  text: string,
  linkPrefix: string,
  load: (folder: string) => AnyResults,
  folders?: readonly string[],
): string {
  let updated = text;
  for (const kind of KINDS) {
    const named = findSection(updated, kind.markers)?.folder;
    const hasMarkers = updated.includes(`<!-- ${kind.markers}:start`);
    const candidates = folders ?? (named ? [named] : []);
    for (const folder of candidates) {
      const results = load(folder);
      if ((kind.from === 'soak') !== isSoak(results) || !hasMarkers) continue;
      if (kind.fits && !isSoak(results) && !kind.fits(results)) continue;
      updated = replaceSection(updated, folder, kind.render(results, folder, linkPrefix), kind.markers);
    }
  }
  return updated;
}
