# table.sh: print one view of CSV figures as a table.
#
#   table_print VIEW FORMAT FILE...    FORMAT: text (stdout) or md
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
	k = r SUBSEP m
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	if (!(w in whoseen)) { whoseen[w] = 1; if (w != "mini-git" && w != "mini-git-static" && w != "git") others[++no] = w }
	val[k, w] = x
	if (m != "value") anymetric = 1
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
	nh = 0
	head[++nh] = "row"
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
	cat "$@" 2>/dev/null | awk -v view="$view" -v fmt="$fmt" "$table_awk"
}

# table_views FILE...: the views present, in order of appearance.
table_views() {
	cat "$@" 2>/dev/null | awk -F, 'NF >= 3 && !($1 in s) { s[$1] = 1; print $1 }'
}
