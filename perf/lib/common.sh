# common.sh: what every perf/ script shares. Source it from bash:
#   . "$(dirname "$0")/lib/common.sh"
# Gives PERF_ROOT (the checkout), PERF_OUT (perf/out), PERF_QUICK (0/1),
# progress, need_tool, perf_repo, perf_tools, median and the CSV helpers.

PERF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PERF_OUT=${PERF_OUT:-$PERF_ROOT/perf/out}
PERF_QUICK=${PERF_QUICK:-0}
[ "$PERF_QUICK" = 0 ] || [ -z "$PERF_QUICK" ] && PERF_QUICK=0 || PERF_QUICK=1
export PERF_ROOT PERF_OUT PERF_QUICK LC_ALL=C TZ=UTC
mkdir -p "$PERF_OUT"

. "$PERF_ROOT/perf/lib/csv.sh"

PERF_T0=${PERF_T0:-$(date +%s)}
export PERF_T0

# progress MESSAGE: one line on stderr with the seconds since the start.
progress() {
	printf >&2 'perf [%4ds] %s\n' "$(($(date +%s) - PERF_T0))" "$*"
}

# need_tool NAME [WHY]: true if NAME runs; otherwise says so once on
# stderr (and in perf/out/missing.txt, which the report lists).
need_tool() {
	if command -v "$1" >/dev/null 2>&1; then
		return 0
	fi
	if ! grep -qx "$1: .*" "$PERF_OUT/missing.txt" 2>/dev/null; then
		echo "$1: not installed${2:+; $2}" >>"$PERF_OUT/missing.txt"
		progress "MISSING TOOL: $1 is not installed${2:+; $2} (Debian: apt-get install $(tool_package "$1"))"
	fi
	return 1
}
tool_package() {
	case $1 in
	gnuplot) echo gnuplot-nox ;;
	cc) echo build-essential ;;
	*) echo "$1" ;;
	esac
}

# perf_repo PRESET: path of the generated bare repository (made on first
# use, then cached under perf/repos/).
perf_repo() {
	"$PERF_ROOT/perf/gen-repo" "$1"
}

# perf_tools: compile perf/evict.c and perf/measure.c into perf/out/
# when their source is newer. Sets EVICT and MEASURE.
perf_tools() {
	local t
	for t in evict measure; do
		if [ ! -x "$PERF_OUT/$t" ] || [ "$PERF_ROOT/perf/$t.c" -nt "$PERF_OUT/$t" ]; then
			${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$PERF_OUT/$t" \
				"$PERF_ROOT/perf/$t.c" || return 1
		fi
	done
	EVICT=$PERF_OUT/evict
	MEASURE=$PERF_OUT/measure
}

# median: the median of the numbers on stdin, one per line ("n/a" when
# there are none; the mean of the two middle ones for an even count).
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "n/a"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		if (m == int(m)) printf "%d\n", m; else printf "%.3f\n", m
	}'
}

# ratio A B: A / B with two decimals, "-" when either is not a number.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a ~ /^[0-9.eE+-]+$/ && b ~ /^[0-9.eE+-]+$/ && b + 0 != 0) printf "%.2f\n", a / b
		else print "-"
	}'
}
