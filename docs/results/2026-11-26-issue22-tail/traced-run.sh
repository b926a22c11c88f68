#!/usr/bin/env bash
# One traced run: nest-fastify with every request traced to a local OTLP receiver, ComplexQuery load.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../.."
NAME=$1; shift
OUT=/tmp/issue22-tail/$NAME; mkdir -p $OUT; rm -f $OUT/spans.tsv
NODE=$PWD/node_modules/node/bin/node
taskset -c 1 $NODE $HERE/receiver.mjs $OUT/spans-warmup.tsv & REC=$!
taskset -c 1 $NODE subgraphs/dist/run-all.js > $OUT/subgraphs.log 2>&1 & SUB=$!
sleep 3
NODE_ENV=production PORT=4400 LOG_LEVEL=warn OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_EXPORTER_OTLP_PROTOCOL=http/json env "$@" taskset -c 0 $NODE server/dist/main.js > $OUT/gateway.log 2>&1 & GW=$!
for i in $(seq 1 50); do curl -sf localhost:4400/ready >/dev/null && break; sleep 0.3; done
taskset -c 1 bench/node_modules/.bin/autocannon -c 100 -d 5 -m POST -H content-type=application/json -i "$HERE/body.json" localhost:4400/graphql > /dev/null 2>&1
sleep 6; kill $REC; wait $REC 2>/dev/null
taskset -c 1 $NODE $HERE/receiver.mjs $OUT/spans.tsv & REC=$!
sleep 0.5
taskset -c 1 bench/node_modules/.bin/autocannon -c 100 -d 15 -m POST -H content-type=application/json -i "$HERE/body.json" localhost:4400/graphql > $OUT/autocannon.txt 2>&1
sleep 7
kill $GW $SUB $REC; wait 2>/dev/null
grep -E "Latency|Req/Sec" $OUT/autocannon.txt
wc -l $OUT/spans.tsv
