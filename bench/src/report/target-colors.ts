/**
 * One colour per target across the whole report, so a reader learns it once. Families share
 * a hue (Fastify blues, Express oranges), the NestJS mount the darker shade; every colour
 * keeps at least 3:1 contrast on white.
 */
const BUILT_IN: Readonly<Record<string, string>> = {
  'nest-fastify': '#1f5f9e',
  'nest-fastify-cluster': '#0b3a63',
  fastify: '#3f8fd2',
  'nest-express': '#b34d00',
  express: '#d2741c',
  standalone: '#6e6e6e',
  'standalone-undici': '#3d8b37',
  'apollo-router': '#b0306f',
  'hive-gateway': '#a07a00',
  'hive-gateway-rust': '#6b5200',
};

/** For `--external` names: colours none of the built-in targets use. */
const EXTERNAL_PALETTE = ['#7b4fb5', '#0f8b8d', '#8c6d1f', '#9c2f2f', '#6a7f10'] as const;

/** The target's colour: fixed for built-in targets, chosen by a hash of the name for externals. */
export function targetColor(target: string): string {
  return BUILT_IN[target] ?? EXTERNAL_PALETTE[hash(target) % EXTERNAL_PALETTE.length] ?? '#555';
}

/** FNV-1a: the same name gets the same colour in every report. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
