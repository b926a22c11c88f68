#!/bin/sh
# Three runs without the hooks (memory as the gateway runs) and three with them (the modules),
# into <label>.txt; the last hooked run's per-package table and module list follow.
# Usage, from the repository root: sh docs/results/2026-11-27-issue31-live-set/run3.sh <label>
set -e
here=docs/results/2026-11-27-issue31-live-set
out="$here/$1.txt"
node=node_modules/.bin/node
: > "$out"
for i in 1 2 3; do echo "no-hooks $i: $($node $here/live-set.mjs --no-hooks | head -1)" >> "$out"; sleep 1; done
for i in 1 2 3; do $node $here/live-set.mjs --modules > /tmp/live-set-run.txt; echo "hooks    $i: $(head -1 /tmp/live-set-run.txt)" >> "$out"; sleep 1; done
echo >> "$out"
tail -n +2 /tmp/live-set-run.txt >> "$out"
