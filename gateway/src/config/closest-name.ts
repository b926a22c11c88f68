/**
 * The known name `name` is probably a typo of: within a small edit distance (one edit
 * per three characters after the shared prefix, at most two), or undefined.
 */
export function closestName(name: string, known: readonly string[], prefix = ''): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const allowed = Math.min(2, Math.max(1, Math.floor((candidate.length - prefix.length) / 3)));
    const distance = editDistance(name, candidate);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
