import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RouterEnv } from '../targets/router-binary.js';
import type { Log } from './log.js';

/** `cargo install` arguments for the pinned Router into `root` (the binary lands in `<root>/bin`). */
export function cargoInstallArgs(version: string, root: string): string[] {
  return ['install', 'apollo-router', '--locked', '--version', version, '--root', root];
}

const formatElapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

/**
 * Turns cargo's output lines (stdout and stderr) into progress lines: each `Compiling <crate>`
 * with a running count and the elapsed time; per-crate `Downloaded` lines are dropped (cargo
 * prints a total).
 */
export function cargoProgress(now: () => number = Date.now): (line: string) => string | null {
  const start = now();
  let compiled = 0;
  return (line) => {
    const trimmed = line.trim();
    if (!trimmed || /^Downloaded \S+ v/.test(trimmed)) return null;
    if (trimmed.startsWith('Compiling ')) {
      compiled += 1;
      return `[${String(compiled).padStart(3)} crates, ${formatElapsed(now() - start)}] ${trimmed}`;
    }
    return trimmed;
  };
}

/** Runs `cargo install` with progress on `log`; resolves to cargo's exit code and its last lines. */
export function cargoInstall(
  cargo: string,
  version: string,
  root: string,
  env: RouterEnv,
  log: Log,
): Promise<{ code: number; tail: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cargo, cargoInstallArgs(version, root), {
      env: { ...env, CARGO_TERM_COLOR: 'never', CARGO_TERM_PROGRESS_WHEN: 'never' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const progress = cargoProgress();
    const tail: string[] = [];
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      const shown = progress(line);
      if (shown) log(shown);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), tail }));
  });
}
