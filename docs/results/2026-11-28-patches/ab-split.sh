#!/bin/bash
# Part of a patch taken back (measure.mjs, as ab.sh): the hunks of the two patches that do more
# than one thing. @apollo/server without its @graphql-tools/schema part (ApolloServer.js) keeps
# the gateway context and the query hash; @apollo/gateway without every part but opentelemetry.js.
# Usage, from the repository root: bash docs/results/2026-11-28-patches/ab-split.sh > docs/results/2026-11-28-patches/ab-split.txt
set -euo pipefail
here=docs/results/2026-11-28-patches
node=node_modules/.bin/node
parts=$(mktemp -d)
package_dir() {
  local f pkg ver
  f=$(basename "$1" .patch); pkg=$(echo "$f" | sed 's/__/\//; s/@\([0-9][^@]*\)$//'); ver=${f##*@}
  ls -d node_modules/.pnpm/"${pkg/\//+}@${ver}"_patch_hash=*/node_modules/"$pkg"
}
arm() { # arm <label> <patch part to take back>
  local d; d=$(package_dir "$2")
  rm -rf "$d.upstream"; cp -r "$d" "$d.upstream"; patch -s -R -p1 -d "$d.upstream" < "$2"
  mv "$d" "$d.patched"; mv "$d.upstream" "$d"
  trap 'rm -rf "$d"; mv "$d.patched" "$d"' EXIT
  printf '%-58s %s\n' "$1" "$($node $here/measure.mjs)"
  rm -rf "$d"; mv "$d.patched" "$d"; trap - EXIT
}
python3 $here/sections.py patches/@apollo__server@5.5.0.patch "$parts/server" ApolloServer.js
python3 $here/sections.py patches/@apollo__gateway@2.14.4.patch "$parts/gateway" RemoteGraphQLDataSource executeQueryPlan supergraphManagers
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD), node $($node -v); runs: 2 without hooks, 1 with"
printf '%-58s %s\n' "all patches (shipped)" "$($node $here/measure.mjs)"
arm "@apollo/server without its @graphql-tools/schema part" "$parts/server/@apollo__server@5.5.0.patch"
arm "@apollo/gateway with only its opentelemetry.js part" "$parts/gateway/@apollo__gateway@2.14.4.patch"
printf '%-58s %s\n' "all patches (shipped), again" "$($node $here/measure.mjs)"
