#!/bin/sh
# update-ref --stdin beside git on generated command streams: 300 streams
# of one to six commands (every command, good and bad names and values,
# with and without -z, some cut short), each run by both on a fresh copy
# of one repository; output, messages, exit code and the refs left must
# be the same. The streams come from a fixed seed.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q base && cd base &&
	test_commit one && test_commit two &&
	git branch side one && git symbolic-ref refs/heads/alias refs/heads/side &&
	git pack-refs --all && git branch loose
'

ONE=$(git -C base rev-parse one) TWO=$(git -C base rev-parse two)

# gen SEED: one stream on stdout; "z" on stderr when it is NUL-separated
gen() {
	perl -e '
		my ($seed, $one, $two) = @ARGV;
		srand($seed);
		my @refs = ("refs/heads/side", "refs/heads/loose", "refs/heads/master", "HEAD",
			"refs/heads/alias", "refs/heads/new", "refs/heads/new/x", "refs/heads",
			"refs/tags/one", "refs/heads/a..b", "\"refs/heads/q\\\\x\"", "\"refs/heads/n\"",
			"refs/heads/side/x", "foo", "FETCH_HEAD", "");
		my @vals = ($one, $two, "0" x 40, "", "zz", "one", "HEAD~1", "\"$one\"", "1" x 40);
		my @cmds = qw(update create delete verify option start prepare commit abort bogus);
		my %n = (update => 3, create => 2, delete => 2, verify => 2);
		my $z = rand() < 0.3;
		my $sep = $z ? "\0" : "\n";
		my $out = "";
		for (1 .. 1 + int(rand(6))) {
			my $c = $cmds[int(rand(@cmds))];
			if (!$n{$c} && $c ne "option") { $out .= $c . $sep; next; }
			if ($c eq "option") { $out .= "option " . (("no-deref", "foo", "")[int(rand(3))]) . $sep; next; }
			my @f = ($refs[int(rand(@refs))]);
			push @f, $vals[int(rand(@vals))] for 1 .. int(rand($n{$c} + 1));
			$out .= $c . " " . join($z ? "\0" : " ", @f) . $sep;
		}
		chop $out if rand() < 0.1;
		print $out;
		print STDERR $z ? "z" : "";
	' "$1" $ONE $TWO
}

test_expect_success 'generated streams: the same answers and the same refs as git' '
	fails=0 &&
	for i in $(seq 1 300); do
		z=$(gen $i 2>&1 >in) &&
		opt= && { test -z "$z" || opt=-z; } &&
		for tool in git "$MINI_GIT"; do
			t=$(basename $tool) &&
			rm -rf w && cp -a base w &&
			(cd w && "$tool" update-ref $opt --stdin <../in >../out.$t 2>../err.$t
			 echo "exit=$?" >>../out.$t
			 git for-each-ref --format="%(refname) %(objectname) %(symref)" >../refs.$t
			 cat .git/HEAD .git/packed-refs >>../refs.$t
			 find .git -name "*.lock" >>../refs.$t) || return 1
		done &&
		mini_to_git err.mini-git &&
		if ! cmp -s out.git out.mini-git || ! cmp -s err.git err.mini-git ||
		   ! cmp -s refs.git refs.mini-git; then
			fails=$((fails + 1)) &&
			echo "stream $i ($opt):" && od -c in | head -5 &&
			diff out.git out.mini-git; diff err.git err.mini-git; diff refs.git refs.mini-git
		fi
	done &&
	test $fails = 0
'

test_done
