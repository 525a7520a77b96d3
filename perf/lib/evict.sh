# evict.sh: make the next run read from the disk.
#
# evict_init DIR sets EVICT_METHOD: "drop" when we may write
# /proc/sys/vm/drop_caches and doing so really empties the cache of a
# file of DIR (checked with evict -c), else "fadvise" (posix_fadvise
# DONTNEED on the given paths, see perf/evict.c). PERF_EVICT=drop or
# fadvise forces a method. Needs perf_tools to have run.

evict_init() {
	local probe
	probe=$(find "$1" -type f -size +0 | head -n 1)
	EVICT_METHOD=fadvise
	case ${PERF_EVICT:-auto} in
	fadvise) return ;;
	esac
	if [ -n "$probe" ] && [ -w /proc/sys/vm/drop_caches ]; then
		cat "$probe" >/dev/null
		sync
		if (echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null &&
			[ "$("$EVICT" -c "$probe" | cut -d' ' -f1)" = 0 ]; then
			EVICT_METHOD=drop
		fi
	fi
	if [ "${PERF_EVICT:-auto}" = drop ] && [ "$EVICT_METHOD" != drop ]; then
		progress "PERF_EVICT=drop: drop_caches does not work here; using posix_fadvise"
	fi
}

# binary_files BINARY: the binary, the shared libraries ldd lists for it
# and the dynamic linker's cache: what a start-up reads besides the
# repository.
binary_files() {
	echo "$1"
	ldd "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'
	[ -f /etc/ld.so.cache ] && echo /etc/ld.so.cache
}

# evict_cold BINARY PATH...: empty the page cache of everything a run of
# BINARY on PATH... reads.
evict_cold() {
	local bin=$1
	shift
	if [ "$EVICT_METHOD" = drop ]; then
		echo 3 >/proc/sys/vm/drop_caches
	else
		# shellcheck disable=SC2046
		"$EVICT" $(binary_files "$bin" | sort -u) "$@" 2>/dev/null || true
	fi
}
