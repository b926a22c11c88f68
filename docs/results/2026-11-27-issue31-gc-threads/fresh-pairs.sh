#!/bin/bash
# Alternating §C-baseline windows, ours then the Router, each with FRESH subgraphs (../2026-11-27-issue31-tail/trace-run.mjs with KIND);
# their output: fresh-subgraphs-ours-vs-router.txt
cd /work/main
for i in $(seq 1 ${PAIRS:-5}); do
  for t in ours router; do
    if [ $t = ours ]; then K=mount; T=nest-fastify; else K=router; T=apollo-router; fi
    r=$(KIND=$K TARGET=$T RATE=500 DUR=20 node_modules/.bin/node docs/results/2026-11-27-issue31-tail/trace-run.mjs /tmp/probe/pair-$t-$i.log 2>&1 | tail -1)
    echo "$t $i $r"
  done
done
