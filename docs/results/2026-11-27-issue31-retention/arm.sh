#!/bin/bash
# usage: arm.sh label [node flags]; env EXTRA, TARGET, RATE, DUR
label=$1; shift
cd "$(dirname "$0")/../../.."
RATE=${RATE:-300} DUR=${DUR:-20} WARMUP=${WARMUP:-5} node_modules/.bin/node docs/results/2026-11-27-issue31-tail/trace-run.mjs /tmp/arm-$label.log "$@" > /tmp/arm-$label.json 2>&1
echo "$label $(cat /tmp/arm-$label.json | tail -1)"
node_modules/.bin/node docs/results/2026-11-27-issue31-tail/gc-window.mjs /tmp/arm-$label.log $label | head -c 600; echo
