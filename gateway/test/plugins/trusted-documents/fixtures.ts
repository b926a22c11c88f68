import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** What `@apollo/generate-persisted-query-manifest` writes for these bodies. */
export function apolloManifest(bodies: readonly string[]): string {
  return JSON.stringify({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: bodies.map((body) => ({ id: sha(body), name: body.match(/\w+ (\w+)/)?.[1], type: 'query', body })),
  });
}

/** Writes a manifest to a fresh temporary directory and returns its path. */
export async function manifestFile(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'trusted-documents-')), 'manifest.json');
  await writeFile(path, text);
  return path;
}
