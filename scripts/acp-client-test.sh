#!/usr/bin/env bash
# acp-client-test.sh — drives `gopi acp` with the official Agent Client
# Protocol TypeScript library (@agentclientprotocol/sdk, pinned in
# core/modes/acp/testdata/node-client/package.json) acting as the editor:
# initialize, session/new, a prompt with a read and a permission-gated edit
# (diff, fs/write_text_file), a cancelled prompt, then session/load in a new
# agent process. The library is installed with npm into the user cache
# directory (~/.cache/gopi/acp-node-client), outside the repository.
#
# `make test` runs the same test (TestNodeClient) and skips it when node or
# npm is missing or the install fails; this script makes those failures.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
GOPI_ACP_NODE_TEST=1 exec go test -count=1 -run 'TestNodeClient' -v ./core/modes/acp "$@"
