#!/bin/sh
# branch: every listing form beside git, and the fast path: plain listing
# opens nothing under objects/.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: upstream repository and a clone with remotes' '
	git init -q up && (cd up &&
		test_commit one && test_commit two &&
		git branch up/feature one && git branch other) &&
	git clone -q up r && cd r &&
	test_commit three &&
	git branch local/a one && git branch zed &&
	git branch --track tracked origin/other &&
	git branch -q --set-upstream-to=origin/up/feature local/a &&
	git tag -a -m ann ann two
'

for args in "" "--list" "-l" "-a" "-r" "--all --list" "--show-current" \
	"--list l*" "--list zed master" "-a --list *e*" "-r --list origin/o*" "--list nothing" \
	"-v" "-vv" "-a -v" "-r -v" "-vv -a" "--abbrev=10 -v" "--no-abbrev -v" "-v --abbrev=4" \
	"--sort=-refname" "--sort=objectname" "--sort=committerdate" "--sort=-authordate" \
	"--sort=refname --sort=-committerdate" "-a --sort=-refname" \
	"--format=%(refname)" "--format=%(refname:short)|%(HEAD)|%(upstream:short)" \
	"--format=%(objectname:short)%(if)%(upstream)%(then)[%(upstream:track)]%(end)" \
	"--format=%(refname:lstrip=-1)%(symref)" "-a --format=%(refname:rstrip=1)" \
	"--color=always" "--color=always -a" "--color=always -vv" "--color=never" "--color=auto" \
	"--no-color" "--column=never" "-i --list Z*" "--points-at HEAD" "--points-at one" \
	"--bogus" "-h" \
	"--contains" "--contains=one" "--contains one" "--contains two --list l*" "--cont" \
	"--no-contains" "--no-contains=two" "--merged" "--merged one" "--no-merged one" \
	"--no-merged" "--no-merged=three -a" "--contains nothere" "--merged nothere" \
	"--contains HEAD^{tree}" "--no-merged HEAD^{tree}" "--no-sort" "--sort=objecttype" \
	"--points-at one --no-points-at" "--color=true" "--color=bad" "--color=Always -a" \
	"--list l**a" "--list local/**/a" "--list **/a" "-a --list **" "-i --list [L]*" \
	"-i --list [[:upper:]]ed" "--list [!l]*" "-r --list [ou]*/[!m]*" \
	"--format=%(if)x%(else) --list nothing" "--format=%(then)x"
do
	test_expect_success "branch $args" 'cd r && set -f && compare_git branch $args'
done

test_expect_success 'branch.sort and color.branch config' '
	cd r &&
	git config branch.sort -refname && compare_git branch &&
	git config color.branch always && compare_git branch -a &&
	git config color.branch.current "bold red" && compare_git branch &&
	git config --unset branch.sort && git config --unset color.branch &&
	git config --unset color.branch.current
'

test_expect_success 'branch.sort ranks below --sort; --no-sort drops it' '
	cd r && git config branch.sort -refname &&
	compare_git branch --sort=objecttype && compare_git branch --no-sort &&
	compare_git branch --no-sort --sort=objecttype &&
	git config --unset branch.sort
'

test_expect_success 'colour from a pager git started, unless TERM is dumb' '
	cd r && (export GIT_PAGER_IN_USE=1 TERM=xterm &&
	 compare_git branch && compare_git -c color.pager=false branch &&
	 compare_git -c color.branch=auto -c color.ui=never branch &&
	 TERM=dumb compare_git branch)
'

test_expect_success 'packed, loose and mixed refs list the same' '
	cd r &&
	compare_git branch -a &&
	git pack-refs --all && compare_git branch -a -v &&
	git branch new-loose && compare_git branch -a &&
	git rev-parse one >.git/refs/heads/zed && compare_git branch -v
'

test_expect_success 'detached HEAD at a tag, at a commit, and moved on' '
	cd r &&
	git checkout -q ann && compare_git branch && compare_git branch -v &&
	git checkout -q --detach master && compare_git branch &&
	git checkout -q HEAD~1 && compare_git branch -a &&
	git checkout -q origin/other && compare_git branch &&
	test_tick && git commit -q --allow-empty -m moved && compare_git branch &&
	compare_git branch --show-current &&
	git checkout -q master
'

test_expect_success 'detached HEAD without a reflog' '
	cd r && git checkout -q --detach master &&
	mv .git/logs/HEAD saved-log && compare_git branch &&
	mv saved-log .git/logs/HEAD && git checkout -q master
'

test_expect_success 'detached HEAD in a rebase, git am, a bisect, and both' '
	cp -R r st && cd st && git checkout -q --detach master~1 &&
	for prep in \
		"mkdir .git/rebase-merge && echo refs/heads/master >.git/rebase-merge/head-name" \
		"echo \"detached HEAD\" >.git/rebase-merge/head-name" \
		"echo refs/tags/ann >.git/rebase-merge/head-name" \
		"git rev-parse HEAD >.git/rebase-merge/head-name" \
		": >.git/rebase-merge/head-name" \
		"mv .git/logs/HEAD saved-log" \
		"mv saved-log .git/logs/HEAD && mv .git/rebase-merge .git/rebase-apply" \
		": >.git/rebase-apply/applying" \
		"echo master >.git/BISECT_START && : >.git/BISECT_LOG" \
		"rm -r .git/rebase-apply && echo \" spaced \" >.git/BISECT_START" \
		"git rev-parse HEAD >.git/BISECT_START" \
		"echo refs/heads/one >.git/BISECT_START" \
		": >.git/BISECT_START" \
		"mkdir .git/rebase-merge && echo refs/heads/one >.git/rebase-merge/head-name" \
		"echo master >.git/BISECT_START"; do
		eval "$prep" && compare_git branch && compare_git branch --format="%(refname)" ||
			{ echo "after: $prep"; return 1; }
	done
