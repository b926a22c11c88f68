/**
 * A generated README section sits between `<!-- <name>:start <folder> -->` and
 * `<!-- <name>:end -->`; the start marker names the committed run folder it was generated from,
 * so a test can regenerate and compare. `bench-results` holds the results of a `pnpm bench`
 * run, `bench-soak` a soak's. A start marker without a folder is a placeholder (no run yet).
 */
export const RESULTS_MARKERS = 'bench-results';

const start = (name: string) => new RegExp(`<!-- ${name}:start(?: (\\S+))? -->\\n`);
const end = (name: string) => `<!-- ${name}:end -->`;

export interface MarkedSection {
  /** The run folder, relative to the repository root: `docs/results/<run>`. */
  readonly folder: string;
  /** What is between the markers now. */
  readonly body: string;
}

/** The generated section of `readme`, or null when it has no (complete) markers or names no folder yet. */
export function findSection(readme: string, name = RESULTS_MARKERS): MarkedSection | null {
  const found = start(name).exec(readme);
  if (!found?.[1]) return null;
  const bodyAt = found.index + found[0].length;
  const endAt = readme.indexOf(end(name), bodyAt);
  if (endAt === -1) return null;
  return { folder: found[1], body: readme.slice(bodyAt, endAt) };
}

/** `readme` with the section replaced by `body`, generated from `folder`. Throws without markers. */
export function replaceSection(readme: string, folder: string, body: string, name = RESULTS_MARKERS): string {
  const found = start(name).exec(readme);
  const endAt = found ? readme.indexOf(end(name), found.index) : -1;
  if (!found || endAt === -1) {
    throw new Error(`README has no "<!-- ${name}:start <folder> -->" … "${end(name)}" markers`);
  }
  return `${readme.slice(0, found.index)}<!-- ${name}:start ${folder} -->\n${body}${readme.slice(endAt)}`;
}
