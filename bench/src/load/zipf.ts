/**
 * A Zipf sampler over ranks 1..n: rank k is drawn with probability proportional to 1 / k^s.
 * The cumulative weights are computed once; each draw is one uniform number and a binary
 * search, so it costs the load generator next to nothing. `random` is a seeded PRNG
 * (mulberry32) so that a run's sequence of ranks can be replayed.
 */
export function zipfSampler(n: number, s: number, random: () => number): () => number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`zipfSampler: n must be a positive integer (got ${n})`);
  if (!(s >= 0)) throw new RangeError(`zipfSampler: s must be ≥ 0 (got ${s})`);
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 1; k <= n; k++) {
    total += 1 / k ** s;
    cumulative[k - 1] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return low + 1;
  };
}
