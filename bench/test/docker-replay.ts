/**
 * Replays Dockerfile stages on this machine, which has no Docker engine: each stage is a
 * directory standing in for its WORKDIR. Enough to run the prod-deps install exactly as
 * written and to assemble the runtime stage's files.
 */
import { once } from 'node:events';
import { cp, mkdir, rename, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix } from 'node:path';
import { spawnInGroup } from '@fedgw/test-support';
import type { Stage } from './dockerfile.js';

/** An earlier stage's stand-in directory. `move`: a throwaway copy, so COPY may move out of it. */
export interface StageDir {
  readonly dir: string;
  readonly workdir: string;
  readonly move?: boolean;
}

export interface CopySources {
  readonly context: string;
  readonly stages: Readonly<Record<string, StageDir>>;
}

/** Replays `stage`'s COPY lines into `dir` with Docker's rules: a directory's contents, a file into `dest/`. */
export async function replayCopies(stage: Stage, dir: string, sources: CopySources): Promise<void> {
  for (const { from, sources: paths, dest } of stage.copies) {
    const origin = from ? sources.stages[from] : undefined;
    if (from && !origin) throw new Error(`COPY --from=${from}: no directory for that stage`);
    const destPath = inside(dir, stage.workdir, dest);
    const intoDirectory = dest.endsWith('/') || dest === '.' || paths.length > 1;
    for (const path of paths) {
      const source = origin ? inside(origin.dir, origin.workdir, path) : inside(sources.context, '/', path);
      const isDirectory = (await stat(source)).isDirectory();
      const target = intoDirectory && !isDirectory ? join(destPath, basename(source)) : destPath;
      await mkdir(dirname(target), { recursive: true });
      // pnpm's node_modules are relative symlinks: Docker keeps them as they are, and so do we.
      if (origin?.move) await rename(source, target);
      else await cp(source, target, { recursive: true, verbatimSymlinks: true });
    }
  }
}

export interface ReplayedRuns {
  /** From `npm install -g pnpm@<version>`. */
  readonly pnpmVersion: string;
  /** Each pnpm command as the Dockerfile writes it (without `pnpm`). */
  readonly pnpmCommands: readonly (readonly string[])[];
}

/**
 * Replays a stage's RUN lines: `npm install -g pnpm@<version>` picks the pnpm that `npx` runs,
 * each `pnpm …` line runs with `extraArgs` appended (`--offline`: from the local store). Any
 * other RUN line is an error, since the replay would not do what the image does.
 */
export async function replayRuns(stage: Stage, dir: string, extraArgs: readonly string[]): Promise<ReplayedRuns> {
  let pnpmVersion: string | undefined;
  const pnpmCommands: string[][] = [];
  for (const run of stage.runs) {
    const words = run.split(/\s+/);
    // Plain words only: then splitting on spaces is what the shell does.
    const shellSyntax = words.find((word) => !/^[\w@./=:^-]+$/.test(word));
    if (shellSyntax) throw new Error(`RUN ${run}: "${shellSyntax}" needs a shell; the replay splits on spaces`);
    const [command, ...args] = words;
    const version = /^npm install -g pnpm@(\S+)$/.exec(run)?.[1];
    if (version) {
      pnpmVersion = version;
    } else if (command === 'pnpm' && pnpmVersion) {
      pnpmCommands.push(args);
      await runChecked('npx', ['--yes', `pnpm@${pnpmVersion}`, ...args, ...extraArgs], dir, stage.env);
    } else {
      throw new Error(`RUN ${run}: the replay only knows the global pnpm install and pnpm commands`);
    }
  }
  if (!pnpmVersion) throw new Error(`stage ${stage.name} installs no pnpm`);
  return { pnpmVersion, pnpmCommands };
}

/** `path` (absolute, or relative to `workdir`) inside `root`, the directory standing for `workdir`. */
function inside(root: string, workdir: string, path: string): string {
  const absolute = posix.resolve(workdir, path);
  const relative = posix.relative(workdir, absolute);
  if (relative.startsWith('..') || isAbsolute(relative)) throw new Error(`${path} is outside ${workdir}`);
  return join(root, relative);
}

async function runChecked(command: string, args: readonly string[], cwd: string, env: Record<string, string>) {
  const child = spawnInGroup(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`);
}
