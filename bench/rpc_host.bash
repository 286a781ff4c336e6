# bench/rpc_host.bash — sourced by the area scripts that time gopi and omp
# in RPC mode across processes (rpc.sh, bash.sh); not an area itself.
#
# rpc_home DIR: an isolated HOME in DIR/home whose gopi and omp agent
# directories point the "mock" provider at a closed port (nothing in these
# benchmarks calls a model), and an empty project in DIR/project.
#
# rpc_runs N AGENT_DIR CMD...: run bench/rpc_roundtrip.py N CMD... RUNS
# times in the project with that HOME and agent directory (RPC_FRAME is
# passed on) and print "best median" of the total seconds; every run's
# total is kept in $WORK/rpc_runs.last (one per line, in run order) for
# the area's records.
rpc_home() {
	local dir=$1
	rm -rf "$dir/home" && mkdir -p "$dir/home/.gopi/agent" "$dir/home/.omp/agent" "$dir/project"
	cat >"$dir/home/.gopi/agent/models.yml" <<YML
providers:
  mock:
    baseUrl: http://127.0.0.1:9
    api: anthropic-messages
    apiKey: MOCK_KEY
    auth: apiKey
    models:
      - id: mock-model
YML
	cp "$dir/home/.gopi/agent/models.yml" "$dir/home/.omp/agent/models.yml"
}

rpc_runs() {
	local n=$1 agentdir=$2
	shift 2
	for _ in $(seq "$RUNS"); do
		(cd "$WORK/project" && env -i PATH="$PATH" HOME="$WORK/home" MOCK_KEY=x PI_CODING_AGENT_DIR="$agentdir" \
			RPC_FRAME="${RPC_FRAME:-}" python3 "$ROOT/bench/rpc_roundtrip.py" "$n" "$@")
	done | tee "$WORK/rpc_runs.last" | sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf "%.3f %.3f\n", v[1], v[int((NR + 1) / 2)]}'
}
