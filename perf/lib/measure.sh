# measure.sh: wall time, faults, peak RSS and bytes read of whole
# processes, with perf/out/measure (see perf/measure.c). Needs
# perf_tools to have run.

# measure_runs N DIR CMD...: N runs in DIR; prints the raw lines
# "wall_us=.. minflt=.. majflt=.. rss_kb=.. read_bytes=.. status=..".
measure_runs() {
	local n=$1 dir=$2
	shift 2
	"$MEASURE" -n "$n" -C "$dir" -- "$@"
}

# measure_median FIELD: the median of FIELD over measure lines on stdin.
measure_median() {
	tr ' ' '\n' | sed -n "s/^$1=//p" | median
}

# hot_wall_ms N DIR CMD...: "MEDIAN MIN" wall times in ms of N hot runs
# (after three warm-up runs). On a busy machine the minimum is the
# steadier figure of the two. hyperfine when installed (no shell in between,
# -N), else our measure tool in a loop.
hot_wall_ms() {
	local n=$1 dir=$2
	shift 2
	if command -v hyperfine >/dev/null 2>&1; then
		local json
		json=$(mktemp "${TMPDIR:-/tmp}/perf-hf.XXXXXX")
		local cmdline
		cmdline=$(printf '%q ' "$@")
		if (cd "$dir" && hyperfine -N -i --style none --warmup 3 --runs "$n" \
			--export-json "$json" -- "$cmdline" >/dev/null 2>&1); then
			# hyperfine's figures are in seconds
			awk -F'[:,]' '
				$1 ~ /"median"/ && med == "" { med = $2 + 0 }
				$1 ~ /"min"/ && min == "" { min = $2 + 0 }
				END { if (med == "") print "n/a n/a"; else printf "%.3f %.3f\n", med * 1000, min * 1000 }
			' "$json"
			rm -f "$json"
			return
		fi
		rm -f "$json"
	fi
	"$MEASURE" -n 3 -C "$dir" -- "$@" >/dev/null
	local lines
	lines=$("$MEASURE" -n "$n" -C "$dir" -- "$@")
	echo "$(measure_median wall_us <<<"$lines") $(tr ' ' '\n' <<<"$lines" | sed -n 's/^wall_us=//p' | sort -n | head -n 1)" |
		awk '$1 == "n/a" { print "n/a n/a"; next } { printf "%.3f %.3f\n", $1 / 1000, $2 / 1000 }'
}
