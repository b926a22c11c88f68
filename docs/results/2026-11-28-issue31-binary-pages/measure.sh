#!/bin/bash
# Idle gateway (nest-fastify, shipped defaults), 6 s after start: the binary's resident pages and
# VmRSS. Arm "formatter-at-import" preloads one `new Intl.DateTimeFormat` with Nest's options,
# which is what @nestjs/common did at import before its patch. Run from the repository root.
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
measure() {
  PORT=4795 node_modules/.bin/node "$@" server/dist/main.js >/dev/null 2>&1 &
  sleep 6
  local pid # node_modules/.bin/node is a shell wrapper: the gateway is its child
  pid=$(pgrep -P $!)
  echo "$(grep VmRSS /proc/$pid/status | tr -s ' \t' ' ') | $(python3 "$DIR/binary-pages.py" "$pid")"
  kill "$pid"; sleep 1
}
for round in 1 2; do
  echo "round $round shipped: $(measure)"
  echo "round $round formatter-at-import: $(measure --import "$DIR/formatter-at-import.mjs")"
done
