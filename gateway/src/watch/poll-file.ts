import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { type Clock, realClock } from '../clock.js';

export interface PollFileOptions {
  path: string;
  intervalMs: number;
  /** The text the caller already uses, so an unchanged file is not reported at the first poll. */
  initialText?: string;
  /** The file's content changed. A rejection is the caller's to report; polling goes on. */
  onChange(text: string): Promise<void> | void;
  /** The file could not be read (gone mid-rewrite, permissions); polling goes on. */
  onError(error: unknown): void;
  /** What schedules the polls. Default: the real clock. */
  clock?: Clock;
}

export interface FilePoller {
  /** Stops polling; an in-flight `onChange` is not awaited. */
  close(): void;
}

/**
 * Polls a file and reports content changes. Polling, not `fs.watch`: a Kubernetes
 * ConfigMap is updated by swapping a symlink, which inotify on the file never sees, and
 * editors that write a new file and rename it break a watch too. `stat` is cheap, and
 * the content is read and hashed only when its size, mtime or inode moved.
 */
export function pollFile(options: PollFileOptions): FilePoller {
  let lastStat = '';
  let lastHash = options.initialText === undefined ? '' : hashOf(options.initialText);
  let running = false;
  const tick = async () => {
    if (running) return; // a slow onChange (validating a large supergraph) is not re-entered
    running = true;
    try {
      const info = await stat(options.path);
      const signature = `${info.ino}:${info.size}:${info.mtimeMs}`;
      if (signature === lastStat) return;
      const text = await readFile(options.path, 'utf8');
      lastStat = signature;
      const hash = hashOf(text);
      if (hash === lastHash) return;
      lastHash = hash;
      await options.onChange(text);
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
    }
  };
  const polls = (options.clock ?? realClock).every(options.intervalMs, tick);
  return { close: () => polls.cancel() };
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
