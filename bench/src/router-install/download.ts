import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type RouterEnv, routerCachedBinary } from '../targets/router-binary.js';
import type { Log } from './log.js';

/** Time to get the download's response headers; no internet should fail here, fast. */
export const DOWNLOAD_CONNECT_TIMEOUT_MS = 15_000;
/** Time for the whole tarball (about 40 MB). */
export const DOWNLOAD_TOTAL_TIMEOUT_MS = 5 * 60_000;

/** The release asset for this platform (`router-v2.17.0-x86_64-unknown-linux-gnu.tar.gz`), or null. */
export function releaseAssetName(
  version: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | null {
  const targets: Record<string, string> = {
    'linux-x64': 'x86_64-unknown-linux-gnu',
    'linux-arm64': 'aarch64-unknown-linux-gnu',
    'darwin-x64': 'x86_64-apple-darwin',
    'darwin-arm64': 'aarch64-apple-darwin',
    'win32-x64': 'x86_64-pc-windows-msvc',
  };
  const target = targets[`${platform}-${arch}`];
  return target ? `router-v${version}-${target}.tar.gz` : null;
}

const releaseBase = (version: string) => `https://github.com/apollographql/router/releases/download/v${version}`;

async function fetchWithTimeouts(url: string): Promise<Response> {
  const total = AbortSignal.timeout(DOWNLOAD_TOTAL_TIMEOUT_MS);
  const connect = new AbortController();
  const timer = setTimeout(
    () => connect.abort(new Error(`no answer in ${DOWNLOAD_CONNECT_TIMEOUT_MS / 1000} s`)),
    DOWNLOAD_CONNECT_TIMEOUT_MS,
  );
  try {
    return await fetch(url, { signal: AbortSignal.any([total, connect.signal]), redirect: 'follow' });
  } finally {
    clearTimeout(timer);
  }
}

async function findFile(dir: string, name: string): Promise<string | null> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return path;
    if (entry.isDirectory()) {
      const found = await findFile(path, name);
      if (found) return found;
    }
  }
  return null;
}

function run(file: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Downloads Apollo's published release tarball of `version` into `<cacheDir>/bin/router`
 * and uses it only if the release's sha256sums.txt lists it with the same digest (no
 * sums file, or another digest, and the tarball is refused).
 * Resolves to the binary's path, or null with the reason logged.
 */
export async function downloadOfficialRouter(version: string, env: RouterEnv, log: Log): Promise<string | null> {
  const asset = releaseAssetName(version);
  if (!asset) {
    log(`No official Router build for ${process.platform}-${process.arch}.`);
    return null;
  }
  const url = `${releaseBase(version)}/${asset}`;
  log(`Trying the official download (${DOWNLOAD_CONNECT_TIMEOUT_MS / 1000} s timeout): ${url}`);
  const work = await mkdtemp(join(tmpdir(), 'apollo-router-'));
  try {
    const response = await fetchWithTimeouts(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const tarball = join(work, asset);
    const hash = createHash('sha256');
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(body, createWriteStream(tarball));
    const digest = hash.digest('hex');

    // Apollo publishes sha256sums.txt with every release; a tarball it does not vouch for is not used.
    const sums = await fetchWithTimeouts(`${releaseBase(version)}/sha256sums.txt`);
    if (!sums.ok) throw new Error(`sha256sums.txt: HTTP ${sums.status}`);
    const expected = (await sums.text())
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find(([, name]) => name?.replace(/^\*/, '').endsWith(asset))?.[0];
    if (!expected) throw new Error(`sha256sums.txt lists no ${asset}`);
    if (expected !== digest) throw new Error(`checksum mismatch: expected ${expected}, got ${digest}`);
    log('Checksum matches the release sha256sums.txt.');

    await run('tar', ['-xzf', tarball, '-C', work]);
    const extracted = await findFile(work, process.platform === 'win32' ? 'router.exe' : 'router');
    if (!extracted) throw new Error('the tarball has no router binary');
    const target = routerCachedBinary(version, env);
    await mkdir(dirname(target), { recursive: true });
    await chmod(extracted, 0o755);
    // Copy next to the target, then rename: the tmp dir may be on another filesystem, and a
    // half-copied file must never sit where findRouterBinary looks.
    const staged = `${target}.download`;
    await copyFile(extracted, staged);
    await chmod(staged, 0o755);
    await rename(staged, target);
    return target;
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : error;
    log(`Official download failed (${String(reason)}); falling back to building from source.`);
    return null;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
