/**
 * Sums a V8 sampling heap profile (`HeapProfiler.stopSampling`) by allocation site and by
 * package or file, per request. Started with the `includeObjectsCollectedBy…GC` options it
 * counts every allocation; without them only what was still alive when sampling stopped (after
 * a forced full collection at the start: what survived scavenges, i.e. was promoted or is live).
 */

export interface SamplingNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

export interface SamplingProfile {
  readonly head: SamplingNode;
}

export interface SiteShare {
  readonly name: string;
  readonly kbPerRequest: number;
  readonly percent: number;
}

export interface SamplingSummary {
  readonly totalKbPerRequest: number;
  readonly byPart: readonly SiteShare[];
  readonly bySite: readonly SiteShare[];
  /** The stacks that allocated most, leaf first (a few frames each). */
  readonly byStack: readonly SiteShare[];
}

export function summarizeSampling(profile: SamplingProfile, requests: number, top = 25): SamplingSummary {
  const parts = new Map<string, number>();
  const sites = new Map<string, number>();
  const stacks = new Map<string, number>();
  let total = 0;
  const walk = (node: SamplingNode, frames: readonly string[]) => {
    const site = siteOf(node);
    const here = site === '(root)' ? frames : [site, ...frames];
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(parts, partOf(node.callFrame.url), node.selfSize);
      add(sites, site, node.selfSize);
      add(stacks, ownedStack(here), node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  // No answered request (an overloaded window): per-request figures would be infinite; report per window.
  const divisor = Math.max(1, requests);
  const shares = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, bytes]) => ({
        name,
        kbPerRequest: round(bytes / divisor / 1000),
        percent: round((bytes / total) * 100),
      }));
  return {
    totalKbPerRequest: round(total / divisor / 1000),
    byPart: shares(parts),
    bySite: shares(sites),
    byStack: shares(stacks),
  };
}

function add(map: Map<string, number>, key: string, bytes: number): void {
  map.set(key, (map.get(key) ?? 0) + bytes);
}

function siteOf(node: SamplingNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (!url && !functionName) return '(root)';
  const part = partOf(url);
  return `${functionName || '(anonymous)'} ${part}${url ? `:${lineNumber + 1}` : ''}`;
}

/** The leaf and the frames up to (and including) the first of this repository's own. */
function ownedStack(frames: readonly string[]): string {
  const kept: string[] = [];
  for (const frame of frames) {
    kept.push(frame);
    if (kept.length > 1 && /(gateway|adapters|server)\/dist\//.test(frame)) break;
    if (kept.length >= 6) break;
  }
  return kept.join(' ← ');
}

/** `undici`, `@apollo/server`, `gateway/dist/executor/shape.js`, `node:internal/…` → `node`. */
export function partOf(url: string): string {
  if (!url) return '(native/builtin)';
  if (url.startsWith('node:')) return 'node';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const own = url.match(/\/((?:gateway|adapters|server|subgraphs)\/dist\/.*)$/);
  return own?.[1] ?? url.replace(/^file:\/\//, '');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