'

test_expect_success 'a branch named HEAD reads the current branch'"'"'s upstream, as in git' '
	cp -R r hn && cd hn &&
	git update-ref refs/heads/HEAD master~1 &&
	git config branch.HEAD.remote . && git config branch.HEAD.merge refs/heads/one &&
	fmt="%(refname) %(upstream) %(upstream:track) %(upstream:trackshort) %(push) %(push:track)" &&
	fmt="$fmt %(upstream:remotename) %(upstream:remoteref) %(push:remotename) %(push:remoteref)" &&
	for prep in : "git checkout -q --detach master" "git checkout -q --orphan unborn" \
		"git checkout -q master && git config push.default current" \
		"git config remote.pushDefault origin"; do
		eval "$prep" && compare_git branch -vv && compare_git for-each-ref --format="$fmt" refs/heads &&
			compare_git branch --no-merged one ||
			{ echo "after: $prep"; return 1; }
	done
'

test_expect_success 'a detached HEAD named ambiguously warns once per use, as in git' '
	cp -R r hd && cd hd && git update-ref refs/heads/HEAD master~1 &&
	git checkout -q --detach master &&
	compare_git branch && compare_git branch -v && compare_git branch -vv &&
	compare_git branch --format="%(refname:short)%(refname:strip=2)%(*refname)%(refname)" &&
	compare_git branch -v --format=x && compare_git branch --sort=objectname --format=x &&
	compare_git branch --no-merged master~1 && compare_git branch --list master &&
	compare_git branch --list "H*" && compare_git branch --column=always &&
	mkdir .git/rebase-merge && echo refs/heads/master >.git/rebase-merge/head-name &&
	compare_git branch && echo master >.git/BISECT_START && compare_git branch &&
	rm -r .git/rebase-merge && compare_git branch &&
	mv .git/logs/HEAD saved-log && compare_git branch
'

test_expect_success 'unborn branch' '
	git init -q empty && cd empty &&
	compare_git branch && compare_git branch --show-current &&
	compare_git branch -a -v &&
	cd ../r && git checkout -q --orphan newborn &&
	compare_git branch && compare_git branch --show-current &&
	git checkout -q master
'


test_expect_success 'setup: forty more branches, names of one to nine digits' '
	cd r &&
	for i in $(seq 1 40); do git branch "c$(printf "%0*d" $((i % 9 + 1)) $i)" one || return 1; done
'

for args in "--column" "--column=row" "--column=dense" "--column=row,dense" "--column=plain" \
	"--column=column,nodense" "--column=,row," "--column=auto" "--column=never" "--no-column" \
	"-a --column=dense" "-r --column" "--column --list c1*" "--column --format=%(refname)" \
	"--column --color=always" "--column -v" "--column=never -v" "--column=auto -vv" \
	"--column=foo,row" "--column=densex"
do
	test_expect_success "branch $args, in widths of 1 to 200" '
		cd r && set -f &&
		for w in 1 20 33 57 80 131 200; do COLUMNS=$w compare_git branch $args || return 1; done &&
		(unset COLUMNS && compare_git branch $args)
	'
done

test_expect_success 'column.ui and column.branch, and their bad values' '
	cd r &&
	for c in column.ui=always column.ui=row column.ui=never column.ui=auto \
		column.branch=dense column.ui=bogus column.branch=row,bogus column.ui \
		column.branch= column.status=bogus; do
		compare_git -c $c branch && compare_git -c $c branch --no-column &&
		compare_git -c $c branch -d nothere || return 1
	done &&
	cp .git/config config.saved &&
	printf "[column]\n\tui = row,bogus\n" >>.git/config && compare_git branch &&
	cp config.saved .git/config &&
	printf "[column]\n\tbranch\n" >>.git/config && compare_git branch -a &&
	cp config.saved .git/config &&
	printf "[column]\n\tui = dense\n" >>.git/config && compare_git branch &&
	cp config.saved .git/config
'

if have_strace; then
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS=detect_leaks=0 && export ASAN_OPTIONS
test_expect_success 'plain branch opens nothing under objects/' '
	cd r &&
	for a in "" "--list" "-a" "-r" "--show-current" "--format=%(refname:short)%(upstream)"; do
		strace -f -e trace=open,openat,stat,newfstatat,access,statx -o trace.out \
			"$MINI_GIT" branch $a >/dev/null &&
		if grep "objects/" trace.out; then echo "branch $a touched objects/"; exit 1; fi
	done
'

test_expect_success 'branch -v looks up only the listed commits (no tags)' '
	cd r &&
	strace -f -e trace=openat -o trace.out "$MINI_GIT" branch -v >/dev/null &&
	! grep "refs/tags" trace.out
'
else
	test_skip 'strace assertions' 'no strace'
fi

test_done
