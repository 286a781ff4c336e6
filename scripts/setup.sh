#!/usr/bin/env bash
# setup.sh — make a fresh Debian machine ready to build and test gopi.
#
# Idempotent: every step checks first and does nothing when its work is
# already done. It installs only through the package registries this project
# may use (Debian apt, crates.io through cargo, the Go module proxy, npm,
# PyPI); it never
# downloads a toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
need_apt=()

# C toolchain for cgo and the Rust static library's link step.
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v git >/dev/null 2>&1 || need_apt+=(git)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
# Test tools: a headless browser for the HTML export test, tmux for the
# terminal tests.
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
# OpenSSH for the ssh tool's tests: a throwaway sshd on 127.0.0.1 and the
# client the tool runs.
[ -x /usr/sbin/sshd ] || need_apt+=(openssh-server)
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 || need_apt+=(openssh-client)
# A native debug adapter for the debug tool's tests: lldb-dap (Debian's gdb
# 13 has no DAP interpreter). Only where apt knows the package.
if ! command -v lldb-dap >/dev/null 2>&1 && ! compgen -c lldb-dap- >/dev/null 2>&1 &&
  command -v apt-cache >/dev/null 2>&1 && apt-cache show lldb-19 >/dev/null 2>&1; then
  need_apt+=(lldb-19)
fi
# clangd for the lsp tool's C tests.
command -v clangd >/dev/null 2>&1 || need_apt+=(clangd)

