#!/usr/bin/env bash
# ast-trees.sh — print the JS/TS source tree the AST conformance and
# benchmark scripts scan: the npm package "typescript" (its lib/ holds
# large .js files and many .d.ts files), installed once outside the
# repository (git-ignored directories would hide it from ast-grep).
#
#   scripts/ast-trees.sh       prints the tree's directory
set -euo pipefail
dir=${GOPI_AST_TREES:-${TMPDIR:-/tmp}/gopi-ast-trees}
ts_version=5.6.3
tree="$dir/node_modules/typescript"
if [ ! -f "$tree/package.json" ] || ! grep -q "\"version\": \"$ts_version\"" "$tree/package.json"; then
  command -v npm >/dev/null || { echo "ast-trees: npm is needed" >&2; exit 1; }
  mkdir -p "$dir"
  npm install --silent --no-audit --no-fund --prefix "$dir" "typescript@$ts_version" >&2
fi
echo "$tree"
