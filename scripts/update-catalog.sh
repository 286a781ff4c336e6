#!/usr/bin/env bash
# Regenerate gopi's model catalogue from omp's published one.
#
#   scripts/update-catalog.sh [VERSION]     (default: 14.9.9)
#
# Fetches @oh-my-pi/pi-ai@VERSION with `npm pack` into a temporary
# directory, takes its src/models.json, stores it (gzip-compressed,
# reproducibly) as core/ai/models/internal/catalogen/pi-ai-models.json.gz
# and runs the generator, which rewrites core/ai/models/catalog_data.go.
# Review `git diff --stat`, run `go test ./core/ai/models/...`, and update
# the counts in docs/providers.md and TestCatalogIsConsistent.
set -euo pipefail

version="${1:-14.9.9}"
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "@oh-my-pi/pi-ai@$version" >/dev/null)
tar -xzf "$tmp"/oh-my-pi-pi-ai-*.tgz -C "$tmp" package/src/models.json
gzip -9n -c "$tmp/package/src/models.json" > "$root/core/ai/models/internal/catalogen/pi-ai-models.json.gz"
(cd "$root/core/ai/models" && go generate ./)
echo "update-catalog: regenerated from @oh-my-pi/pi-ai@$version ($(sha256sum "$tmp/package/src/models.json" | cut -c1-16)…)"
