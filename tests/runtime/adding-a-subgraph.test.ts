// docs/adding-a-subgraph.md, followed in a temporary copy of the repository: a fourth subgraph
// (inventory, adding Product.stockCount) gets its code, one line in the catalog and one in the
// definitions; `pnpm supergraph` (compose.js --write) composes it and writes every deployment
// file; `pnpm dev`'s runner starts it with the others, and the gateway answers its field.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBGRAPH_NAMES } from '@fedgw/subgraphs/catalog';
import { freePort, postGraphQL, ROOT, type RunningProcess, spawnNode, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const NAMES = [...SUBGRAPH_NAMES, 'inventory'];
const started: RunningProcess[] = [];
let copy: string;

/** What the page's step 1 says to write, for a subgraph that extends Product. */
const INVENTORY = {
  'schema.graphql': `extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

type Product @key(fields: "id") {
  id: ID!
  "Units in the warehouse."
  stockCount: Int!
}
`,
  'data.ts': `/** Stock per product id: deterministic, like the other subgraphs' data. */
export const stockCountOf = (id: string): number => (id.length * 7 + id.charCodeAt(id.length - 1)) % 50;
`,
  'resolvers.ts': `import type { GraphQLResolverMap } from '@apollo/subgraph';
import type { SubgraphContext } from '../context.js';
import { stockCountOf } from './data.js';

export const inventoryResolvers: GraphQLResolverMap<SubgraphContext> = {
  Product: {
    __resolveReference: (reference: { id: string }) => ({ id: reference.id, stockCount: stockCountOf(reference.id) }),
  },
};
`,
  'subgraph.ts': `import { defaultPortOf } from '../catalog.js';
import { loadTypeDefs, type SubgraphDefinition } from '../definition.js';
import { inventoryResolvers } from './resolvers.js';

export const inventorySubgraph: SubgraphDefinition = {
  name: 'inventory',
  typeDefs: loadTypeDefs(new URL('../../src/inventory/schema.graphql', import.meta.url)),
  resolvers: inventoryResolvers,
  defaultPort: defaultPortOf('inventory'),
};
`,
  'main.ts': `import { runSubgraphProcess } from '../process.js';
import { inventorySubgraph } from './subgraph.js';

await runSubgraphProcess(inventorySubgraph);
`,
};

/** Replaces `from` (which must be there) in a file of the copy. */
function edit(path: string, from: string | RegExp, to: string): void {
  const file = join(copy, path);
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  expect(next, `${path} has ${from}`).not.toBe(text);
  writeFileSync(file, next);
}

const inCopy = (...args: string[]) =>
  execFileSync(process.execPath, args, { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('adding a subgraph, as docs/adding-a-subgraph.md says', () => {
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'add-subgraph-'));
    for (const path of ['tsconfig.base.json', 'supergraph.graphql', 'docker-compose.yml', 'Dockerfile', 'deploy']) {
      cpSync(join(ROOT, path), join(copy, path), { recursive: true });
    }
    for (const path of ['package.json', 'tsconfig.json', 'src']) {
      cpSync(join(ROOT, 'subgraphs', path), join(copy, 'subgraphs', path), { recursive: true });
    }
    // The installed dependencies, as they are (pnpm's links are followed to their real place).
    symlinkSync(join(ROOT, 'subgraphs', 'node_modules'), join(copy, 'subgraphs', 'node_modules'));

    // 1. Its code.
    cpSync(join(copy, 'subgraphs/src/products'), join(copy, 'subgraphs/src/inventory'), { recursive: true });
    for (const [file, text] of Object.entries(INVENTORY))
      writeFileSync(join(copy, 'subgraphs/src/inventory', file), text);
    // 2. The list.
    edit(
      'subgraphs/src/catalog.ts',
      /(\{ name: 'reviews', port: 4003 \},\n)/,
      "$1  { name: 'inventory', port: 4004 },\n",
    );
    edit('subgraphs/src/definitions.ts', /^/, "import { inventorySubgraph } from './inventory/subgraph.js';\n");
    edit('subgraphs/src/definitions.ts', /( {2}reviews: reviewsSubgraph,\n)/, '$1  inventory: inventorySubgraph,\n');
    // 3. Compose (what `pnpm supergraph` runs: the build, then compose.js --write).
    inCopy(join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'subgraphs');
    inCopy('subgraphs/dist/compose.js', '--write');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map((process) => process.stop()));
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('composes it into the supergraph, and the check then passes', () => {
    const supergraph = readFileSync(join(copy, 'supergraph.graphql'), 'utf8');
    expect(supergraph).toMatch(
      /INVENTORY @join__graph\(name: "inventory", url: "http:\/\/127\.0\.0\.1:4004\/graphql"\)/,
    );
    expect(supergraph).toMatch(/stockCount: Int! @join__field\(graph: INVENTORY\)/);
    expect(inCopy('subgraphs/dist/compose.js', '--check')).toBe('');
  });

  it('writes it into every deployment file, the Dockerfile needing no line', () => {
    const read = (path: string) => readFileSync(join(copy, path), 'utf8');
    expect(read('deploy/kubernetes/files/supergraph.sdl')).toBe(read('supergraph.graphql'));
    const kubernetes = read('deploy/kubernetes/components/demo-subgraphs/subgraphs.yaml');
    expect(kubernetes).toContain('name: demo-inventory');
    expect(kubernetes).toContain('command: ["node", "subgraphs/dist/inventory/main.js"]');
    expect(kubernetes).toContain('containerPort: 4004');
    expect(read('deploy/kubernetes/components/demo-subgraphs/gateway-subgraph-urls.yaml')).toContain(
      'value: http://demo-inventory:4004/graphql',
    );
    const compose = read('docker-compose.yml');
    expect(compose).toContain('SUBGRAPH_INVENTORY_URL: http://inventory:4004/graphql');
    expect(compose).toContain(
      '  inventory:\n    <<: *subgraphs-image\n    command: ["node", "subgraphs/dist/inventory/main.js"]',
    );
    expect(compose).toMatch(
      /x-gateway-depends-on: &gateway-depends-on\n(.*\n)* {2}inventory:\n {4}condition: service_healthy/,
    );
    expect(read('Dockerfile')).toBe(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  });

  it("is started by pnpm dev's runner with the others, and the gateway answers its field", async () => {
    const ports = await Promise.all(NAMES.map(() => freePort()));
    const portEnv = Object.fromEntries(NAMES.map((name, i) => [`${name.toUpperCase()}_PORT`, String(ports[i])]));
    const allReady = new RegExp(NAMES.map((name) => `(?=[\\s\\S]*\\[${name}\\][^\\n]*ready at)`).join(''));
    const { process: subgraphs } = await spawnNode(join(copy, 'subgraphs/dist/run-all.js'), portEnv, allReady);
    started.push(subgraphs);
    const gateway = await startGateway('fastify', {
      SUPERGRAPH_PATH: join(copy, 'supergraph.graphql'),
      ...Object.fromEntries(
        NAMES.map((name, i) => [`SUBGRAPH_${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[i]}/graphql`]),
      ),
    });
    started.push(gateway);

    const answer = await postGraphQL(gateway.url, { query: '{ topProducts(first: 2) { id name stockCount } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const stockCountOf = (id: string) => (id.length * 7 + id.charCodeAt(id.length - 1)) % 50;
    const products = (answer.body.data as { topProducts: { id: string; name: string; stockCount: number }[] })
      .topProducts;
    expect(products).toHaveLength(2);
    for (const product of products) expect(product.stockCount).toBe(stockCountOf(product.id));
  });
});
