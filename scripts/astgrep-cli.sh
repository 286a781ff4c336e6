#!/usr/bin/env bash
# astgrep-cli.sh — install the ast-grep CLI (npm package @ast-grep/cli, the
# version of the ast-grep crates linked into gopi) into a scratch directory
# and print the path of its binary. Idempotent.
#
#   scripts/astgrep-cli.sh [DIR]     default DIR: bench/_work/astgrep-cli
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-bench/_work/astgrep-cli}
version=$(awk '/^name = "ast-grep-core"/{getline; gsub(/[^0-9.]/,""); print; exit}' native/Cargo.lock)
bin="$dir/node_modules/.bin/ast-grep"
if [ ! -x "$bin" ] || ! "$bin" --version 2>/dev/null | grep -q "$version"; then
  command -v npm >/dev/null || { echo "astgrep-cli: npm is needed to install @ast-grep/cli" >&2; exit 1; }
  mkdir -p "$dir"
  npm install --silent --no-audit --no-fund --prefix "$dir" "@ast-grep/cli@${version}" >&2
fi
"$bin" --version >/dev/null
echo "$(cd "$(dirname "$bin")" && pwd)/ast-grep"
