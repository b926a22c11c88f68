// ADR 020: where operation limits refuse, ours against graphql-armor's validation rules.
// After `pnpm build`, copy this file into a scratch directory, `npm i @escape.tech/graphql-armor@3.2.0 graphql@16` there, and run
// `REPO=<this repository> node armor-bench.mjs` with Node 24 (ESM resolves packages from the scratch directory).
import { pathToFileURL } from 'node:url';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';

const { measure } = await import(
  new URL('gateway/dist/plugins/operation-limits/index.js', pathToFileURL(`${process.env.REPO}/`)).href
);

const schema = buildSchema('type Query { a: A } type A { a: A b: Int }');
const armorRules = [
  maxDepthRule({ n: 12 }),
  maxAliasesRule({ n: 30 }),
  costLimitRule({ maxCost: 5000 }),
  maxDirectivesRule({ n: 50 }),
];
const docs = {
  normal: '{ a { b a { b a { b } } } }',
  'overlapping 1,100 fields': `{ a { ${'b '.repeat(1100)} } }`,
  'nested 200 deep': `{ ${'a { '.repeat(200)} b ${'} '.repeat(200)} }`,
};
function cpu(fn, n) {
  for (let i = 0; i < Math.min(n, 20); i++) fn();
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / n / 1000; // ms per call
}
for (const [name, text] of Object.entries(docs)) {
  const n = name === 'normal' ? 20000 : 20;
  const run = () => {
    try {
      return validate(schema, parse(text), [...specifiedRules, ...armorRules]);
    } catch (e) {
      return [e];
    }
  };
  const armored = cpu(run, n);
  const errors = run().map((e) => e.message.slice(0, 60));
  // Ours: counting fields on a parse of our own refuses before validation (MAX_FIELDS), then depth/aliases on the parsed document.
  const ours = cpu(() => {
    const d = parse(text, { noLocation: true });
    let f = 0;
    const p = [d.definitions[0].selectionSet];
    for (let s = p.pop(); s; s = p.pop())
      for (const x of s.selections) {
        f++;
        if (x.selectionSet) p.push(x.selectionSet);
      }
    if (f > 500) return 'refused';
    return measure(d);
  }, n);
  console.log(
    `${name}: armor rules in validate ${armored.toFixed(3)} ms; ours before validation ${ours.toFixed(3)} ms; armor errors: ${JSON.stringify(errors.slice(0, 2))}`,
  );
}
