// ADR 023: what each candidate schema library costs at startup for ~90 settings, and the errors it
// gives for four bad values. In a scratch directory: `npm i zod@4.6.7 valibot@1.5.0 @sinclair/typebox@0.34.52`,
// copy this file there, run `node schema-startup.mjs <zod|valibot|typebox> [errors]` (Node 24) in
// fresh processes and take the median.
const lib = process.argv[2];
const t0 = performance.now();
const N = 90;
let parse;
if (lib === 'zod') {
  const { z } = await import('zod');
  const shape = {};
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    shape[`SETTING_${i}`] =
      kind === 0
        ? z.coerce.number().int().min(1).max(1e6).optional()
        : kind === 1
          ? z
              .enum(['true', 'false'])
              .transform((v) => v === 'true')
              .optional()
          : kind === 2
            ? z.enum(['a', 'b', 'c']).optional()
            : z
                .string()
                .regex(/^\d+(ms|s|m)$/)
                .transform((v) => Number.parseInt(v, 10))
                .optional();
  }
  const schema = z.object(shape);
  parse = (env) => schema.safeParse(env);
} else if (lib === 'valibot') {
  const v = await import('valibot');
  const shape = {};
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    shape[`SETTING_${i}`] = v.optional(
      kind === 0
        ? v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(1e6))
        : kind === 1
          ? v.pipe(
              v.picklist(['true', 'false']),
              v.transform((x) => x === 'true'),
            )
          : kind === 2
            ? v.picklist(['a', 'b', 'c'])
            : v.pipe(
                v.string(),
                v.regex(/^\d+(ms|s|m)$/),
                v.transform((x) => Number.parseInt(x, 10)),
              ),
    );
  }
  const schema = v.object(shape);
  parse = (env) => v.safeParse(schema, env);
} else if (lib === 'typebox') {
  const { Type } = await import('@sinclair/typebox');
  const { Value } = await import('@sinclair/typebox/value');
  const props = {};
  for (let i = 0; i < N; i++) {
    const kind = i % 4;
    props[`SETTING_${i}`] = Type.Optional(
      kind === 0
        ? Type.Integer({ minimum: 1, maximum: 1e6 })
        : kind === 1
          ? Type.Boolean()
          : kind === 2
            ? Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Literal('c')])
            : Type.String({ pattern: '^\\d+(ms|s|m)$' }),
    );
  }
  const schema = Type.Object(props);
  parse = (env) => {
    const c = Value.Convert(schema, env);
    return [...Value.Errors(schema, c)];
  };
}
const built = performance.now();
const bad = { SETTING_0: 'x', SETTING_4: '0', SETTING_2: 'd', SETTING_3: '5h' };
const result = parse(bad);
const t1 = performance.now();
console.log(
  JSON.stringify({
    lib,
    importAndBuildMs: +(built - t0).toFixed(1),
    firstParseMs: +(t1 - built).toFixed(2),
    heapMB: +(process.memoryUsage().heapUsed / 1e6).toFixed(1),
  }),
);
if (process.argv[3] === 'errors')
  console.log(JSON.stringify(result.error?.issues ?? result.issues ?? result, null, 0).slice(0, 900));
