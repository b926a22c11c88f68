// ADR 020: our operation limits against @escape.tech/graphql-armor 3.2.0, both in @apollo/server 5.5.0.
// Our side is the repository's compiled plugins (gateway/dist, after `pnpm build`), not a re-implementation.
// Copy this file into a scratch directory, then there (Node 24):
//   npm i @escape.tech/graphql-armor@3.2.0 && ln -sfn "$REPO/node_modules/graphql" node_modules/graphql
//   REPO=<this repository> node armor-bench.mjs answers   # statuses, codes, stages reached
//   REPO=<this repository> node armor-bench.mjs run1      # CPU per request and per check
// (the symlink gives armor the repository's graphql: one graphql in the process, as in an install.)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const REPO = process.env.REPO ?? '/work/main';
const fromRepo = (path) => import(`${REPO}/${path}`);
const { ApolloServer, HeaderMap } = await fromRepo('node_modules/@apollo/server/dist/esm/index.js');
// graphql 16 has no exports map: Node loads its CommonJS build for `import` too, as here.
const { buildSchema, parse, printSchema, validate, specifiedRules } = await fromRepo('node_modules/graphql/index.js');
const { operationLimits, DEFAULT_OPERATION_LIMITS, measure } = await fromRepo(
  'gateway/dist/plugins/operation-limits/index.js',
);
const { requestShape } = await fromRepo('gateway/dist/plugins/request-shape/index.js');
const { demandControl, DEFAULT_MAX_COST, DEFAULT_LIST_SIZE } = await fromRepo(
  'gateway/dist/plugins/demand-control/index.js',
);
const { CostEstimator } = await fromRepo('gateway/dist/plugins/demand-control/cost-estimator.js');

const require = createRequire(import.meta.url);
const { ApolloArmor } = require('@escape.tech/graphql-armor');
const { maxDepthRule } = require('@escape.tech/graphql-armor-max-depth');
const { maxAliasesRule } = require('@escape.tech/graphql-armor-max-aliases');
const { maxDirectivesRule } = require('@escape.tech/graphql-armor-max-directives');
const { costLimitRule } = require('@escape.tech/graphql-armor-cost-limit');
const { MaxTokensParserWLexer } = require('@escape.tech/graphql-armor-max-tokens');

// The project's API schema, from supergraph.graphql (its @listSize feeds our cost estimate).
const supergraphSdl = readFileSync(`${REPO}/supergraph.graphql`, 'utf8');
const fromGateway = createRequire(createRequire(`${REPO}/gateway/package.json`).resolve('@apollo/gateway'));
const { Supergraph } = fromGateway('@apollo/federation-internals');
const schema = buildSchema(printSchema(Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema()));

const user = (id) => ({ id, name: `u${id}`, email: 'e', reviews: [], orders: [] });
const product = (i) => ({
  id: String(i),
  upc: `u${i}`,
  name: `p${i}`,
  price: 1,
  inStock: true,
  reviews: [1, 2].map((r) => ({ id: `${i}-${r}`, rating: 5, comment: 'c', author: user('1'), product: null })),
});
const resolvers = {
  topProducts: (_root, { first }) => Array.from({ length: first ?? 5 }, (_, i) => product(i)),
  user: ({ id }) => user(id),
};
// graphql-js default resolvers read rootValue for root fields.
const rootValue = {
  topProducts: (args) => resolvers.topProducts(null, args),
  user: (args) => resolvers.user(args),
  me: () => user('1'),
};

// What graphql-armor's documentation sets up for Apollo Server, with our limits' numbers.
const OUR_NUMBERS = { maxDepth: 15, maxAliases: 30, maxTokens: 5000 };
const armorConfig = {
  maxDepth: { n: OUR_NUMBERS.maxDepth },
  maxAliases: { n: OUR_NUMBERS.maxAliases },
  maxTokens: { n: OUR_NUMBERS.maxTokens },
  maxDirectives: { n: 50 },
  costLimit: { maxCost: 5000 },
};

