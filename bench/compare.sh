#!/usr/bin/env bash
# bench/compare.sh [REV] — `make bench-compare [REV=…]`: does the working tree
# make gopi slower than REV (default HEAD) where the change could matter?
#
#   1. the paths changed between REV and the working tree (untracked files
#      included) are mapped to benchmark areas through bench/areas.tsv
#      (BENCH_AREAS="a b" overrides the mapping); no area touched: exit 0;
#   2. REV is built in a temporary git worktree (with this tree's native
#      library, native/_lib: when REV changed native/, rebuild it there first)
#      and the working tree is built too, both with -trimpath so that the two
#      share Go's build cache whatever their directories (the first run
#      still builds everything once: minutes on a loaded machine);
#   3. benchreport compare times every case of bench/compare.tsv of those
#      areas with both builds in alternated rounds (base head, head base, …)
#      and takes head ÷ base run by run: a case whose whole 95 % interval is
#      above 1 + BENCH_MIN_EFFECT (default 0.05) is a regression.
#
# Exit status: 0 no regression (or nothing to compare), 1 a regression,
# 2 a failure (build, a case that fails). The samples go to
# bench/_work/compare.jsonl.
#
#   BENCH_RUNS        alternated rounds per case (default 15)
#   BENCH_MIN_EFFECT  smallest slowdown called a regression (default 0.05)
#   BENCH_HEAD        time this binary as the head instead of building the tree
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
REV=${1:-HEAD}
base=$(git rev-parse --verify --quiet "$REV^{commit}") || { echo "bench-compare: $REV is not a commit (give REV=<branch, tag or hash>)" >&2; exit 2; }

# 1. changed paths → areas
changed=$( (git diff --name-only "$base"; git ls-files --others --exclude-standard) | sort -u)
areas=${BENCH_AREAS:-}
if [ -z "$areas" ]; then
	. bench/lib/areas.sh
	areas=$(bench_areas_of bench/areas.tsv <<<"$changed")
fi
if [ -z "${areas// /}" ]; then
	echo "bench-compare: no change since ${REV} ($(git rev-parse --short "$base")) touches a benchmarked area (bench/areas.tsv): nothing to compare"
	exit 0
fi
echo "bench-compare: working tree vs $REV ($(git rev-parse --short "$base")); areas: $areas" >&2

# 2. builds
tmp=$(mktemp -d /tmp/gopi-bench-compare.XXXXXX)
cleanup() {
	git -C "$ROOT" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
stamp="-X github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$(sha256sum native/_lib/libgopi_native.a | cut -c1-16)"
git worktree add --detach -q "$tmp/base" "$base"
mkdir -p "$tmp/base/native/_lib"
cp -r native/_lib/. "$tmp/base/native/_lib/"
echo "bench-compare: building $REV" >&2
(cd "$tmp/base" && GOFLAGS= go build -trimpath -ldflags "$stamp" -o "$tmp/gopi-base" ./cmd/gopi) || { echo "bench-compare: building $REV failed" >&2; exit 2; }
head_bin=${BENCH_HEAD:-}
if [ -z "$head_bin" ]; then
	echo "bench-compare: building the working tree" >&2
	GOFLAGS= go build -trimpath -ldflags "$stamp" -o "$tmp/gopi-head" ./cmd/gopi || { echo "bench-compare: building the working tree failed" >&2; exit 2; }
	head_bin=$tmp/gopi-head
fi
mkdir -p bench/_work/bin
GOFLAGS= go build -o bench/_work/bin/benchreport ./bench/cmd/benchreport

# 3. alternated comparison
bench/_work/bin/benchreport compare -base "$tmp/gopi-base" -head "$head_bin" -areas "$areas" \
	-runs "${BENCH_RUNS:-15}" -min-effect "${BENCH_MIN_EFFECT:-0.05}" -o bench/_work/compare.jsonl
