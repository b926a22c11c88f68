#!/bin/bash
# The patch A/B of ADR 051: each arm takes its patches back out of node_modules, runs
# measure.mjs, and puts them back. An arm's package copy is made with `cp -r` (new files, so the
# pnpm store's hard-linked files are never written) and `patch -R`, i.e. the upstream files;
# `pnpm install --offline` without the patchedDependencies entry gives the same files, slower.
# Usage, from the repository root: bash docs/results/2026-11-28-patches/ab.sh > docs/results/2026-11-28-patches/ab.txt
set -euo pipefail
here=docs/results/2026-11-28-patches
node=node_modules/.bin/node
package_dir() { # patches/@scope__name@1.2.3.patch -> its directory under node_modules/.pnpm
  local f pkg ver
  f=$(basename "$1" .patch); pkg=$(echo "$f" | sed 's/__/\//; s/@\([0-9][^@]*\)$//'); ver=${f##*@}
  ls -d node_modules/.pnpm/"${pkg/\//+}@${ver}"_patch_hash=*/node_modules/"$pkg"
}
unpatch() {
  for p in "$@"; do
    d=$(package_dir "$p")
    rm -rf "$d.upstream"; cp -r "$d" "$d.upstream"
    patch -s -R -p1 -d "$d.upstream" < "$p"
    mv "$d" "$d.patched"; mv "$d.upstream" "$d"
  done
}
repatch() {
  for p in "$@"; do
    d=$(package_dir "$p" | head -1)
    if [ -d "$d.patched" ]; then rm -rf "$d"; mv "$d.patched" "$d"; fi
  done
}
arm() { # arm <label> <measure flags> <patch files...>
  local label=$1 flags=$2; shift 2
  trap 'repatch "$@"' EXIT
  unpatch "$@"
  printf '%-44s %s\n' "$label" "$($node $here/measure.mjs $flags)"
  repatch "$@"
  trap - EXIT
}
all=(patches/*.patch)
memory_only=()
for p in "${all[@]}"; do [[ $p == *apollo__server* ]] || memory_only+=("$p"); done
without_gateway=()
for p in "${memory_only[@]}"; do [[ $p == *apollo__gateway* ]] || without_gateway+=("$p"); done
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD), node $($node -v); runs: 2 without hooks, 1 with"
arm "all patches (shipped)" ""
for p in "${all[@]}"; do arm "without $(basename "$p" .patch)" "" "$p"; done
arm "without every patch but @apollo/server's" "" "${memory_only[@]}"
arm "without all but @apollo/server, @apollo/gateway" "" "${without_gateway[@]}"
arm "nest-express: all patches" "--express"
arm "nest-express: without @nestjs/platform-express" "--express" patches/@nestjs__platform-express@12.5.1.patch
arm "nest-express: without all but @apollo/server" "--express" "${memory_only[@]}"
arm "all patches (shipped), again" ""
