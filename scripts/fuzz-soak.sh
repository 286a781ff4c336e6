#!/usr/bin/env bash
# fuzz-soak.sh [PKG:FuzzName ...] — `make fuzz-soak`: the long fuzzing runs
# of the parsers of untrusted input (issue 32). Each target runs alone, on
# one worker (-parallel 1, so a shared machine keeps a core), until it has
# made FUZZ_EXECS executions (default 10,000,000; -fuzztime Nx counts
# them) or FUZZ_LIMIT of wall time has passed (default 1h; the run is then
# interrupted and the count reached is recorded as such).
#
# With no argument every target of the list below runs, fastest first;
# arguments pick some of them (e.g. ./core/session:FuzzLoad); --report
# only rewrites the Markdown from the TSV. A result is
# one line of bench/results/fuzz-soak.tsv (a target's line is replaced when
# it runs again), from which bench/results/fuzz-soak.md is written and
# bench/RESULTS.md reassembled (bench/run.sh --assemble). Each run's whole
# output is kept in bench/_work/fuzz-soak/NAME.log.
#
# A target whose last run ended clean before the count (interrupted, or
# stopped at the time limit) resumes: the next run asks only for the
# executions still missing, on the corpus `go test` kept in its cache, and
# the recorded count is the sum, with the number of runs in the outcome.
# FUZZ_FRESH=1 starts every target from zero instead. To end a run early,
# send SIGINT to its test binary (the process without -test.fuzzworker):
# the count reached is recorded and the next run resumes from it.
#
# A crasher stops that target: `go test` writes the input to the package's
# testdata/fuzz/FuzzName/ (keep it there as a seed once fixed) and the
# outcome column says "crasher". The exit status is 1 if any target
# crashed or could not be built.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
EXECS=${FUZZ_EXECS:-10000000}
LIMIT=${FUZZ_LIMIT:-1h}
# A new interesting input is minimised for at most this long (go test's
# default is 60s): the executions spent minimising are not counted, and a
# slow target's big inputs used to spend most of a run there.
MINIMIZE=${FUZZ_MINIMIZE:-5s}
WORK=bench/_work/fuzz-soak
TSV=bench/results/fuzz-soak.tsv
MD=bench/results/fuzz-soak.md
mkdir -p "$WORK" bench/results

