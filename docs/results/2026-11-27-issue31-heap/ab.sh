#!/bin/bash
# Issue 31's A/B: the same `pnpm bench:heap` run on two builds of gateway/dist, one after the other.
# Make the two builds first (from the repository root):
#   git stash; pnpm build; cp -r gateway/dist /tmp/gw-dist-before; git stash pop; pnpm build; cp -r gateway/dist /tmp/gw-dist-after
# (here: before = fed4fdc's gateway, after = this branch's). Usage: RATE=40 DUR=15 TAG=4 ab.sh before after
# Writes /tmp/ab-<arm>-<TAG>/summary.{md,json}; leaves the after build in gateway/dist.
set -e
cd "$(dirname "$0")/../../.."
for arm in "$@"; do
  rm -rf gateway/dist && cp -r "/tmp/gw-dist-$arm" gateway/dist
  node_modules/.bin/node bench/dist/heap-cli.js --rate "${RATE:-100}" --duration "${DUR:-10}" --warmup 3 \
    --snapshots 0 --base-port 4710 --out "/tmp/ab-$arm-$TAG" > "/tmp/ab-$arm-$TAG.log" 2>&1
done
rm -rf gateway/dist && cp -r /tmp/gw-dist-after gateway/dist