/** Records which pipeline stages ran for the client's document. */
function probe(log) {
  return {
    async requestDidStart() {
      return {
        async parsingDidStart(rc) {
          log.parsed = rc.source.length;
        },
        async validationDidStart(rc) {
          log.validated = rc.source.length;
        },
        async didResolveOperation() {
          log.resolved = true;
        },
        async executionDidStart() {
          log.executed = true;
        },
      };
    },
  };
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
function makeServer(kind, log) {
  const base = {
    schema,
    rootValue,
    logger: silent,
    parseOptions: { maxTokens: OUR_NUMBERS.maxTokens },
    validationOptions: { maxErrors: 10 },
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
  };
  if (kind === 'baseline') return new ApolloServer({ ...base, plugins: [probe(log)] });
  if (kind === 'armor' || kind === 'armor-defaults') {
    const armor = new ApolloArmor(kind === 'armor' ? structuredClone(armorConfig) : {}).protect();
    return new ApolloServer({
      ...base,
      ...armor,
      plugins: [probe(log), ...armor.plugins],
      validationRules: armor.validationRules,
    });
  }
  const estimator = new CostEstimator(DEFAULT_LIST_SIZE);
  estimator.useSupergraph(supergraphSdl);
  const ours = [
    requestShape(),
    operationLimits(DEFAULT_OPERATION_LIMITS),
    demandControl({ maxCost: DEFAULT_MAX_COST }),
  ];
  const server = new ApolloServer({ ...base, plugins: [probe(log), ...ours.map((p) => p.apollo)] });
  server.contextFor = () => ({ scope: {}, estimateCost: (rc) => estimator.costOf(rc) });
  return server;
}

const docs = {
  normal: 'query Top { topProducts(first: 5) { id name price reviews { id rating author { id name } } } }',
  'overlapping 1,100 fields': `{ ${'user(id: "1") { id } '.repeat(550)} }`,
  'nested 202 deep': `{ user(id: "1") { ${'reviews { product { '.repeat(100)} id ${'} } '.repeat(100)} } }`,
  '100 aliases': `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: user(id: "1") { id }`).join(' ')} }`,
  '60 @include': `{ user(id: "1") { ${'id @include(if: true) '.repeat(60)} } }`,
};

async function run(server, query, log) {
  for (const k of Object.keys(log)) delete log[k];
  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: {
      method: 'POST',
      headers: new HeaderMap([['content-type', 'application/json']]),
      body: { query },
      search: '',
    },
    context: async () => (server.contextFor ? server.contextFor() : {}),
  });
  let text = '';
  if (response.body.kind === 'complete') text = response.body.string;
  else for await (const chunk of response.body.asyncIterator) text += chunk;
  return { status: response.status ?? 200, body: JSON.parse(text) };
}

const label = process.argv[2] ?? 'run';
const kinds = ['baseline', 'ours', 'armor', 'armor-defaults'];
const servers = {};
const logs = {};
for (const kind of kinds) {
  logs[kind] = {};
  servers[kind] = makeServer(kind, logs[kind]);
  await servers[kind].start();
}

// 1. What each answers, and which stages ran on the client's document.
if (label === 'answers') {
  const answerDocs = {
    ...docs,
    // ADR 012's case: a list's size behind a variable's default (1,000 products, 25 reviews each assumed).
    'list size behind a variable': 'query Q($n: Int = 1000) { topProducts(first: $n) { id reviews { id rating } } }',
  };
  for (const [name, text] of Object.entries(answerDocs)) {
    for (const kind of kinds) {
      const { status, body } = await run(servers[kind], text, logs[kind]);
      const error = body.errors?.[0];
      const clientDocLength = text.length;
      const stages = [
        logs[kind].parsed === clientDocLength ? 'parsed' : logs[kind].parsed ? 'parsed a stand-in' : 'not parsed',
        logs[kind].validated === clientDocLength ? 'validated' : 'not validated',
        logs[kind].executed ? 'executed' : 'not executed',
      ].join(', ');
      console.log(
        `${name} | ${kind} | ${status} | ${error ? body.errors.map((e) => `${e.extensions?.code}: ${e.message.slice(0, 90)}`).join(' + ') : 'data'} | ${stages}`,
      );
    }
  }
}

// 2. Gateway-side CPU per request through Apollo Server (in process, no HTTP), each request a
// new text (a comment in front) so no parsed-document cache helps: an attacker's case.
function cpuMs(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
if (label !== 'answers') {
  const rows = [];
  const ROUNDS = 10;
  for (const [name, text] of Object.entries(docs)) {
    const perRound = name.startsWith('overlapping') ? 4 : 300;
    const used = Object.fromEntries(kinds.map((kind) => [kind, 0]));
    let sent = 0;
    // Warm up every server on this document, then interleave the servers round by round
    // (the order rotated) so drift in the shared machine's speed falls on all of them.
    for (const kind of kinds) {
      for (let i = 0; i < Math.min(perRound, 50); i++) await run(servers[kind], `# warm-${i}\n${text}`, logs[kind]);
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]);
      for (const kind of order) {
        const texts = Array.from({ length: perRound }, (_, i) => `# ${label}-${round}-${i}\n${text}`);
        const start = process.cpuUsage();
        for (const t of texts) await run(servers[kind], t, logs[kind]);
        used[kind] += cpuMs(start);
      }
      sent += perRound;
    }
    const row = { document: name };
    for (const kind of kinds) row[kind] = +(used[kind] / sent).toFixed(3);
    rows.push(row);
  }
  console.log(`\nwhole request in Apollo Server 5, ms of CPU per request (new text each time), ${label}`);
  console.table(rows);

  // 3. What the checks alone add, on a document already parsed (function level).
  const armorRules = [
    maxDepthRule({ n: 15, propagateOnRejection: false }),
    maxAliasesRule({ n: 30, propagateOnRejection: false }),
    costLimitRule({ maxCost: 5000, propagateOnRejection: false }),
    maxDirectivesRule({ n: 50, propagateOnRejection: false }),
  ];
  const limits = operationLimits(DEFAULT_OPERATION_LIMITS);
  const estimator = new CostEstimator(DEFAULT_LIST_SIZE);
  estimator.useSupergraph(supergraphSdl);
  const fn = [];
  for (const [name, text] of Object.entries(docs)) {
    const n = name.startsWith('overlapping') ? 30 : 3000;
    const document = parse(text);
    const time = (f, count = n) => {
      for (let i = 0; i < 10; i++) f(i);
      const start = process.cpuUsage();
      for (let i = 0; i < count; i++) f(10 + i);
      return +(cpuMs(start) / count).toFixed(4);
    };
    const texts = Array.from({ length: n + 10 }, (_, i) => `# ${i}\n${text}`);
    const operation = document.definitions[0];
    fn.push({
      document: name,
      'parse (graphql-js)': time(() => parse(text, { maxTokens: 5000 })),
      'validate: graphql-js rules': time(() => validate(schema, document, specifiedRules, { maxErrors: 10 })),
      'armor: its 4 rules alone': time(() => validate(schema, document, armorRules)),
      'armor: max-tokens 2nd parse': time(() => {
        try {
          new MaxTokensParserWLexer(text, { n: 5000 }).parseDocument();
        } catch {}
      }),
      'ours: before parsing': time((i) =>
        limits.apollo.requestDidStart({ request: { query: texts[i] }, contextValue: { scope: {} } }),
      ),
      'ours: depth/aliases/root': time(() => measure(document)),
      'ours: cost estimate': time(() =>
        estimator.costOf({
          contextValue: {},
          document,
          operation,
          schema,
          request: { variables: {} },
        }),
      ),
    });
  }
  console.log(`\nthe checks alone, ms of CPU per document, ${label}`);
  console.table(fn);
}
for (const kind of kinds) await servers[kind].stop();
