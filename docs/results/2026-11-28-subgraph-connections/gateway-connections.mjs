// TCP connections the compiled gateway (server/dist/main.js, its own process) opens to the
// real users and reviews subgraphs (their own processes) for N GraphQL requests: strictly
// sequential (each sent after the previous answer was read) and from 2 and 4 concurrent
// clients. A counting TCP relay in front of each subgraph sees every connection the gateway
// opens. Run from the repository root after `pnpm build`:
//   node_modules/.bin/node docs/results/2026-11-28-subgraph-connections/gateway-connections.mjs
import { createConnection, createServer } from 'node:net';
import { startGateway, startSubgraph } from '../../../test-support/dist/index.js';

const N = Number(process.env.N ?? 1000);
const MOUNT = process.env.MOUNT ?? 'fastify';
// user: one fetch to users. user + reviews: users, then reviews (one fetch each, in sequence).
const QUERIES = {
  users: '{ user(id: "user-5") { id name } }',
  'users→reviews': '{ user(id: "user-5") { id name reviews { rating } } }',
};

/** A relay to `target` that counts the connections made to it. */
async function countingRelay(target) {
  const { hostname, port } = new URL(target);
  const relay = { opened: 0 };
  const server = createServer((inbound) => {
    relay.opened++;
    const outbound = createConnection({ host: hostname, port: Number(port) });
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${server.address().port}${new URL(target).pathname}`;
  relay.close = () => new Promise((resolve) => server.close(resolve));
  return relay;
}

const users = await startSubgraph('users');
const reviews = await startSubgraph('reviews');
const products = await startSubgraph('products');

async function row(queryName, clients) {
  const relays = { users: await countingRelay(users.url), reviews: await countingRelay(reviews.url) };
  const gateway = await startGateway(MOUNT, {
    SUBGRAPH_USERS_URL: relays.users.url,
    SUBGRAPH_REVIEWS_URL: relays.reviews.url,
    SUBGRAPH_PRODUCTS_URL: products.url,
  });
  const body = JSON.stringify({ query: QUERIES[queryName] });
  const post = async () => {
    const answer = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const result = await answer.json();
    if (result.errors) throw new Error(JSON.stringify(result.errors));
  };
  await post(); // warm: plan cached, first connections opened
  const before = { users: relays.users.opened, reviews: relays.reviews.opened };
  const cpuBefore = await gatewayCpu(gateway);
  const perClient = Math.ceil(N / clients);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < perClient; i++) await post();
    }),
  );
  const cpuMs = Math.round((await gatewayCpu(gateway)) - cpuBefore);
  await gateway.stop();
  await relays.users.close();
  await relays.reviews.close();
  return {
    users: `${before.users} + ${relays.users.opened - before.users}`,
    reviews: queryName === 'users' ? '-' : `${before.reviews} + ${relays.reviews.opened - before.reviews}`,
    cpuMs,
  };
}

/** The gateway process's CPU time so far (user + system), from /proc. */
async function gatewayCpu(gateway) {
  const { readFile } = await import('node:fs/promises');
  const fields = (await readFile(`/proc/${gateway.child.pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 10 ms
}

console.log(`${N} requests per row after one warm-up request, mount ${MOUNT}, node ${process.version}`);
console.log('connections: "warm-up + during the N requests"');
console.log('query          | clients | users conns | reviews conns | gateway cpu ms');
for (const queryName of Object.keys(QUERIES)) {
  for (const clients of [1, 2, 4]) {
    const r = await row(queryName, clients);
    console.log(
      `${queryName.padEnd(14)} | ${String(clients).padEnd(7)} | ${r.users.padEnd(11)} | ${r.reviews.padEnd(13)} | ${r.cpuMs}`,
    );
  }
}
await Promise.all([users.stop(), reviews.stop(), products.stop()]);
