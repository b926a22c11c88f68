#!/usr/bin/env bash
# The gateway's event-loop lag over 15 s of ComplexQuery load (prom-client's, reset at each scrape) and its --trace-gc lines.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../.."
OUT=/tmp/issue22-tail/lag; mkdir -p $OUT
NODE=$PWD/node_modules/node/bin/node
taskset -c 1 $NODE --trace-gc subgraphs/dist/run-all.js > $OUT/subgraphs.log 2>&1 & SUB=$!
sleep 3
NODE_ENV=production PORT=4400 LOG_LEVEL=warn METRICS_ENABLED=true taskset -c 0 $NODE --trace-gc server/dist/main.js > $OUT/gateway.log 2>&1 & GW=$!
for i in $(seq 1 50); do curl -sf localhost:4400/ready >/dev/null && break; sleep 0.3; done
taskset -c 1 bench/node_modules/.bin/autocannon -c 100 -d 5 -m POST -H content-type=application/json -i "$HERE/body.json" localhost:4400/graphql > /dev/null 2>&1
curl -s localhost:4400/metrics > $OUT/metrics-before.txt
SM=$(wc -l < $OUT/subgraphs.log)
taskset -c 1 bench/node_modules/.bin/autocannon -c 100 -d 15 -m POST -H content-type=application/json -i "$HERE/body.json" localhost:4400/graphql > $OUT/autocannon.txt 2>&1
curl -s localhost:4400/metrics > $OUT/metrics-after.txt
tail -n +$((SM+1)) $OUT/subgraphs.log | grep -E "Scavenge|Mark-Compact" > $OUT/subgraphs-gc.txt
kill $GW $SUB; wait 2>/dev/null
grep -E "Latency" $OUT/autocannon.txt
grep -E "^nodejs_eventloop_lag_(max|p99|p90|p50|mean)_seconds" $OUT/metrics-after.txt
