/** Where a profiled function's time is counted: what users would call each part of the gateway. */
export type CostCategory =
  | 'query planning'
  | 'federation-internals (schema helpers for planning and execution)'
  | 'execution and merge (@apollo/gateway)'
  | 'Apollo Server request pipeline'
  | 'graphql-js (parse, validate, execute)'
  | 'JSON parse and stringify'
  | 'HTTP client to subgraphs (undici)'
  | 'HTTP server (fastify)'
  | 'HTTP server (express)'
  | 'NestJS'
  | 'logging (pino)'
  | 'OpenTelemetry API'
  | 'our gateway: plugins'
  | 'our gateway: core and data source'
  | 'our adapters and server'
  | 'Node core (net, http, streams, timers)'
  | 'garbage collection'
  | 'V8 and native (program, builtins)'
  | 'other libraries';

export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}

/** Package-directory fragments (in a pnpm `node_modules` path) and the category they belong to; first match wins. */
const PACKAGES: readonly (readonly [fragment: string, category: CostCategory])[] = [
  ['/@apollo/query-planner/', 'query planning'],
  // Planning uses it, and so does execution (result shaping asks it about every field): its own part.
  ['/@apollo/federation-internals/', 'federation-internals (schema helpers for planning and execution)'],
  ['/@apollo/query-graphs/', 'query planning'],
  ['/@apollo/gateway/', 'execution and merge (@apollo/gateway)'],
  ['/@apollo/server/', 'Apollo Server request pipeline'],
  ['/@apollo/utils.', 'Apollo Server request pipeline'],
  ['/graphql/', 'graphql-js (parse, validate, execute)'],
  ['/undici/', 'HTTP client to subgraphs (undici)'],
  ['/fastify/', 'HTTP server (fastify)'],
  ['/@fastify/', 'HTTP server (fastify)'],
  ['/find-my-way/', 'HTTP server (fastify)'],
  ['/avvio/', 'HTTP server (fastify)'],
  ['/fast-json-stringify/', 'HTTP server (fastify)'],
  ['/express/', 'HTTP server (express)'],
  ['/body-parser/', 'HTTP server (express)'],
  ['/router/', 'HTTP server (express)'],
  ['/@nestjs/', 'NestJS'],
  ['/pino', 'logging (pino)'],
  ['/sonic-boom/', 'logging (pino)'],
  ['/@pinojs/', 'logging (pino)'],
  ['/@opentelemetry/', 'OpenTelemetry API'],
  ['/thread-stream/', 'logging (pino)'],
];

/** Our own compiled code, by workspace package directory. */
const OURS: readonly (readonly [fragment: string, category: CostCategory])[] = [
  ['/gateway/dist/plugins/', 'our gateway: plugins'],
  ['/gateway/dist/', 'our gateway: core and data source'],
  ['/adapters/dist/', 'our adapters and server'],
  ['/server/dist/', 'our adapters and server'],
];

/** V8's JSON builtins show as native functions without a script. */
const JSON_BUILTINS = new Set(['parse', 'stringify', 'JSONParse', 'JSONStringify']);
/** Node's native socket writes, also without a script: they are Node core's I/O. */
const NODE_NATIVE = new Set([
  'writev',
  'writeUtf8String',
  'writeString',
  'writeBuffer',
  'writeLatin1String',
  'writeAsciiString',
]);

export function categoryOf(frame: CallFrame): CostCategory {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (url === '') {
    if (JSON_BUILTINS.has(functionName)) return 'JSON parse and stringify';
    return NODE_NATIVE.has(functionName)
      ? 'Node core (net, http, streams, timers)'
      : 'V8 and native (program, builtins)';
  }
  if (url.startsWith('node:')) return 'Node core (net, http, streams, timers)';
  if (url.includes('/node_modules/')) {
    // The last node_modules segment is the package the code belongs to (pnpm nests them).
    const inPackage = url.slice(url.lastIndexOf('/node_modules/') + '/node_modules'.length);
    for (const [fragment, category] of PACKAGES) if (inPackage.startsWith(fragment)) return category;
    return 'other libraries';
  }
  for (const [fragment, category] of OURS) if (url.includes(fragment)) return category;
  return 'other libraries';
}

/** The npm package a frame's script belongs to (`@scope/name` or `name`), or null for ours and native code. */
export function packageOf(url: string): string | null {
  const at = url.lastIndexOf('/node_modules/');
  if (at < 0) return null;
  const [first, second] = url.slice(at + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : (first ?? null);
}
