# bench/lib/bestmed.sh — sourced by the bench scripts: the best and the
# median of `go test -bench` samples. The scripts keep the output of their
# benchmark run in $BENCH.
#
# gobench_bestmed PATTERN DIVISOR DECIMALS prints "best median": the ns/op
# of the lines of $BENCH matching the grep PATTERN (e.g. "^BenchmarkX-"),
# each divided by DIVISOR (1e6 for ms), with DECIMALS digits; "- -" when
# no line matches.
gobench_bestmed() {
	grep -- "$1" <<<"$BENCH" | awk -v d="$2" '{for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) / d}' | sort -g |
		awk -v p="$3" '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf "%.*f %.*f\n", p, v[1], p, v[int((NR + 1) / 2)]}'
}
