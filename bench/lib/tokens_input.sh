# bench/lib/tokens_input.sh — sourced by bench/tokens.sh and
# bench/tokens-cli.sh: their shared input, about 10 MB of Go source.
#
# tokens_input DIR writes, once, DIR/picked.txt (every k-th .go file of
# $(go env GOROOT)/src in sorted path order, k = total size / 10 MiB,
# rounded) and DIR/input.txt (those files concatenated).
tokens_input() {
	local dir=$1 src total k
	if [ -s "$dir/input.txt" ] && [ -s "$dir/picked.txt" ]; then
		return
	fi
	src=$(go env GOROOT)/src
	find "$src" -name '*.go' -type f | LC_ALL=C sort >"$dir/files.txt"
	total=$(xargs cat <"$dir/files.txt" | wc -c)
	k=$(((total + 5 * 1024 * 1024) / (10 * 1024 * 1024)))
	[ "$k" -ge 1 ] || k=1
	awk -v k="$k" '(NR - 1) % k == 0' "$dir/files.txt" >"$dir/picked.txt"
	xargs cat <"$dir/picked.txt" >"$dir/input.txt.tmp"
	mv "$dir/input.txt.tmp" "$dir/input.txt"
}
