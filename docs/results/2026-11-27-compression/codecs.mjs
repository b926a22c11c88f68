// The codecs alone, on the bench's own answers (the reference answers of @fedgw/subgraphs): size
// and CPU per answer for gzip levels 1 and 6 and brotli qualities 4, 5 and 11, one-shot
// (zlib.*Sync) in this process, after 20 warm-up calls. Run from the repository root:
//   node_modules/.bin/node docs/results/2026-11-27-compression/codecs.mjs
import { expectedDashboard, expectedComplex, expectedUserWithProducts } from '@fedgw/subgraphs';
import zlib from 'node:zlib';
const answers = {
  dashboard: JSON.stringify({ data: expectedDashboard() }),
  complex: JSON.stringify({ data: expectedComplex('user-7') }),
  userWithProducts: JSON.stringify({ data: expectedUserWithProducts('user-7') }),
};
const codecs = {
  'gzip-1': (b) => zlib.gzipSync(b, { level: 1 }),
  'gzip-6': (b) => zlib.gzipSync(b, { level: 6 }),
  'br-4': (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
  'br-5': (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
  'br-11': (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
};
for (const [name, text] of Object.entries(answers)) {
  const buf = Buffer.from(text);
  for (const [codec, fn] of Object.entries(codecs)) {
    let out; const n = codec === 'br-11' ? 20 : 300;
    for (let i = 0; i < 20; i++) out = fn(buf);
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) out = fn(buf);
    const us = Number(process.hrtime.bigint() - t) / 1000 / n;
    console.log(`${name}\t${buf.length}\t${codec}\t${out.length}\t${(100*out.length/buf.length).toFixed(1)}%\t${us.toFixed(0)} µs`);
  }
}
