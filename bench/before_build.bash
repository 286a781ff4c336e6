# bench/before_build.bash — sourced by the area scripts that measure an
# older revision beside the current tree (BENCH_BEFORE, BENCH_SESSION_BEFORE).
#
# build_gopi_at REV OUT: builds cmd/gopi as it was at git revision REV into
# OUT, from `git archive REV`. The Rust library is not rebuilt: REV links
# this tree's native/_lib when native/ has not changed since REV, or the
# library named by BENCH_BEFORE_NATIVE_LIB (a libgopi_native.a built from
# REV's native/, e.g. by `make native` in a checkout of REV). Linking an
# older Go side against a newer library whose C interface changed would
# measure nothing sensible (or crash), so that case stops with a message.
build_gopi_at() {
	local rev=$1 out=$2 root src lib
	root=$(git rev-parse --show-toplevel)
	lib=$root/native/_lib/libgopi_native.a
	if [ -n "${BENCH_BEFORE_NATIVE_LIB:-}" ]; then
		lib=$BENCH_BEFORE_NATIVE_LIB
	elif ! git -C "$root" diff --quiet "$rev" HEAD -- native/src native/include native/Cargo.toml native/Cargo.lock; then
		echo "bench: native/ changed between $rev and HEAD, so $rev cannot link this tree's native/_lib;" >&2
		echo "bench: build the library in a checkout of $rev (make native) and set BENCH_BEFORE_NATIVE_LIB to its libgopi_native.a" >&2
		return 1
	fi
	[ -f "$lib" ] || { echo "bench: no native library at $lib" >&2; return 1; }
	src=$(mktemp -d "${TMPDIR:-/tmp}/gopi-before-XXXXXX")
	git -C "$root" archive "$rev" | tar -x -C "$src"
	mkdir -p "$src/native/_lib"
	cp "$lib" "$src/native/_lib/libgopi_native.a"
	[ -f "$root/native/_lib/languages" ] && cp "$root/native/_lib/languages" "$src/native/_lib/"
	(cd "$src" && go build -o "$out" ./cmd/gopi)
	local rc=$?
	rm -rf "$src"
	return $rc
}
