import { fileURLToPath } from 'node:url';
import { runModuleScript } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// ADR 044: patches/@fastify__ajv-compiler and @fastify__fast-json-stringify-compiler load Ajv and
// fast-json-stringify when a route's schema is first compiled, not with fastify (the gateway's
// routes declare none). In a fresh process: nothing loaded at ready, then a route with a body and
// a response schema still validates and serializes.

const ADAPTERS_DIR = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
const compilers = () => ['/ajv/', '/fast-json-stringify/index.js'].filter(loaded);
const { fastify } = await import('fastify');
const bare = fastify();
bare.post('/echo', async (request) => request.body);
await bare.ready();
const atReady = compilers();
const app = fastify();
app.post('/strict', {
  schema: {
    body: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    response: { 200: { type: 'object', properties: { a: { type: 'string' } } } },
  },
}, async (request) => ({ ...request.body, secret: 'not in the response schema' }));
await app.ready();
const refused = await app.inject({ method: 'POST', url: '/strict', payload: { b: 1 } });
const served = await app.inject({ method: 'POST', url: '/strict', payload: { a: 'x' } });
console.log(JSON.stringify({ atReady, refused: refused.statusCode, served: served.body, afterSchemas: compilers() }));
await Promise.all([bare.close(), app.close()]);
`;

describe("fastify's schema compilers, patched", () => {
  it('are loaded by the first route schema, not by fastify, and still validate and serialize', () => {
    expect(runModuleScript(ADAPTERS_DIR, SCRIPT, { recordLoads: true })).toEqual({
      atReady: [],
      refused: 400,
      served: '{"a":"x"}',
      afterSchemas: ['/ajv/', '/fast-json-stringify/index.js'],
    });
  });
});
