// `pnpm shadow:report [file]`: reads the gateway's log lines (a file, or standard input when none
// is named or it is `-`) and prints, per operation, the paths where the shadow's answers differed
// (SHADOW_URL, SHADOW_SUPERGRAPH; docs/shadow-traffic.md) and how often, then the shadow's failures.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { formatShadowReport, readShadowLog } from '../gateway/dist/plugins/shadow/report.js';

const file = process.argv[2];
const input = file && file !== '-' ? createReadStream(file) : process.stdin;
const lines = [];
for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) lines.push(line);
process.stdout.write(formatShadowReport(readShadowLog(lines)));
