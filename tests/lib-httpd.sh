# lib-httpd.sh: a lighttpd on 127.0.0.1 (a free port) running git's
# http-backend over bare repositories in $HTTPD_ROOT, made by git.
#
#   . ./lib-httpd.sh          (after test-lib.sh)
#   start_httpd               sets HTTPD_URL; skips the whole file if
#                             lighttpd or git-http-backend is missing
#
# $HTTPD_URL/smart/<repo>  smart HTTP; protocol v2 when the client asks
# $HTTPD_URL/v0/<repo>     the same repositories, the server forced to v0
#                          (the Git-Protocol request header is overwritten)
# $HTTPD_URL/broken/<repo> http-backend whose upload-pack responses (POST)
#                          are damaged as $HTTPD_DIR/broken-mode says:
#                          "truncate <bytes>" cuts the body, "garbage"
#                          replaces it, "stall" writes a line to the fifo
#                          $HTTPD_DIR/stalled then waits for one from
#                          $HTTPD_DIR/release before answering nothing,
#                          "ok" passes it through, "reply <file>" answers
#                          a v2 fetch with the file (see v2_pack_reply)
# $HTTPD_URL/<file>        static files under $HTTPD_ROOT (garbage tests)
# The server is stopped when the test script exits.

HTTPD_DIR="$TRASH/.httpd"
HTTPD_ROOT="$HTTPD_DIR/www"
HTTP_BACKEND=${HTTP_BACKEND:-$(git --exec-path)/git-http-backend}

httpd_skip_all() {
	say "1..0 # SKIP $1"
	cd "$TEST_DIRECTORY" && rm -rf "$TRASH"
	exit 0
}

stop_httpd() {
	if [ -n "$HTTPD_PID" ]; then
		kill "$HTTPD_PID" 2>/dev/null
		HTTPD_PID=
	fi
}

start_httpd() {
	LIGHTTPD=$(command -v lighttpd || ls /usr/sbin/lighttpd 2>/dev/null) ||
		httpd_skip_all "lighttpd not installed"
	[ -x "$HTTP_BACKEND" ] || httpd_skip_all "git-http-backend not found"
	mkdir -p "$HTTPD_ROOT" || exit 1
	echo ok >"$HTTPD_DIR/broken-mode"
	cat >"$HTTPD_DIR/broken.cgi" <<-SCRIPT
	#!/bin/sh
	mode=\$(cat "$HTTPD_DIR/broken-mode")
	if [ "\$REQUEST_METHOD" != POST ] || [ "\$mode" = ok ]; then
		exec "$HTTP_BACKEND"
	fi
	case "\$mode" in
	truncate*)
		# headers pass whole (up to the blank line), the body is cut
		"$HTTP_BACKEND" | perl -e '
			binmode STDIN; binmode STDOUT; local \$/ = "\\r\\n\\r\\n";
			my \$h = <STDIN>; \$h =~ s/\\r\\n\\r\\n\\z//; print "\$h\\r\\n\\r\\n";
			undef \$/; my \$b = <STDIN>; print substr(\$b, 0, \$ARGV[0]);' \${mode#truncate } ;;
	stall)
		cat >/dev/null
		echo stalled >"$HTTPD_DIR/stalled"
		cat "$HTTPD_DIR/release" >/dev/null
		printf "Content-Type: application/x-git-upload-pack-result\\r\\n\\r\\n" ;;
	garbage)
		cat >/dev/null
		printf "Content-Type: application/x-git-upload-pack-result\\r\\n\\r\\n"
		printf "this is not a pkt-line stream\\n" ;;
	reply*)
		# a v2 fetch is answered with the file named; anything else
		# (ls-refs) goes to http-backend as sent
		body=\$(mktemp "$HTTPD_DIR/body.XXXXXX")
		cat >"\$body"
		if grep -q "command=fetch" "\$body"; then
			printf "Content-Type: application/x-git-upload-pack-result\\r\\n\\r\\n"
			cat "\${mode#reply }"
		else
			"$HTTP_BACKEND" <"\$body"
		fi
		rm -f "\$body" ;;
	esac
	SCRIPT
	chmod +x "$HTTPD_DIR/broken.cgi"
	for try in 1 2 3 4 5; do
		HTTPD_PORT=$(perl -MIO::Socket::INET -e \
			'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0")->sockport')
		cat >"$HTTPD_DIR/lighttpd.conf" <<-CONF
		server.document-root = "$HTTPD_ROOT"
		server.port = $HTTPD_PORT
		server.bind = "127.0.0.1"
		server.pid-file = "$HTTPD_DIR/pid"
		server.errorlog = "$HTTPD_DIR/error.log"
		server.modules += ( "mod_cgi", "mod_alias", "mod_setenv" )
		mimetype.assign = ( "" => "application/octet-stream" )
		alias.url = ( "/smart/" => "$HTTP_BACKEND/", "/v0/" => "$HTTP_BACKEND/",
			      "/broken/" => "$HTTPD_DIR/broken.cgi/" )
		\$HTTP["url"] =~ "^/(smart|v0|broken)/" {
			cgi.assign = ( "" => "" )
			setenv.add-environment = ( "GIT_PROJECT_ROOT" => "$HTTPD_ROOT",
						   "GIT_HTTP_EXPORT_ALL" => "" )
		}
		\$HTTP["url"] =~ "^/v0/" {
			setenv.set-request-header = ( "Git-Protocol" => "version=0" )
		}
		CONF
		# lighttpd returns once it has bound the port and daemonized.
		if "$LIGHTTPD" -f "$HTTPD_DIR/lighttpd.conf" 2>"$HTTPD_DIR/start.err"; then
			HTTPD_URL="http://127.0.0.1:$HTTPD_PORT"
			HTTPD_PID=$(cat "$HTTPD_DIR/pid")
			trap stop_httpd EXIT
			trap 'stop_httpd; exit 1' INT TERM
			return 0
		fi
	done
	cat "$HTTPD_DIR/start.err" >&2
	httpd_skip_all "lighttpd would not start"
}

