// Minimal OTLP/HTTP JSON receiver: writes one line per span (trace, span, parent, name, start ns, end ns).
import { createServer } from 'node:http';
import { createWriteStream } from 'node:fs';
const out = createWriteStream(process.argv[2]);
createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? [])
        out.write(`${s.traceId}\t${s.spanId}\t${s.parentSpanId ?? ''}\t${s.name}\t${s.startTimeUnixNano}\t${s.endTimeUnixNano}\n`);
    } catch {}
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}).listen(4318, '127.0.0.1');
