# bench/before_build.bash — sourced by the area scripts that measure an
# older revision beside the current tree (BENCH_BEFORE, BENCH_SESSION_BEFORE).
#
# before_tree REV DIR: REV's source tree, from `git archive REV`, in DIR
# (which must exist), with the native library REV links in DIR/native/_lib.
# The Rust library is not rebuilt: REV links this tree's native/_lib when
# native/ has not changed since REV, or the library named by
# BENCH_BEFORE_NATIVE_LIB (a libgopi_native.a built from REV's native/, e.g.
# by `make native` in a checkout of REV). Linking an older Go side against a
# newer library whose C interface changed would measure nothing sensible (or
# crash), so that case stops with a message.
#
# native_ldflags LIB: the -ldflags value that stamps LIB's hash into a
# binary, as the Makefile does (Go's build cache does not hash the archive,
# so without it a build could reuse objects linked against another library).
#
# build_gopi_at REV OUT: builds cmd/gopi as it was at REV into OUT, from a
# before_tree in a temporary directory that is removed afterwards.
before_tree() {
	local rev=$1 dir=$2 root lib
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
	git -C "$root" archive "$rev" | tar -x -C "$dir" || return 1
	mkdir -p "$dir/native/_lib"
	cp "$lib" "$dir/native/_lib/libgopi_native.a"
	[ -f "$root/native/_lib/languages" ] && cp "$root/native/_lib/languages" "$dir/native/_lib/"
	return 0
}

native_ldflags() {
	printf -- '-X github.com/gopi-agent/gopi/native/rure.NativeLibStamp=%s' "$(sha256sum "$1" | cut -c1-16)"
}

build_gopi_at() {
	local rev=$1 out=$2 src rc=0
	src=$(mktemp -d "${TMPDIR:-/tmp}/gopi-before-XXXXXX")
	if before_tree "$rev" "$src"; then
		(cd "$src" && go build -ldflags "$(native_ldflags native/_lib/libgopi_native.a)" -o "$out" ./cmd/gopi) || rc=$?
	else
		rc=1
	fi
	rm -rf "$src"
	return $rc
}
