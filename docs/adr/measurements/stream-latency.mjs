// ADR 060: when the first part of a streamed answer arrives, against the same operation unstreamed.
// From the repository root, after `pnpm build`, on the project's Node:
//   PATH=$PWD/node_modules/node/bin:$PATH node docs/adr/measurements/stream-latency.mjs [msPerEntity]
// Starts the subgraphs and a gateway (fastify mount). With msPerEntity > 0, a proxy in front of the
// reviews subgraph holds each request msPerEntity ms per representation it carries (a subgraph
// whose cost grows with the entities asked). Prints the medians of 30 runs after 10 warm-ups.
import { createServer } from 'node:http';
import { startGateway, startSubgraphs, subgraphUrlEnv } from '@fedgw/test-support';

const msPerEntity = Number(process.argv[2] ?? 0);
const subgraphs = await startSubgraphs();
const proxy = createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  const entities = (body.match(/"__typename"/g) ?? []).length;
  // latency: the simulated per-entity cost of the subgraph.
  await new Promise((resolve) => setTimeout(resolve, msPerEntity * entities));
  const answer = await fetch(subgraphs.reviews.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const gateway = await startGateway('fastify', {
  ...subgraphUrlEnv(subgraphs),
  SUBGRAPH_REVIEWS_URL: `http://127.0.0.1:${proxy.address().port}/graphql`,
});
const streamed = '{ topProducts(first: 50) @stream(initialCount: 2) { upc name reviews { comment author { name } } } }';
const plain = streamed.replace(/ @stream\([^)]*\)/, '');

async function timed(query, accept) {
  const started = performance.now();
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ query }),
  });
  if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (first === undefined && text.split('\r\n---').length >= 3) first = performance.now() - started;
  }
  const end = performance.now() - started;
  return { first: first ?? end, end };
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(1);
const MULTIPART = 'multipart/mixed;deferSpec=20220824, application/json';
for (let i = 0; i < 10; i++) {
  await timed(plain, 'application/json');
  await timed(streamed, MULTIPART);
}
const plainRuns = [];
const streamedRuns = [];
for (let i = 0; i < 30; i++) {
  plainRuns.push(await timed(plain, 'application/json'));
  streamedRuns.push(await timed(streamed, MULTIPART));
}
console.log(
  JSON.stringify({
    msPerEntity,
    unstreamedMs: median(plainRuns.map((run) => run.end)),
    streamedFirstPartMs: median(streamedRuns.map((run) => run.first)),
    streamedLastPartMs: median(streamedRuns.map((run) => run.end)),
  }),
);
await gateway.stop();
proxy.close();
await Promise.all(Object.values(subgraphs).map((subgraph) => subgraph.stop()));
