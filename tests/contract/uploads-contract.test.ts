import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { MOUNTS, subgraphUrlEnv } from '@fedgw/test-support';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * File uploads as an app sends them, on every mount: Apollo Client 4 with apollo-upload-client's
 * UploadHttpLink (a spec-correct multipart request: `operations`, `map`, then the files), through
 * the gateway to the reviews subgraph, which counts and hashes each file as it streams in. Its
 * answer equal to the file's own size and SHA-256 proves the bytes arrived intact; a file four
 * times BODY_LIMIT proves they were streamed, not read into a JSON-sized buffer.
 */
const subgraphs = subgraphsForFile();
const BODY_LIMIT = 1024 * 1024;
/** A file the gateway could not hold without its memory showing it: 256 MB, read from disk by the client. */
const LARGE_FILE_BYTES = 256 * BODY_LIMIT;
let large: { path: string; sha256: string };
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'uploads-contract-'));
  const block = randomBytes(BODY_LIMIT);
  const hash = createHash('sha256');
  const path = join(dir, 'large.bin');
  writeFileSync(path, '');
  for (let i = 0; i < LARGE_FILE_BYTES / BODY_LIMIT; i++) {
    block.writeUInt32BE(i); // no two megabytes alike
    hash.update(block);
    writeFileSync(path, block, { flag: 'a' });
  }
  large = { path, sha256: hash.digest('hex') };
});
afterAll(() => {
  if (large) rmSync(join(large.path, '..'), { recursive: true, force: true });
});
const MULTI_BYTE_NAME = 'фото-照片-📷 café.jpg';

interface Photo {
  reviewId: string;
  filename: string;
  mimetype: string;
  size: number;
  sha256: string;
}

const ADD_PHOTO: TypedDocumentNode<{ addReviewPhoto: Photo | null }> = gql`
  mutation AddPhoto($reviewId: ID!, $photo: Upload!) {
    addReviewPhoto(reviewId: $reviewId, photo: $photo) {
      reviewId
      filename
      mimetype
      size
      sha256
    }
  }
`;

const ADD_TWO: TypedDocumentNode<{ first: Photo | null; second: Photo | null }> = gql`
  mutation AddTwo($a: Upload!, $b: Upload!) {
    first: addReviewPhoto(reviewId: "review-1", photo: $a) {
      size
      sha256
    }
    second: addReviewPhoto(reviewId: "review-2", photo: $b) {
      size
      sha256
    }
  }
`;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function clientFor(url: string) {
  // The header that makes a browser preflight the request (CSRF): the app adds it, as Apollo's docs say.
  const link = new UploadHttpLink({ uri: url, headers: { 'apollo-require-preflight': 'true' } });
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

describe.each(MOUNTS)('uploads with Apollo Client on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    UPLOADS: 'true',
    BODY_LIMIT: String(BODY_LIMIT),
    UPLOAD_MAX_FILE_BYTES: String(LARGE_FILE_BYTES),
  }));

  it('a file four times BODY_LIMIT, with a multi-byte name, reaches the subgraph intact', async () => {
    const bytes = randomBytes(4 * BODY_LIMIT + 123);
    const photo = new File([bytes], MULTI_BYTE_NAME, { type: 'image/jpeg' });
    const { data, error } = await clientFor(gateway().url).mutate({
      mutation: ADD_PHOTO,
      variables: { reviewId: 'review-3', photo },
    });
    expect(error).toBeUndefined();
    expect(data?.addReviewPhoto).toEqual({
      __typename: 'ReviewPhoto',
      reviewId: 'review-3',
      filename: MULTI_BYTE_NAME,
      mimetype: 'image/jpeg',
      size: bytes.length,
      sha256: sha256(bytes),
    });
  });

  it('a 256 MB file streams through: the gateway’s peak memory grows by less than the file (held whole: twice it)', async () => {
    const pid = gateway().child.pid as number;
    const before = resetPeakRss(pid);
    const photo = await openAsBlob(large.path, { type: 'application/octet-stream' });
    const { data } = await clientFor(gateway().url).mutate({
      mutation: ADD_PHOTO,
      variables: { reviewId: 'review-5', photo },
    });
    expect(data?.addReviewPhoto).toMatchObject({ size: LARGE_FILE_BYTES, sha256: large.sha256 });
    // Held whole, the gateway grew 520–544 MB; streamed, 30–150 MB by load (GC runs late on a busy machine).
    expect(peakRss(pid) - before).toBeLessThan(LARGE_FILE_BYTES);
  });

  it('an empty file arrives as zero bytes', async () => {
    const photo = new File([], 'empty.png', { type: 'image/png' });
    const { data } = await clientFor(gateway().url).mutate({
      mutation: ADD_PHOTO,
      variables: { reviewId: 'review-4', photo },
    });
    expect(data?.addReviewPhoto).toMatchObject({ size: 0, sha256: sha256(Buffer.alloc(0)) });
  });

  it('two files in one mutation go to the one subgraph fetch, each to its field', async () => {
    const [a, b] = [randomBytes(300_000), randomBytes(70_000)];
    const { data, error } = await clientFor(gateway().url).mutate({
      mutation: ADD_TWO,
      variables: { a: new File([a], 'a.bin'), b: new File([b], 'b.bin') },
    });
    expect(error).toBeUndefined();
    expect(data?.first).toMatchObject({ size: a.length, sha256: sha256(a) });
    expect(data?.second).toMatchObject({ size: b.length, sha256: sha256(b) });
  });
});

/** Resets the process's peak resident set (VmHWM) to its current one, and returns it. */
function resetPeakRss(pid: number): number {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return peakRss(pid);
}

function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for ${pid}`);
  return Number(match[1]) * 1024;
}
