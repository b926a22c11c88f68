import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
const n = Number(process.env.GC_NICE ?? 19);
for (const tid of readdirSync('/proc/self/task')) {
  if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'V8Worker') setPriority(Number(tid), n);
}
