# csv.sh: raw figures for perf/out/<name>.csv; format in perf/lib/README.
#   view,row,who,metric,value
# Commas in a field are replaced by ';' so that every line keeps five
# fields; a newline would break the line and is replaced by a space.

PERF_OUT=${PERF_OUT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/out}
CSV_FILE=

csv_open() { # name: starts perf/out/<name>.csv empty
	mkdir -p "$PERF_OUT"
	CSV_FILE=$PERF_OUT/$1.csv
	: >"$CSV_FILE"
}

csv_field() {
	local f=${1//,/;}
	printf '%s' "${f//$'\n'/ }"
}

csv_put() { # view row who metric value
	[ -n "$CSV_FILE" ] || { echo >&2 "csv_put: csv_open first"; return 1; }
	printf '%s,%s,%s,%s,%s\n' "$(csv_field "$1")" "$(csv_field "$2")" \
		"$(csv_field "$3")" "$(csv_field "$4")" "$(csv_field "${5:-n/a}")" >>"$CSV_FILE"
}
