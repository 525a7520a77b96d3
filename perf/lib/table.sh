# table.sh: print one view of CSV figures as a table.
#
#   table_print VIEW FORMAT FILE...    FORMAT: text (stdout) or md
#   TABLE_METRIC=m table_print ...     only metric m, without a metric
#                                      column; TABLE_ROW=name heads the
#                                      first column (default "row")
#   table_ratios VIEW METRIC FILE...   "row<TAB>git/mini-git<TAB>git/static"
#                                      lines for plots ("-" if none)
#
# One line per (row, metric) in the order first seen; columns mini-git,
# mini-git-static, git, then any other "who" in the order first seen,
# then the ratios git/mini-git and git/static (present when both sides
# are). For rates (metric ends in MBps, _ps or per_s) the ratio is
# mini-git/git instead: above 1 always means mini-git does better. A
# figure given twice keeps its last value. CSV format: perf/lib/README.

table_awk='
function isnum(x) { return x ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }
function rate(m) { return m ~ /(MBps|_ps|per_s)$/ }
function rat(g, m, metric) {
	if (!isnum(g) || !isnum(m)) return "-"
	if (rate(metric)) { if (g + 0 == 0) return "-"; return sprintf("%.2f", m / g) }
	if (m + 0 == 0) return (g + 0 == 0) ? "1.00" : "-"
	return sprintf("%.2f", g / m)
}
BEGIN { FS = "," }
{
	if (NF == 5) { v = $1; r = $2; w = $3; m = $4; x = $5 }
	else if (NF == 4) { v = $1; r = $2; w = "-"; m = $3; x = $4 }
	else if (NF == 3) { v = $1; r = $2; w = "-"; m = "value"; x = $3 }
	else next
	if (v != view) next
	if (only != "" && m != only) next
	k = r SUBSEP m
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	if (!(w in whoseen)) { whoseen[w] = 1; if (w != "mini-git" && w != "mini-git-static" && w != "git") others[++no] = w }
	val[k, w] = x
	if (m != "value" && only == "") anymetric = 1
}
END {
	if (!nk) exit 1
	nc = 0
	if ("mini-git" in whoseen) cols[++nc] = "mini-git"
	if ("mini-git-static" in whoseen) cols[++nc] = "mini-git-static"
	if ("git" in whoseen) cols[++nc] = "git"
	for (i = 1; i <= no; i++) cols[++nc] = others[i]
	r1 = ("mini-git" in whoseen) && ("git" in whoseen)
	r2 = ("mini-git-static" in whoseen) && ("git" in whoseen)
	if (fmt == "ratios") {
		for (i = 1; i <= nk; i++) {
			split(keys[i], km, SUBSEP)
			a = rat(val[keys[i], "git"], val[keys[i], "mini-git"], km[2])
			b = rat(val[keys[i], "git"], val[keys[i], "mini-git-static"], km[2])
			if (a != "-" || b != "-") printf "\"%s\"\t%s\t%s\n", km[1], a, b
		}
		exit 0
	}
	nh = 0
	head[++nh] = (rowname != "") ? rowname : "row"
	if (anymetric) head[++nh] = "metric"
	for (i = 1; i <= nc; i++) head[++nh] = (cols[i] == "-") ? "value" : cols[i]
	if (r1) head[++nh] = "git/mini-git"
	if (r2) head[++nh] = "git/static"
	for (j = 1; j <= nh; j++) { cell[0, j] = head[j]; wd[j] = length(head[j]) }
	for (i = 1; i <= nk; i++) {
		split(keys[i], km, SUBSEP)
		n = 0
		cell[i, ++n] = km[1]
		if (anymetric) cell[i, ++n] = km[2]
		for (c = 1; c <= nc; c++) { k2 = keys[i] SUBSEP cols[c]; cell[i, ++n] = (k2 in val) ? val[k2] : "" }
		if (r1) cell[i, ++n] = rat(val[keys[i], "git"], val[keys[i], "mini-git"], km[2])
		if (r2) cell[i, ++n] = rat(val[keys[i], "git"], val[keys[i], "mini-git-static"], km[2])
		for (j = 1; j <= nh; j++) if (length(cell[i, j]) > wd[j]) wd[j] = length(cell[i, j])
	}
	for (i = 0; i <= nk; i++) {
		line = (fmt == "md") ? "|" : ""
		for (j = 1; j <= nh; j++) {
			left = (j == 1 || (anymetric && j == 2))
			f = left ? "%-" wd[j] "s" : "%" wd[j] "s"
			if (fmt == "md") line = line " " sprintf(f, cell[i, j]) " |"
			else line = line (j > 1 ? "  " : "") sprintf(f, cell[i, j])
		}
		print line
		if (i == 0 && fmt == "md") {
			line = "|"
			for (j = 1; j <= nh; j++) {
				left = (j == 1 || (anymetric && j == 2))
				d = ""; for (q = 0; q < wd[j] + 2; q++) d = d "-"
				line = line (left ? ":" substr(d, 2) : substr(d, 2) ":") "|"
			}
			print line
		}
	}
}'

table_print() {
	local view=$1 fmt=$2
	shift 2
	cat "$@" 2>/dev/null | awk -v view="$view" -v fmt="$fmt" -v only="${TABLE_METRIC:-}" \
		-v rowname="${TABLE_ROW:-}" "$table_awk"
}

table_ratios() {
	local view=$1 metric=$2
	shift 2
	cat "$@" 2>/dev/null | awk -v view="$view" -v fmt=ratios -v only="$metric" "$table_awk"
}

# table_metrics VIEW FILE...: the metrics of a view, in order of appearance.
table_metrics() {
	local view=$1
	shift
	cat "$@" 2>/dev/null | awk -F, -v view="$view" '$1 == view && NF == 5 && !($4 in s) { s[$4] = 1; print $4 }'
}

# table_views FILE...: the views present, in order of appearance.
table_views() {
	cat "$@" 2>/dev/null | awk -F, 'NF >= 3 && !($1 in s) { s[$1] = 1; print $1 }'
}