if [ ${#need_apt[@]} -gt 0 ] && ! command -v apt-get >/dev/null 2>&1; then
  # Not Debian (the macOS and Windows CI runners): the tests that need these
  # tools skip themselves when they are missing.
  say "warning: ${need_apt[*]} not found and no apt-get here; install them with the system's package manager" >&2
  need_apt=()
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "missing ${need_apt[*]}; run as root or install them with apt-get" >&2
    exit 1
  fi
  say "installing ${need_apt[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Toolchains that must already be on the machine: we never download one.
for tool in go cargo rustc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    say "$tool is not installed. gopi needs Go >= 1.26 and Rust (cargo) >= 1.80 on PATH." >&2
    exit 1
  fi
done

# A real MCP server for the MCP client's tests, from npm, into a cache
# outside the tree (the tests look for it there and skip without npm).
mcp_dir="${GOPI_TEST_CACHE:-$HOME/.cache/gopi-test}/mcp"
mcp_pkg="@modelcontextprotocol/server-everything"
mcp_version="2026.8.31"
if command -v npm >/dev/null 2>&1; then
  if ! grep -qs "\"version\": \"$mcp_version\"" "$mcp_dir/node_modules/$mcp_pkg/package.json"; then
    say "installing $mcp_pkg@$mcp_version for the MCP tests into $mcp_dir"
    mkdir -p "$mcp_dir"
    npm install --silent --no-audit --no-fund --prefix "$mcp_dir" "$mcp_pkg@$mcp_version" >/dev/null
  fi
else
  say "npm not found: the MCP tests against a real server will be skipped"
fi

# Real debug adapters for the debug tool's tests, into the same cache:
# dlv from the Go module proxy, debugpy from PyPI in a virtual environment
# (the tests look for them there and skip, naming this script, without).
dap_dir="${GOPI_TEST_CACHE:-$HOME/.cache/gopi-test}/dap"
dlv_version="v1.27.2"
if ! "$dap_dir/bin/dlv" version 2>/dev/null | grep -q "Version: ${dlv_version#v}$"; then
  say "installing dlv $dlv_version for the debug tool's tests into $dap_dir/bin"
  mkdir -p "$dap_dir/bin"
  GOBIN="$dap_dir/bin" GOFLAGS= go install "github.com/go-delve/delve/cmd/dlv@$dlv_version"
fi
debugpy_version="1.8.17"
if command -v python3 >/dev/null 2>&1; then
  if ! "$dap_dir/venv/bin/python" -c "import debugpy, sys; sys.exit(debugpy.__version__ != '$debugpy_version')" 2>/dev/null; then
    say "installing debugpy $debugpy_version for the debug tool's tests into $dap_dir/venv"
    if python3 -m venv "$dap_dir/venv" >/dev/null 2>&1; then
      "$dap_dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check "debugpy==$debugpy_version"
    else
      say "python3 cannot make a virtual environment (apt-get install python3-venv): the debugpy tests will be skipped"
    fi
  fi
else
  say "python3 not found: the debug tool's debugpy tests will be skipped"
fi

# nbformat from PyPI for the notebook editing tests (internal/nbformattest:
# each notebook edit must still open in Python's json and nbformat), in a
# virtual environment in the same cache; the tests skip, naming this
# script, without it.
nbformat_dir="${GOPI_TEST_CACHE:-$HOME/.cache/gopi-test}/nbformat"
nbformat_version="5.11.1"
if command -v python3 >/dev/null 2>&1; then
  if ! "$nbformat_dir/venv/bin/python" -c "import nbformat, sys; sys.exit(nbformat.__version__ != '$nbformat_version')" 2>/dev/null; then
    say "installing nbformat $nbformat_version for the notebook tests into $nbformat_dir/venv"
    if python3 -m venv "$nbformat_dir/venv" >/dev/null 2>&1; then
      "$nbformat_dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check "nbformat==$nbformat_version"
    else
      say "python3 cannot make a virtual environment (apt-get install python3-venv): the nbformat checks will be skipped"
    fi
  fi
else
  say "python3 not found: the nbformat checks of the notebook tests will be skipped"
fi

# Language servers for the lsp tool's tests, into a cache outside the tree
# (core/lsp/lsptest finds them there; the tests skip naming this script when
# one is missing): gopls from the Go module proxy; typescript-language-server,
# typescript and pyright from npm (versions that run on Node 20).
lsp_dir="${GOPI_TEST_CACHE:-$HOME/.cache/gopi-test}/lsp"
gopls_version="v0.23.0" # v0.24 needs Go 1.27
if [ "$(cat "$lsp_dir/gopls.version" 2>/dev/null)" != "$gopls_version" ] || [ ! -x "$lsp_dir/bin/gopls" ]; then
  say "installing gopls $gopls_version for the LSP tests into $lsp_dir/bin"
  mkdir -p "$lsp_dir/bin"
  GOBIN="$lsp_dir/bin" GOFLAGS= go install "golang.org/x/tools/gopls@$gopls_version"
  echo "$gopls_version" > "$lsp_dir/gopls.version"
fi
lsp_npm="typescript-language-server@5.1.3 typescript@5.9.3 pyright@1.1.414"
if command -v npm >/dev/null 2>&1; then
  if [ "$(cat "$lsp_dir/npm.version" 2>/dev/null)" != "$lsp_npm" ]; then
    say "installing $lsp_npm for the LSP tests into $lsp_dir"
    mkdir -p "$lsp_dir"
    # shellcheck disable=SC2086 # one word per package
    npm install --silent --no-audit --no-fund --prefix "$lsp_dir" $lsp_npm >/dev/null
    echo "$lsp_npm" > "$lsp_dir/npm.version"
  fi
else
  say "npm not found: the LSP tests against TypeScript and Python servers will be skipped"
fi

# Dependencies from the registries, pinned by go.sum and native/Cargo.lock.
stamp=.setup-stamp
sum=$(cat go.mod go.sum native/Cargo.toml native/Cargo.lock 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ -f "native/_target/$stamp" ] && [ "$(cat "native/_target/$stamp")" = "$sum" ]; then
  exit 0
fi
say "fetching Go modules"
go mod download
say "fetching Rust crates"
(cd native && cargo fetch --locked --quiet)
mkdir -p native/_target
echo "$sum" > "native/_target/$stamp"
say "ready"
