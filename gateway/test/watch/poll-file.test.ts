import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, type ManualClock, manualClock } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { type FilePoller, pollFile } from '../../src/watch/poll-file.js';

/**
 * A real file on disk, polled every 20 ms on a clock the test moves (`clock.advance(20)`: one
 * poll, over when it resolves), or on the real clock when `clock` is null; what the poller
 * reports is recorded.
 */
async function watched(initial: string, options: { initialText?: string; clock?: ManualClock | null } = {}) {
  const { clock = manualClock(), ...rest } = options;
  const dir = await mkdtemp(join(tmpdir(), 'poll-file-'));
  const path = join(dir, 'doc.txt');
  await writeFile(path, initial);
  const changes: string[] = [];
  const errors: unknown[] = [];
  const poller = pollFile({
    path,
    intervalMs: 20,
    ...rest,
    ...(clock ? { clock } : {}),
    onChange: (text) => {
      changes.push(text);
    },
    onError: (error) => errors.push(error),
  });
  pollers.push(poller);
  return { dir, path, changes, errors, poller, poll: () => clock?.advance(20), clock };
}

const pollers: FilePoller[] = [];
afterEach(() => {
  for (const poller of pollers.splice(0)) poller.close();
});

/** Writes a new file and renames it over the old one, as editors and deploy tools do. */
async function replace(path: string, text: string) {
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

describe('pollFile', () => {
  it('reports the text once at the first poll when the caller holds none (on the real clock)', async () => {
    const { changes } = await watched('v1', { clock: null });
    await eventually(() => expect(changes).toEqual(['v1']));
  });

  it('reports each new content once, and nothing for an unchanged file', async () => {
    const { path, changes, poll } = await watched('v1', { initialText: 'v1' });
    await poll();
    await poll();
    expect(changes).toEqual([]);
    await replace(path, 'v2');
    await poll();
    expect(changes).toEqual(['v2']);
    // Rewritten with the same bytes: a new inode and mtime, but nothing to report.
    await replace(path, 'v2');
    await poll();
    await poll();
    expect(changes).toEqual(['v2']);
  });

  it("follows a Kubernetes ConfigMap update: the '..data' symlink swapped to a new directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'poll-configmap-'));
    // The layout the kubelet writes: <mount>/doc.txt -> ..data/doc.txt, ..data -> ..<timestamp>
    await mkdir(join(dir, '..v1'));
    await writeFile(join(dir, '..v1', 'doc.txt'), 'v1');
    await symlink('..v1', join(dir, '..data'));
    await symlink('..data/doc.txt', join(dir, 'doc.txt'));
    const changes: string[] = [];
    const clock = manualClock();
    pollers.push(
      pollFile({
        path: join(dir, 'doc.txt'),
        intervalMs: 20,
        clock,
        initialText: 'v1',
        onChange: (text) => {
          changes.push(text);
        },
        onError: () => {},
      }),
    );
    await mkdir(join(dir, '..v2'));
    await writeFile(join(dir, '..v2', 'doc.txt'), 'v2');
    await symlink('..v2', join(dir, '..data_tmp'));
    await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    await rm(join(dir, '..v1'), { recursive: true });
    await clock.advance(20);
    expect(changes).toEqual(['v2']);
  });

  it('reports a missing file as an error and keeps polling until it is back', async () => {
    const { path, changes, errors, poll } = await watched('v1', { initialText: 'v1' });
    await rm(path);
    await poll();
    await poll();
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ENOENT', 'ENOENT']);
    await writeFile(path, 'v3');
    await poll();
    expect(changes).toEqual(['v3']);
  });

  it('keeps polling after onChange rejects, handing the rejection to onError', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'poll-file-'));
    const path = join(dir, 'doc.txt');
    await writeFile(path, 'v1');
    const errors: unknown[] = [];
    const seen: string[] = [];
    const clock = manualClock();
    pollers.push(
      pollFile({
        path,
        intervalMs: 20,
        clock,
        initialText: 'v1',
        onChange: async (text) => {
          seen.push(text);
          throw new Error(`cannot use ${text}`);
        },
        onError: (error) => errors.push(error),
      }),
    );
    await replace(path, 'v2');
    await clock.advance(20);
    expect(errors).toEqual([new Error('cannot use v2')]);
    await replace(path, 'v3');
    await clock.advance(20);
    expect(seen).toEqual(['v2', 'v3']);
  });

  it('stops reporting once closed', async () => {
    const { path, changes, poller, clock } = await watched('v1', { initialText: 'v1' });
    poller.close();
    expect(clock?.scheduled).toBe(0);
    await replace(path, 'v2');
    await clock?.advance(100);
    expect(changes).toEqual([]);
  });
});
