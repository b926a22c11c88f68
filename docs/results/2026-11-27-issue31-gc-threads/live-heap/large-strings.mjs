// Strings of 20 KB and more in a .heapsnapshot (module source text, mostly): node large-strings.mjs <file>
import { readFileSync } from 'node:fs';
const s = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const m = s.snapshot.meta; const nf = m.node_fields.length; const types = m.node_types[0];
const iT = m.node_fields.indexOf('type'), iN = m.node_fields.indexOf('name'), iS = m.node_fields.indexOf('self_size');
const list = [];
let small = 0, smallN = 0;
for (let i = 0; i < s.nodes.length; i += nf) {
  const t = types[s.nodes[i + iT]]; if (t !== 'string') continue;
  const sz = s.nodes[i + iS]; if (sz < 20000) { small += sz; smallN++; continue; }
  list.push([sz, s.strings[s.nodes[i + iN]].slice(0, 100).replace(/\s+/g, ' ')]);
}
list.sort((a, b) => b[0] - a[0]);
console.log('small strings', (small / 1e6).toFixed(2), 'MB in', smallN, '; large', list.length, (list.reduce((a, b) => a + b[0], 0) / 1e6).toFixed(2), 'MB');
for (const [sz, t] of list.slice(0, 40)) console.log((sz / 1e3).toFixed(0), 'KB', t);
