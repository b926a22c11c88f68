import { readdirSync, readFileSync } from 'node:fs';

/** Each thread of `pid` as [name, nice value] (/proc/<pid>/task/<tid>/stat, field 19). Linux only. */
export function threadNices(pid: number): [string, number][] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [name, Number(fields[16])];
  });
}
