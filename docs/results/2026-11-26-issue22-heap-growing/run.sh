#!/usr/bin/env bash
# Issue 22's memory table, second part: V8's old-generation growing factor against RSS, CPU and p99.
# Each set is one `--quick` §A run of nest-fastify (10 s rows after 3 s), in interleaved rounds.
# Usage (from the project root, after `pnpm build`): bash docs/results/2026-11-26-issue22-heap-growing/run.sh
set -euo pipefail
out=docs/results/2026-11-26-issue22-heap-growing
declare -A sets=(
  [default]=""
  [grow50]="--heap-growing-percent=50"
  [grow100]="--heap-growing-percent=100"
  [semi16-grow50]="--max-semi-space-size=16 --heap-growing-percent=50"
)
for round in 1 2; do
  for name in default grow50 grow100 semi16-grow50; do
    node_modules/node/bin/node bench/dist/cli.js --quick --targets nest-fastify --scenarios A \
      --out "$out/$name-$round" --node-flags="${sets[$name]}"
  done
done
