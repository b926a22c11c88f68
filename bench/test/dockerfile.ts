/**
 * The Dockerfile read into its stages: just the instructions the compose test replays without a
 * Docker engine (WORKDIR, ENV, COPY, RUN, CMD). Anything it does not understand is an error,
 * so a new instruction cannot slip past the replay unnoticed.
 */

export interface Copy {
  /** `--from=<stage>`; undefined: from the build context. */
  readonly from?: string;
  readonly sources: readonly string[];
  readonly dest: string;
}

export interface Stage {
  readonly name: string;
  readonly base: string;
  readonly workdir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly copies: readonly Copy[];
  /** Shell-form RUN commands, in order. */
  readonly runs: readonly string[];
  /** Exec-form CMD, if the stage sets one. */
  readonly cmd?: readonly string[];
}

// Metadata and the health check: checked on the Dockerfile's text (compose.test.ts), not replayed.
const IGNORED = new Set(['USER', 'EXPOSE', 'ARG', 'LABEL', 'HEALTHCHECK']);

export function parseDockerfile(text: string): Stage[] {
  const stages: { -readonly [K in keyof Stage]: Stage[K] }[] = [];
  for (const line of instructions(text)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = line.slice(keyword.length).trim();
    const instruction = keyword.toUpperCase();
    if (instruction === 'FROM') {
      const [base = '', as, name] = rest;
      if (as?.toUpperCase() !== 'AS' || !name) throw new Error(`unnamed stage: ${line}`);
      stages.push({ name, base, workdir: '/', env: {}, copies: [], runs: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`instruction before FROM: ${line}`);
    if (instruction === 'WORKDIR') stage.workdir = args;
    else if (instruction === 'ENV') stage.env = { ...stage.env, ...envPairs(args) };
    else if (instruction === 'RUN') stage.runs = [...stage.runs, args];
    else if (instruction === 'CMD') stage.cmd = JSON.parse(args) as string[];
    else if (instruction === 'COPY') stage.copies = [...stage.copies, copy(rest)];
    else if (!IGNORED.has(instruction)) throw new Error(`the replay does not know ${instruction}: ${line}`);
  }
  return stages;
}

export function stage(stages: readonly Stage[], name: string): Stage {
  const found = stages.find((s) => s.name === name);
  if (!found) throw new Error(`the Dockerfile has no stage ${name}`);
  return found;
}

/** Logical lines: comments and blank lines dropped, `\` continuations joined. */
function instructions(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(pending + line);
    pending = '';
  }
  return lines;
}

function envPairs(args: string): Record<string, string> {
  const pairs = args.split(/\s+/).map((pair) => pair.split('='));
  if (pairs.some((pair) => pair.length !== 2)) throw new Error(`ENV: only KEY=value pairs are replayed: ${args}`);
  return Object.fromEntries(pairs);
}

function copy(words: readonly string[]): Copy {
  const flags = words.filter((word) => word.startsWith('--'));
  const paths = words.filter((word) => !word.startsWith('--'));
  const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
  if (flags.length > (from ? 1 : 0) || paths.length < 2) throw new Error(`COPY not replayed: ${words.join(' ')}`);
  return { ...(from ? { from } : {}), sources: paths.slice(0, -1), dest: paths.at(-1) as string };
}
