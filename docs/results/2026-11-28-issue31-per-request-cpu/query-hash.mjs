// Per-request SHA-256 of a query: @apollo/utils.createhash (Apollo Server before its patch) against
// Node's one-shot crypto.hash. Usage, from gateway/: ../node_modules/.bin/node <this file>
import { createRequire } from 'node:module';
import { hash } from 'node:crypto';
const require = createRequire(import.meta.url);
const { createHash } = require(require.resolve('@apollo/utils.createhash', { paths: [require.resolve('@apollo/server')] }));
const q = 'query GetUserWithProducts($id: ID!) { user(id: $id) { id name email products { id name price reviews { id body author { name } } } } }';
for (const [name, f] of [['utils.createhash', (s) => createHash('sha256').update(s).digest('hex')], ['crypto.hash', (s) => hash('sha256', s)]]) {
  for (let r = 0; r < 2; r++) { const t = process.cpuUsage(); let x; for (let i = 0; i < 200000; i++) x = f(q + (i & 7)); const u = process.cpuUsage(t); console.log(name, ((u.user + u.system) / 200000).toFixed(2), 'µs', x.length); }
}