# The parsers of untrusted input, by the kind of input, fastest first.
TARGETS=(
	./core/session:FuzzUnquote             # session lines: JSON string unquoting
	./core/session:FuzzValid               # session lines: JSON validation
	./core/hashline:FuzzParseAnchor        # hashline edits: anchors
	./core/hashline:FuzzAppendDecoded      # file bytes: UTF-8 decoded as JavaScript does, for anchors
	./sdk/rpcclient:FuzzFastParse          # RPC frames: the client's fast frame head parser
	./core/config:FuzzParseDotenv          # settings files: .env
	./core/ai:FuzzParsePartialJSON         # partial JSON of streamed tool arguments
	./core/ai/provider/anthropic:FuzzFastDeltaMatchesUnmarshal # Anthropic streams: the hand-read text delta against json.Unmarshal
	./core/session:FuzzDecodeMessage       # session lines: messages
	./core/config:FuzzParseSettings        # settings files: YAML/JSON settings
	./core/modes/acp/lineguard:FuzzInputGuard # RPC frames: ACP's line guard
	./core/modes/rpc/inbound:FuzzParseHead # RPC frames: the head of each line the RPC server reads
	./core/tools/edit/hashedit:FuzzHashlineParse # hashline edits: the patch language
	./core/tools/edit/applypatch:FuzzApplyPatchParse # apply_patch
	./core/tools/edit/applypatch:FuzzParseDiffHunks # the edit tool's patch mode: diff hunks
	./core/tools/edit/vim:FuzzExec          # the edit tool's vim mode: key sequences
	./core/tools/edit/replace:FuzzScorerMatchesReference # replace mode: the pruned near-match search against the full one
	./core/tool:FuzzDiagnosticReport       # language server diagnostics as the file tools report them
	./core/tool:FuzzLocalURL               # local:// paths stay in the session's scratch directory
	./core/tools/notebook:FuzzNotebook     # notebook JSON
	./core/tools/notebook:FuzzEditRoundTrip # notebook edits: the text view written back unchanged
	./core/tools/notebook:FuzzApply        # notebook edits: an edited text view applied to the JSON
	./core/tools/calc:FuzzEvaluate         # calc expressions
	./core/tools/eval:FuzzParse            # eval cells and their headers
	./core/eval/pykernel:FuzzReadFrames    # the Python runner's output stream
	./mermaid:FuzzRender                   # Mermaid diagrams
	./core/tools/recipe:FuzzParseMakefile  # Makefiles (recipe's task list)
	./core/tools/recipe:FuzzResolve        # recipe's op
	./core/tools/generated:FuzzContentMarker # generated-file headers
	./core/commitgen:FuzzParseFileDiffs    # git diffs (gopi commit)
	./core/commitgen:FuzzChangelog         # changelogs (gopi commit)
	./core/tools/task:FuzzParseAgent       # agent definitions
	./core/tools/task:FuzzParseGenerated   # agent definitions a model wrote (/agents N)
	./tokens:FuzzSafeCut                   # gopi tokens: the places a count may be split
	./core/tools/innerpath:FuzzArchivePath # archive member paths (read and write)
	./core/tools/innerpath:FuzzDatabasePath # SQLite table and row paths (read and write)
	./core/tools/write:FuzzParseRow        # JSON5 row content of SQLite writes
	./core/tools/read/archive:FuzzIndex    # archive indexes (zip, tar, tar.gz)
	./core/session:FuzzLoad                # session files
	./ast:FuzzParseRules                   # AST rule files
	./native/astgrep:FuzzRuleDocument      # AST rule documents (native)
	./native/astgrep:FuzzCompile           # AST patterns (native)
	# Providers and sign-ins (issue 34): what servers, credential files and
	# users hand the provider and login code.
	./core/auth/oauth:FuzzParsePasted      # sign-in: a pasted code or redirect URL
	./core/auth/oauth:FuzzCodexClaims      # sign-in: ChatGPT access token claims
	./core/auth/oauth:FuzzGitHubHost       # sign-in: the GitHub Enterprise answer
	./core/auth:FuzzDecodeData             # agent.db credential rows
	./core/ai/models:FuzzDiscoveryAnswers  # local servers' model lists
	./core/ai/provider/azureopenai:FuzzParseDeploymentMap # Azure deployment settings
	./core/ai/provider/azureopenai:FuzzExplainError # Azure error bodies
	./core/ai/provider/openaicodex:FuzzAccountID # Codex token claims
	./core/ai/provider/openaicodex:FuzzExplainError # Codex error bodies
	./core/ai/provider/openairesponses:FuzzEvents # Responses API event streams
	./core/ai/provider/bedrock:FuzzStreamBody # Bedrock event streams
	./core/ai/provider/bedrock:FuzzParseINI # AWS config and credentials files
	./core/ai/provider/bedrock:FuzzProcessOutput # credential_process output
	./core/ai/provider/vertex:FuzzParseADC # application default credentials files
	./core/ai/provider/geminicli:FuzzCodeAssistChunks # Code Assist streams
	./core/ai/provider/geminicli:FuzzParseCredentials # Gemini CLI credential files
	./core/ai/provider/geminicli:FuzzRetryHint # Code Assist retry hints
	./core/ai/provider/geminicli:FuzzSanitizeSchema # tool schemas sent to Code Assist
	# Debug adapters (issue 35): what an adapter process writes to gopi.
	./core/dap:FuzzReadMessage             # DAP frames and messages
	./core/lsp/protocol:FuzzWorkspaceEdit  # language servers' workspace edits
	./core/lsp/protocol:FuzzDocumentURIPath # file URIs a server names
	./core/lsp/protocol:FuzzPosition       # UTF-16 positions against a reference
	./core/lsp/protocol:FuzzLineIndex      # the line index against Position.Offset
	./core/lsp/edits:FuzzApplyText         # server text edits against a reference
	./core/lsp:FuzzMergeServer             # lsp.json / lsp.yaml server entries
	./core/lsp/share:FuzzMuxMessages       # messages through the shared-server multiplexer
	./core/tools/lsp:FuzzServerResults     # servers' answers the lsp tool formats
	./core/tools/lsp:FuzzSymbolColumn      # symbol columns against a UTF-16 oracle
	./core/lsp/protocol:FuzzCodeAction     # code actions and bare commands a server lists
	# Subcommands (issue 36): what gopi stats and gopi commit read.
	./core/session:FuzzScanUsage           # session lines: assistant usage for gopi stats
	./core/commitgen:FuzzChangelog         # CHANGELOG.md [Unreleased] sections
	# Web search (issue 38): what search providers answer.
	./core/websearch:FuzzProviderAnswer    # every provider's answer (JSON, event streams, error bodies)
	# End to end, not a parser alone: lines sent to a running RPC server,
	# each answered through its pipes (a few hundred executions/s), so its
	# goal is FUZZ_E2E_EXECS (default 1,000,000).
	./core/modes/rpc:FuzzFrame
)
E2E_EXECS=${FUZZ_E2E_EXECS:-1000000}

