#!/bin/sh
# branch, update-ref and symbolic-ref beside git on generated commands:
# 200 commands from a fixed seed (creations, deletions, renames, copies,
# upstreams, updates and symrefs over good, bad, nested and symbolic
# names), each run by both on a fresh copy of one repository; output,
# messages, exit code, refs, HEAD, config, reflogs and the directories
# under logs/ must be the same.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q up && (cd up &&
		test_commit one && test_commit two && test_commit three &&
		git branch other one && git branch v1.9 two) &&
	git clone -q up base && cd base &&
	test_commit four &&
	git tag -a -m ann ann two && git tag light one &&
	git branch --track tracked origin/other && git branch side one &&
	git branch deep/er/name && git symbolic-ref refs/heads/sym refs/heads/side &&
	git config branch.side.remote origin && git config branch.side.merge refs/heads/gone &&
	git pack-refs --all && git branch loose two && git branch nest/a/b one
'

# gen SEED: one command's arguments, one per line
gen() {
	perl -e '
		srand($ARGV[0]);
		sub pick { return $_[int(rand(@_))]; }
		my @names = ("new", "side", "master", "tracked", "deep/er/name", "deep", "deep/er",
			"loose", "nest/a", "nest/a/b/c", "sym", "bad..name", "-x", "HEAD", "@",
			"origin/other", "a.lock", "new/sub", "@{-1}", "Upper");
		my @starts = ("HEAD", "HEAD~1", "side", "origin/other", "origin/master", "ann",
			"light", "nothere", "HEAD^{tree}", "master@{u}", "side@{u}", "@", "two");
		my @refs = ("HEAD", "refs/heads/master", "refs/heads/side", "refs/heads/sym",
			"refs/heads/new", "refs/heads/deep", "refs/heads/nest/a", "refs/heads/loose",
			"refs/tags/ann", "master", "FOO", "refs/heads/a..b", "refs/heads/x/",
			"refs/heads/nest/a/b/c", "refs/heads/deep/er/name");
		my @vals = ("HEAD", "HEAD~1", "side", "ann", "0" x 40, "nothere", "");
		my $c = rand();
		my @a;
		if ($c < 0.2) {
			@a = ("branch", pick("-f", "--track", "--no-track", "-q", "--create-reflog", "-t"),
				pick(@names));
			push @a, pick(@starts) if rand() < 0.7;
		} elsif ($c < 0.35) {
			@a = ("branch", pick("-d", "-D", "--delete"));
			push @a, "-r" if rand() < 0.2;
			push @a, pick(@names, "origin/other", "origin/v1.9") for 1 .. int(rand(3));
		} elsif ($c < 0.5) {
			@a = ("branch", pick("-m", "-M", "-c", "-C"));
			push @a, pick(@names) for 1 .. int(rand(3));
		} elsif ($c < 0.6) {
			@a = ("branch", pick("-u", "--unset-upstream"));
			push @a, pick(@starts) if $a[1] eq "-u";
			push @a, pick(@names) if rand() < 0.6;
		} elsif ($c < 0.85) {
			@a = ("update-ref", pick("-d", "--no-deref", "-m", "--create-reflog", "-d"));
			splice(@a, 2, 0, "msg") if $a[1] eq "-m";
			push @a, pick(@refs);
			push @a, pick(@vals) for 1 .. int(rand(3));
		} else {
			@a = ("symbolic-ref", pick("-q", "--short", "-d", "--no-recurse", "-m"));
			splice(@a, 2, 0, "msg") if $a[1] eq "-m";
			push @a, pick(@refs);
			push @a, pick(@refs) if rand() < 0.5;
		}
		print "$_\n" for grep { $_ ne "" } @a;
	' "$1"
}

# state DIR: what a command may have changed
state() {
	(cd "$1" &&
	 git for-each-ref --format="%(refname) %(objectname) %(symref)" &&
	 cat .git/HEAD .git/config &&
	 find .git/logs -type f | sort | while read f; do echo "== $f"; cat "$f"; done
	 find .git/logs -type d | sort
	 find .git -name "*.lock")
}

test_expect_success 'generated commands: the same answers and the same state as git' '
	fails=0 &&
	export GIT_COMMITTER_DATE="1700000000 +0000" GIT_EDITOR=true &&
	for i in $(seq 1 200); do
		gen $i >args &&
		for tool in git "$MINI_GIT"; do
			t=$(basename $tool) &&
			rm -rf w && cp -a base w &&
			(cd w && set -- && while IFS= read -r a; do set -- "$@" "$a"; done <../args &&
			 "$tool" "$@" >../out.$t 2>../err.$t
			 echo "exit=$?" >>../out.$t) &&
			state w >state.$t || return 1
		done &&
		mini_to_git err.mini-git &&
		if ! cmp -s out.git out.mini-git || ! cmp -s err.git err.mini-git ||
		   ! cmp -s state.git state.mini-git; then
			fails=$((fails + 1)) &&
			echo "command $i: $(tr "\n" " " <args)" &&
			diff out.git out.mini-git; diff err.git err.mini-git; diff state.git state.mini-git
		fi
	done &&
	test $fails = 0
'

test_done
