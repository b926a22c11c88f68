// Self size of a .heapsnapshot by node type and by type:name (top 40), in MB: node summary-by-type.mjs <file>
import { readFileSync } from 'node:fs';
const s = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const m = s.snapshot.meta; const nf = m.node_fields.length; const types = m.node_types[0];
const iT = m.node_fields.indexOf('type'), iN = m.node_fields.indexOf('name'), iS = m.node_fields.indexOf('self_size');
const byType = new Map(), byName = new Map(); let total = 0;
for (let i = 0; i < s.nodes.length; i += nf) {
  const t = types[s.nodes[i + iT]]; const name = s.strings[s.nodes[i + iN]]; const sz = s.nodes[i + iS];
  total += sz;
  byType.set(t, (byType.get(t) ?? 0) + sz);
  const key = t === 'string' || t === 'concatenated string' || t === 'sliced string' ? `${t}` : `${t}:${name.slice(0, 60)}`;
  byName.set(key, (byName.get(key) ?? 0) + sz);
}
const mb = (x) => (x / 1e6).toFixed(2);
console.log('total', mb(total));
for (const [k, v] of [...byType].sort((a, b) => b[1] - a[1])) console.log('type', k, mb(v));
for (const [k, v] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(mb(v), k);
