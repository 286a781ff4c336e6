# bench/lib/areas.sh — sourced by bench/compare.sh (and its test): which
# benchmark areas a set of changed paths can affect, from bench/areas.tsv.
#
#   bench_areas_of [AREAS.tsv] <paths   the areas, space-separated, sorted
#
# A path belongs to every prefix of the table it starts with; the areas of
# all those prefixes are printed once each.
bench_areas_of() {
	awk -F'\t' 'NR == FNR { if ($0 !~ /^#/ && NF == 2) { pre[$1] = $2 }; next }
		{ for (p in pre) if (index($0, p) == 1) { n = split(pre[p], parts, " "); for (i = 1; i <= n; i++) seen[parts[i]] = 1 } }
		END { for (a in seen) print a }' "${1:-bench/areas.tsv}" - | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}
