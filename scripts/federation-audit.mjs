#!/usr/bin/env node
// pnpm audit:federation: The Guild's federation-gateway-audit against this gateway, on each mount
// and query planner asked for, one suite at a time, then a table per mount and planner. The audit
// is not part of this repository (its code and data stay in its own): --audit-dir names a checkout
// you cloned and installed yourself (docs/federation-audit.md). Nothing is downloaded here.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { casesOf, formatTable, totals } from './federation-audit/results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MOUNTS = {
  'nest-fastify': 'nest fastify',
  'nest-express': 'nest express',
  fastify: 'bare fastify',
  express: 'bare express',
};
const AUDIT_PACKAGE = '@graphql-hive/federation-gateway-audit';
const HOW_TO_GET_IT = `Clone https://github.com/graphql-hive/federation-gateway-audit next to this repository, run
\`npm install\` in it (docs/federation-audit.md says which of its dev dependencies you may drop), then
  pnpm audit:federation --audit-dir ../federation-gateway-audit`;

const { values } = parseArgs({
  options: {
    'audit-dir': { type: 'string', default: process.env.FEDERATION_AUDIT_DIR },
    mounts: { type: 'string', default: Object.keys(MOUNTS).join(',') },
    planners: { type: 'string', default: 'hive,apollo' },
    suites: { type: 'string' },
    // The audit kills whatever listens on the gateway's port before each suite: pick a free one.
    port: { type: 'string', default: '4300' },
    'audit-port': { type: 'string', default: '4299' },
  },
});

const auditDir = checkedAuditDir(values['audit-dir']);
if (!existsSync(join(ROOT, 'server/dist/main.js'))) fail('server/dist/main.js is missing: run `pnpm build` first.');
const mounts = listOf(values.mounts, Object.keys(MOUNTS), '--mounts');
const planners = listOf(values.planners, ['hive', 'apollo'], '--planners');
const suites = values.suites
  ? values.suites.split(',')
  : readdirSync(join(auditDir, 'src/test-suites'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();

let failed = false;
for (const mount of mounts) {
  for (const planner of planners) {
    const workDir = mkdtempSync(join(tmpdir(), `fedgw-audit-${mount}-${planner}-`));
    writeFileSync(join(workDir, 'run.sh'), runScript(workDir, mount, planner), { mode: 0o755 });
    const results = [];
    for (const suite of suites) results.push({ suite, cases: await runSuite(workDir, suite) });
    const { passed, total } = totals(results);
    failed ||= passed < total;
    process.stdout.write(`${formatTable(`${mount}, QUERY_PLANNER=${planner}`, results)}\n\n`);
    rmSync(workDir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);

/** One suite through the audit's `test-suite`; run again once if the gateway was not ready in time. */
async function runSuite(workDir, suite) {
  for (let attempt = 1; ; attempt++) {
    const output = await auditCommand([
      'test-suite',
      ...['--cwd', workDir, '--test', suite, '--run-script', join(workDir, 'run.sh'), '--reporter', 'dot'],
      ...[
        '--graphql',
        `http://127.0.0.1:${values.port}/graphql`,
        '--healthcheck',
        `http://127.0.0.1:${values.port}/ready`,
      ],
      ...['--port', values['audit-port']],
    ]);
    const log = join(workDir, 'logs', `${suite}-tests.log`);
    const notReady = existsSync(log) && readFileSync(log, 'utf8').includes('Health check failed');
    if (!notReady || attempt === 2) return casesOf(output, suite);
  }
}

/** The script the audit runs before each suite: its supergraph, then this gateway on it. */
function runScript(workDir, mount, planner) {
  const [runtime, adapter] = MOUNTS[mount].split(' ');
  return `#!/bin/sh
set -e
cd '${auditDir}'
npm start --silent -- supergraph --cwd '${workDir}' --test "$1" --port ${values['audit-port']} >/dev/null
cd '${ROOT}'
export SUPERGRAPH_PATH='${workDir}/supergraph.graphql' GATEWAY_LISTEN_HOST=127.0.0.1 GATEWAY_LISTEN_PORT=${values.port}
export SUPERGRAPH_POLL_INTERVAL_MS=0 SHUTDOWN_GRACE_MS=1000 GATEWAY_RUNTIME=${runtime} GATEWAY_ADAPTER=${adapter} QUERY_PLANNER=${planner}
exec '${process.execPath}' server/dist/main.js
`;
}

/** The audit's CLI (`npm start -- …` in its checkout), its standard output collected. */
function auditCommand(args) {
  return new Promise((done, reject) => {
    // Its default wait for a gateway is 5 s; a two-core machine starting one per suite needs more.
    // On this Node (the project's 24 under pnpm): the audit needs 22 or newer.
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    const env = { ...process.env, PATH: path, GATEWAY_TIMEOUT: process.env.GATEWAY_TIMEOUT ?? '60000' };
    const child = spawn('npm', ['start', '--silent', '--', ...args], {
      cwd: auditDir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', () => done(output));
  });
}

function checkedAuditDir(dir) {
  if (!dir) fail(`No audit checkout given (--audit-dir or FEDERATION_AUDIT_DIR).\n${HOW_TO_GET_IT}`);
  const path = resolve(dir);
  const pkg = join(path, 'package.json');
  if (!existsSync(pkg) || JSON.parse(readFileSync(pkg, 'utf8')).name !== AUDIT_PACKAGE)
    fail(`${path} is not a checkout of ${AUDIT_PACKAGE}.\n${HOW_TO_GET_IT}`);
  if (!existsSync(join(path, 'node_modules'))) fail(`${path} is not installed: run \`npm install\` there.`);
  return path;
}

function listOf(value, allowed, flag) {
  const items = value.split(',').filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item));
  if (unknown.length > 0) fail(`${flag}: unknown ${unknown.join(', ')} (expected some of ${allowed.join(', ')})`);
  return items;
}

function fail(message) {
  process.stderr.write(`audit:federation: ${message}\n`);
  process.exit(2);
}
