/**
 * The README's generated results section sits between these markers; the start marker names
 * the committed run folder it was generated from, so a test can regenerate and compare.
 */
const START = /<!-- bench-results:start (\S+) -->\n/;
const END = '<!-- bench-results:end -->';

export interface MarkedSection {
  /** The run folder, relative to the repository root: `docs/results/<run>`. */
  readonly folder: string;
  /** What is between the markers now. */
  readonly body: string;
}

/** The generated section of `readme`, or null when it has no (complete) markers. */
export function findSection(readme: string): MarkedSection | null {
  const start = START.exec(readme);
  if (!start?.[1]) return null;
  const bodyAt = start.index + start[0].length;
  const endAt = readme.indexOf(END, bodyAt);
  if (endAt === -1) return null;
  return { folder: start[1], body: readme.slice(bodyAt, endAt) };
}

/** `readme` with the section replaced by `body`, generated from `folder`. Throws without markers. */
export function replaceSection(readme: string, folder: string, body: string): string {
  const start = START.exec(readme);
  const endAt = start ? readme.indexOf(END, start.index) : -1;
  if (!start || endAt === -1) {
    throw new Error(`README has no "<!-- bench-results:start <folder> -->" … "${END}" markers`);
  }
  return `${readme.slice(0, start.index)}<!-- bench-results:start ${folder} -->\n${body}${readme.slice(endAt)}`;
}
