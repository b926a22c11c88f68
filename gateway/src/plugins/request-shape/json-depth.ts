/**
 * Whether `value` (parsed client JSON) nests arrays and objects deeper than `maxDepth`.
 * Iterative, so the check itself cannot overflow the stack it protects.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