# progress_lines FILE: FILE (stderr of a clone or fetch with --progress)
# as lines ("\r" ends one too), what depends on time blanked, in
# FILE.remote (the server's "remote: " lines) and FILE.local (the rest):
# the server's lines may come before or after ours, so each kind is
# compared in its own order.
progress_lines() {
	# A meter prints when its percentage changes, and again once a second
	# (git's timer, and the server's): those repeats depend on time and
	# are dropped, keeping the first line of each percentage and the last.
	# The rate, and the byte count (git counts what each read() of the
	# pipe brought), depend on time too.
	tr '\r' '\n' <"$1" |
	sed -e 's/ | [0-9.]* [KMG]*i*B\/s//' -e 's/ | [0-9.]* bytes\/s//' \
	    -e 's/, [0-9.]* [KMG]*i*B\(,\|$\)/, N\1/' -e 's/, [0-9.]* bytes\(,\|$\)/, N\1/' |
	awk '{ k = $0; sub(/%.*/, "%", k) }
	     k == prev && $0 !~ /, done\.|, completed with/ && index($0, "%") { next }
	     { prev = k; print }' >"$1.lines" &&
	{ grep "^remote:" "$1.lines" >"$1.remote"; grep -v "^remote:" "$1.lines" >"$1.local"; :; }
}

# v2_pack_reply PACK OUT: OUT is a v2 fetch response carrying PACK (a
# "packfile" section, the pack in side-band-64k packets, a flush), for a
# server that sends what it likes.
v2_pack_reply() {
	perl -e '
		binmode STDIN; binmode STDOUT; local $/; my $p = <STDIN>;
		sub pkt { printf "%04x%s", length($_[0]) + 4, $_[0] }
		pkt("packfile\n");
		for (my $o = 0; $o < length $p; $o += 65515) { pkt("\1" . substr($p, $o, 65515)) }
		print "0000";' <"$1" >"$2"
}