# goal TARGET: the executions TARGET runs to.
goal() {
	case $1 in
	./core/modes/rpc:FuzzFrame) echo "$E2E_EXECS" ;;
	*) echo "$EXECS" ;;
	esac
}
ALL_TARGETS=("${TARGETS[@]}")
[ $# -gt 0 ] && [ "$1" != --report ] && TARGETS=("$@")

# commas N: 10000000 → 10,000,000.
commas() { sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<<"$1"; }

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# record PKG NAME EXECS SECONDS OUTCOME: replace the target's TSV line.
record() {
	local key="$1:$2" rate
	rate=$(awk -v n="$3" -v s="$4" 'BEGIN { if (s > 0) printf "%d", n / s; else print "-" }')
	touch "$TSV"
	grep -v -F "$key	" "$TSV" >"$TSV.tmp" || true
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$3" "$4" "$rate" "$5" "$(date -u +%Y-%m-%d)" >>"$TSV.tmp"
	sort -o "$TSV" "$TSV.tmp" && rm -f "$TSV.tmp"
}

# write_md: bench/results/fuzz-soak.md from the TSV, and RESULTS.md again.
write_md() {
	{
		echo "# fuzz-soak: long fuzzing runs of the parsers of untrusted input"
		echo
		echo "\`make fuzz-soak\` (scripts/fuzz-soak.sh): each target alone, one worker (\`-parallel 1\`), until"
		echo "$(commas "$EXECS") executions (\`-fuzztime ${EXECS}x\`) or $LIMIT of fuzzing, whichever comes first."
		echo "The end-to-end target \`./core/modes/rpc:FuzzFrame\` (lines sent to a running RPC server) runs to $(commas "$E2E_EXECS")."
		echo "New interesting inputs are minimised for at most $MINIMIZE (\`-fuzzminimizetime\`; those executions are not counted)."
		echo "The archive, notebook, ACP line and RPC frame head parsers live in small packages of their own"
		echo "(core/tools/read/archive, core/tools/notebook, core/modes/acp/lineguard, core/modes/rpc/inbound):"
		echo "fuzzed inside their tool's or mode's package, which links SQLite or the whole agent, they ran 10-40 times"
		echo "slower (the whole binary's coverage is compared after every execution); their counts start from zero"
		echo "at the move (2026-11-29)."
		echo "Machine: $(uname -srm), $(nproc) CPUs shared with other work while these ran (the rates"
		echo "are those of a loaded machine, not the targets' best); $(go version | cut -d' ' -f3)."
		echo "A target's line is rewritten each time it runs; the date is the run's (UTC)."
		echo
		echo "| target | executions | fuzzing time | executions/s | outcome | date |"
		echo "| --- | ---: | ---: | ---: | --- | --- |"
		while IFS=$'\t' read -r key n s rate outcome date; do
			printf '| %s | %s | %s | %s | %s | %s |\n' "$key" \
				"$(commas "$n")" \
				"$(awk -v s="$s" 'BEGIN { printf "%dm%02ds", s / 60, s % 60 }')" "$rate" "$outcome" "$date"
		done <"$TSV"
		local t missing=()
		for t in "${ALL_TARGETS[@]}"; do
			grep -q "^$t	" "$TSV" || missing+=("\`$t\`")
		done
		if [ ${#missing[@]} -gt 0 ]; then
			echo
			echo "No recorded run yet: ${missing[*]}."
		fi
	} >"$MD"
	bench/run.sh --assemble
}

if [ "${1:-}" = --report ]; then
	write_md
	exit 0
fi

status=0
for t in "${TARGETS[@]}"; do
	pkg=${t%%:*} name=${t##*:}
	logf=$WORK/$(tr / _ <<<"${pkg#./}")_$name.log
	log "$pkg $name: build and seed corpus"
	# Builds the instrumented test binary (cached for the timed run) and
	# runs the seed corpus once.
	if ! go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime 1x -parallel 1 >"$logf" 2>&1; then
		cat "$logf" >&2
		record "$pkg" "$name" 0 0 "failed before fuzzing (see the log)"
		write_md
		status=1
		continue
	fi
	# An earlier partial clean run of this target: resume it.
	prev_n=0 prev_s=0 runs=1
	if [ -z "${FUZZ_FRESH:-}" ] && line=$(grep -F "$pkg:$name	" "$TSV" 2>/dev/null) &&
		grep -Eq $'\t(clean so far|clean \(fewer|stopped at the)' <<<"$line"; then
		prev_n=$(cut -f2 <<<"$line") prev_s=$(cut -f3 <<<"$line")
		runs=$(($(cut -f5 <<<"$line" | grep -o 'in [0-9]* runs' | grep -o '[0-9]*' || echo 1) + 1))
	fi
	target_execs=$(goal "$t")
	want=$((target_execs - prev_n))
	log "$pkg $name: up to $want executions or $LIMIT (run $runs, $prev_n before)"
	start=$(date +%s)
	timeout -s INT -k 2m "$LIMIT" go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "${want}x" -fuzzminimizetime "$MINIMIZE" -parallel 1 >"$logf" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(grep -o 'execs: [0-9]*' "$logf" | tail -1 | grep -o '[0-9]*' || true)
	fuzzsecs=$(grep -o 'elapsed: [0-9hms]*' "$logf" | tail -1 | sed 's/elapsed: //' |
		awk '{ s = 0; n = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); if (c ~ /[0-9]/) n = n c; else { s += n * (c == "h" ? 3600 : c == "m" ? 60 : 1); n = "" } } print s }')
	: "${execs:=0}" "${fuzzsecs:=$secs}"
	execs=$((execs + prev_n)) fuzzsecs=$((fuzzsecs + prev_s))
	if grep -q 'Failing input written to' "$logf"; then
		outcome="crasher: $(grep -o 'testdata/fuzz/[^ ]*' "$logf" | head -1)"
		status=1
	elif [ "$rc" = 124 ] || [ "$rc" = 130 ]; then
		outcome="stopped at the $LIMIT limit"
	elif [ "$rc" = 0 ] && [ "$execs" -ge "$target_execs" ]; then
		outcome=clean
	elif [ "$rc" = 0 ]; then
		outcome="clean (fewer executions than asked)"
	elif grep -q '^ok' "$logf"; then
		# Interrupted by hand (SIGINT to the test binary): the go command
		# exits 1, but the run itself passed.
		outcome="clean so far (interrupted)"
	else
		outcome="failed (exit $rc, see the log)"
		status=1
	fi
	[ "$runs" -gt 1 ] && case $outcome in clean* | stopped*) outcome="$outcome, in $runs runs" ;; esac
	record "$pkg" "$name" "$execs" "$fuzzsecs" "$outcome"
	log "$pkg $name: $execs executions in ${fuzzsecs}s: $outcome"
	tail -3 "$logf" >&2
	write_md
done

exit $status
