#!/usr/bin/env bash
# usage: run.sh <name> [node flags...]   (after pnpm build; writes /tmp/semispace/<name>)
# One --trace-gc run of nest-fastify under ComplexQuery (100 connections, 5 s warm-up, 15 s measured).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../.."
NAME=$1; shift
OUT=/tmp/semispace/$NAME; mkdir -p $OUT
NODE=$PWD/node_modules/node/bin/node
taskset -c 1 $NODE subgraphs/dist/run-all.js > $OUT/subgraphs.log 2>&1 &
SUB=$!
sleep 3
NODE_ENV=production PORT=4400 LOG_LEVEL=warn taskset -c 0 $NODE --trace-gc "$@" server/dist/main.js > $OUT/gateway.log 2>&1 &
GW=$!
for i in $(seq 1 50); do curl -sf localhost:4400/ready >/dev/null && break; sleep 0.3; done
cp "$HERE/../body.json" $OUT/body.json
# warm-up 5 s, then 15 s measured
taskset -c 1 bench/node_modules/.bin/autocannon -c 100 -d 5 -m POST -H content-type=application/json -i $OUT/body.json localhost:4400/graphql > /dev/null 2>&1
MARK=$(wc -l < $OUT/gateway.log)
T0=$(awk '{print $14+$15}' /proc/$GW/stat)
taskset -c 1 bench/node_modules/.bin/autocannon -c 100 -d 15 -m POST -H content-type=application/json -i $OUT/body.json localhost:4400/graphql > $OUT/autocannon.txt 2>&1
T1=$(awk '{print $14+$15}' /proc/$GW/stat); echo "cpu_ticks $((T1-T0))" > $OUT/cpu.txt
tail -n +$((MARK+1)) $OUT/gateway.log | grep -E "Scavenge|Mark-Compact|Mark-sweep" > $OUT/trace-gc-measured.txt
kill $GW $SUB; wait 2>/dev/null
python3 - "$OUT" <<'PY'
import re,sys,statistics
out=sys.argv[1]
lines=open(out+'/trace-gc-measured.txt').read().splitlines()
def pauses(kind):
    return [float(m.group(1)) for l in lines if kind in l for m in [re.search(r'MB, (?:pooled: [\d.]+ MB, )?([\d.]+) / ([\d.]+) ms', l)] if m]
sc=pauses('Scavenge'); mc=pauses('Mark-Compact')
ac=open(out+'/autocannon.txt').read()
def q(v): return f"{statistics.median(v):.1f} median, {max(v):.1f} max, {sum(v)/1000:.2f} s total" if v else 'none'
print(f"{out.split('/')[-1]}: scavenges {len(sc)} ({q(sc)}); mark-compacts {len(mc)} ({q(mc)})")
PY
grep -E "Latency|2.5%|Req/Sec|requests in" $OUT/autocannon.txt | head -8
