import sys, collections, statistics
path = sys.argv[1]
spans = {}
children = collections.defaultdict(list)
for line in open(path):
    t, s, p, name, a, b = line.rstrip('\n').split('\t')
    spans[s] = (t, p, name, int(a), int(b))
    children[p].append(s)
roots = [(s, v) for s, v in spans.items() if v[1] == '' and v[2].startswith('POST')]
print('root spans', len(roots), 'names', collections.Counter(v[2] for v in spans.values()).most_common(8))
durs = sorted((v[4]-v[3])/1e6 for _, v in roots)
def pct(xs, q): return xs[min(len(xs)-1, int(q*len(xs)))]
print('server span ms: p50 %.1f p90 %.1f p97.5 %.1f p99 %.1f max %.1f' % (pct(durs,.5), pct(durs,.9), pct(durs,.975), pct(durs,.99), durs[-1]))
def descendants(s):
    out = []
    for c in children.get(s, []):
        out.append(c); out += descendants(c)
    return out
def breakdown(s, v):
    start, end = v[3], v[4]
    fetches = sorted([spans[d] for d in descendants(s) if 'fetch' in spans[d][2].lower()], key=lambda x: x[3])
    # union of fetch intervals
    busy = 0; cur_a = cur_b = None
    for f in fetches:
        a, b = f[3], f[4]
        if cur_b is None or a > cur_b:
            if cur_b is not None: busy += cur_b - cur_a
            cur_a, cur_b = a, b
        else: cur_b = max(cur_b, b)
    if cur_b is not None: busy += cur_b - cur_a
    first = (fetches[0][3] - start) if fetches else 0
    last = (end - max(f[4] for f in fetches)) if fetches else 0
    total = end - start
    return total/1e6, first/1e6, busy/1e6, (total - first - last - busy)/1e6, last/1e6, len(fetches)
rows = sorted(((v[4]-v[3], s, v) for s, v in roots))
n = len(rows)
for label, sel in [('median 10%', rows[int(n*.45):int(n*.55)]), ('slowest 1%', rows[int(n*.99):])]:
    bs = [breakdown(s, v) for _, s, v in sel]
    cols = list(zip(*bs))
    print('%-11s n=%4d total %.1f | before first fetch %.1f | in fetches %.1f | between fetches %.1f | after last %.1f | fetches %.1f' % ((label, len(bs)) + tuple(statistics.mean(c) for c in cols)))

# Per fetch, in order: durations (ms) for median vs slowest, and the fetch's subgraph-side gap unknown.
def fetch_durs(s):
    fs = sorted([spans[d] for d in descendants(s) if spans[d][2] == 'gateway.fetch'], key=lambda x: x[3])
    return [(f[4]-f[3])/1e6 for f in fs]
for label, sel in [('median 10%', rows[int(n*.45):int(n*.55)]), ('slowest 1%', rows[int(n*.99):])]:
    per = [fetch_durs(s) for _, s, v in sel]
    per = [p for p in per if len(p) == 4]
    cols = list(zip(*per))
    print(label, 'fetch 1..4 mean ms:', ' '.join('%.1f' % statistics.mean(c) for c in cols), '| max of 4 (mean) %.1f' % statistics.mean(max(p) for p in per))
# when do the slowest requests start? (relative second in the window)
t0 = min(v[3] for _, v in roots)
slow_starts = sorted(int((v[3]-t0)/1e9) for _, s, v in rows[int(n*.99):])
print('slowest 1% by start second:', collections.Counter(slow_starts))
