import { readdirSync, readFileSync } from 'node:fs';

/**
 * A /proc stat file (`/proc/<pid>/stat` or a thread's `/proc/<pid>/task/<tid>/stat`): the name
 * (field 2, which may hold spaces and parentheses) and the fields from field 3 on. Linux only.
 */
export function readProcStat(path: string): { name: string; fields: string[] } {
  const stat = readFileSync(path, 'utf8');
  const nameEnd = stat.lastIndexOf(')');
  return { name: stat.slice(stat.indexOf('(') + 1, nameEnd), fields: stat.slice(nameEnd + 2).split(' ') };
}

/** Each thread of `pid` as [name, nice value] (field 19). */
export function threadNices(pid: number): [string, number][] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const { name, fields } = readProcStat(`/proc/${pid}/task/${tid}/stat`);
    return [name, Number(fields[16])];
  });
}
