#!/bin/sh
# rev-parse: revision names, options and repository paths, beside git.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: history with a merge, tags, a branch named like a tag' '
	git init -q r && cd r &&
	test_commit one && test_commit two &&
	git checkout -q -b side one && test_commit side1 && test_commit side2 &&
	git checkout -q master && test_tick &&
	git merge -q --no-ff -m "merge side" side &&
	mkdir -p d/e && echo x >d/x && echo y >d/e/y && git add d && test_tick &&
	git commit -q -m "sub dirs

with a body" &&
	git tag -a -m "annotated" ann HEAD~1 &&
	git tag -a -m "tag of a tag" ann2 ann &&
	git tag -a -m "a tree" treetag "HEAD^{tree}" &&
	git branch one HEAD~2 &&
	git update-ref refs/remotes/origin/main HEAD~1 &&
	git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main &&
	i=0 && while [ $i -lt 600 ]; do echo "blob $i" >../b$i; i=$((i + 1)); done &&
	ls ../b* | git hash-object -w --stdin-paths >/dev/null &&
	# blobs whose ids share 4 digits with commits, tags and a tree above
	for n in 1650 12180 12335 36066 36758 96936 261632; do
		echo "extra $n" | git hash-object -w --stdin || return 1
	done >extra-blobs
'

cd r 2>/dev/null

for rev in HEAD HEAD^ HEAD^1 HEAD^2 HEAD^3 HEAD^0 HEAD~ HEAD~0 HEAD~2 HEAD~2^2 "HEAD^2~1" \
	"HEAD~1^2~1^{tree}" master side one two ann ann2 "ann^{}" "ann2^{}" "ann^{tag}" \
	"ann2^{commit}" "ann^{tree}" "ann^{blob}" "ann^{object}" "HEAD^{tree}^" "treetag^{}" \
	"treetag^{commit}" "treetag^0" @ "@^" "@~2" origin origin/main remotes/origin/main \
	refs/heads/side heads/side tags/one "HEAD^{/two}" "HEAD^{/^side}" "HEAD^{/nomatch}" \
	"HEAD^{/!-merge}" "HEAD^{}" "HEAD^{foo}" "HEAD^{" nope "HEAD~99" "HEAD^99999999999" \
	"HEAD:" "HEAD:d" "HEAD:d/" "HEAD:d/x" "HEAD:d/e/y" "HEAD:nope" "HEAD:d/nope" \
	"HEAD^{tree}:d/e" "ann:d" "nope:d" "HEAD~1:one.t" "HEAD:one.t^{}" one.t d "d/x" \
	"one-g$(git rev-parse --short HEAD)" "v9-7-gdeadbeef" \
	"$(git rev-parse HEAD)" "$(git rev-parse HEAD | tr a-f A-F)" \
	"0000000000000000000000000000000000000000" "$(git rev-parse --short=7 HEAD)" \
	"$(git rev-parse --short=5 HEAD~1)" "$(git rev-parse HEAD~1 | cut -c1-3)" ""
do
	test_expect_success "rev-parse '$rev'" "compare_git rev-parse '$rev'"
done

test_expect_success ':path and :N:path read the index (versions 2, 3, 4)' '
	for v in 2 3 4; do
		git update-index --index-version $v &&
		compare_git rev-parse :one.t :d/x :d/e/y &&
		compare_git rev-parse :0:one.t &&
		compare_git rev-parse :1:one.t &&
		compare_git rev-parse :nope &&
		compare_git rev-parse :d &&
		(cd d && compare_git rev-parse :x) &&
		(cd d && compare_git rev-parse :./x :../one.t :./e/y) &&
		(cd d/e && compare_git rev-parse :../x) || return 1
	done &&
	git update-index --index-version 2 &&
	echo new >untracked.t &&
	compare_git rev-parse :untracked.t &&
	rm untracked.t
'

test_expect_success ':path with stages of a conflicted merge' '
	git init -q ../conflict && (
		cd ../conflict &&
		echo a >f && git add f && git commit -q -m base &&
		git checkout -q -b other && echo b >f && git commit -q -am other &&
		git checkout -q master && echo c >f && git commit -q -am mine &&
		test_must_fail git merge -q other >/dev/null 2>&1 &&
		compare_git rev-parse :1:f :2:f :3:f &&
		compare_git rev-parse :f &&
		compare_git rev-parse :0:f
	)
'

test_expect_success ':/regex searches messages from every ref' '
	compare_git rev-parse :/two &&
	compare_git rev-parse ":/^side" &&
	compare_git rev-parse ":/sub dirs" &&
	compare_git rev-parse ":/!-merge" &&
	compare_git rev-parse ":/!!nope" &&
	compare_git rev-parse ":/nomatch" &&
	compare_git rev-parse ":/with a body" &&
	compare_git rev-parse ":/" &&
	compare_git rev-parse ":/one.t"
'

test_expect_success 'a name that is both a branch and a tag warns' '
	compare_git rev-parse one &&
	compare_git rev-parse --verify one &&
	compare_git rev-parse -q --verify one
'

test_expect_success 'ambiguous short ids: git error, hints and fatal' '
	p=$(git cat-file --batch-all-objects --batch-check="%(objectname)" |
		cut -c1-4 | sort | uniq -d | head -n 1) &&
	test -n "$p" &&
	compare_git rev-parse $p &&
	compare_git rev-parse --verify $p &&
	compare_git rev-parse -q --verify $p &&
	compare_git rev-parse "$p^{commit}" &&
	compare_git rev-parse "$p:x"
'

test_expect_success 'ambiguity with commits and tags lists them with dates and subjects' '
	git cat-file --batch-all-objects --batch-check="%(objectname) %(objecttype)" >all &&
	for o in $(cat extra-blobs); do
		p=$(echo $o | cut -c1-4) &&
		test $(grep -c "^$p" all) -gt 1 &&
		compare_git rev-parse $p &&
		compare_git rev-parse "$p^{commit}" &&
		compare_git rev-parse "$p^{tree}" &&
		compare_git rev-parse "$p~0" &&
		compare_git rev-parse "$p:one.t" &&
		compare_git rev-parse --verify -q $p || return 1
	done &&
	grep -c " commit$" all >ncommits &&
	for t in commit tag tree; do
		grep " $t\$" all | cut -c1-4 >prefixes.$t &&
		test $(cat extra-blobs | cut -c1-4 | grep -c -f prefixes.$t) -gt 0 || return 1
	done
'

test_expect_success 'commit-ish context picks the commit among candidates' '
	for c in $(git rev-list --all | cut -c1-4); do
		compare_git rev-parse "$c^0" &&
		compare_git rev-parse "$c~0" &&
		compare_git rev-parse "$c^{tree}" || return 1
	done
'

test_expect_success 'options: --verify, -q, --short, --symbolic*, --abbrev-ref' '
	compare_git rev-parse --verify HEAD &&
	compare_git rev-parse --verify nope &&
	compare_git rev-parse --verify -q nope &&
	compare_git rev-parse --quiet --verify nope &&
	compare_git rev-parse --verify HEAD HEAD~1 &&
	compare_git rev-parse --verify &&
	compare_git rev-parse --verify HEAD --foo &&
	compare_git rev-parse --verify one.t &&
	compare_git rev-parse --short HEAD &&
	compare_git rev-parse --short=12 HEAD HEAD~1 &&
	compare_git rev-parse --short=1 HEAD &&
	compare_git rev-parse --short=99 HEAD &&
	compare_git rev-parse --symbolic HEAD one nope-but-file one.t &&
	compare_git rev-parse --symbolic-full-name HEAD side ann origin HEAD~1 @ &&
	compare_git rev-parse --symbolic-full-name one &&
	compare_git rev-parse --abbrev-ref HEAD side origin/main origin &&
	compare_git rev-parse --abbrev-ref=strict origin/main &&
	compare_git rev-parse --abbrev-ref=loose origin/main &&
	compare_git rev-parse --abbrev-ref=bogus HEAD &&
	compare_git rev-parse ^HEAD~1 HEAD &&
	compare_git rev-parse --symbolic ^HEAD~1
'

test_expect_success 'ranges and parent shorthands, as git prints them' '
	for a in HEAD~2..HEAD ..HEAD~1 HEAD~1.. side...HEAD HEAD...side ... .. HEAD^@ HEAD^! \
		HEAD^- HEAD^-1 HEAD^-2 HEAD^-x one^@ one^! nope..HEAD HEAD..nope HEAD^{tree}..HEAD \
		HEAD...HEAD^{tree} "@{u}...c1^{commit}" "HEAD^{tree}...HEAD@{u}^{blob}" \
		"HEAD:one.t^{blob}" "HEAD:nope..@{u}"; do
		compare_git rev-parse "$a" &&
		compare_git rev-parse --verify "$a" &&
		compare_git rev-parse -q --verify "$a" HEAD &&
		compare_git rev-parse --symbolic "$a" &&
		compare_git rev-parse --symbolic-full-name "$a" &&
		compare_git rev-parse --short --not "$a" || { echo "failed: $a"; return 1; }
	done
'

test_expect_success 'detached HEAD: --abbrev-ref and --symbolic-full-name' '
	git checkout -q HEAD~1 &&
	compare_git rev-parse --abbrev-ref HEAD &&
	compare_git rev-parse --symbolic-full-name HEAD &&
	git checkout -q master
'

test_expect_success '--default, --, files and flags' '
	compare_git rev-parse --default HEAD &&
	compare_git rev-parse --default HEAD side &&
	compare_git rev-parse --default nope &&
	compare_git rev-parse --default &&
	compare_git rev-parse --verify --default side &&
	compare_git rev-parse -- HEAD &&
	compare_git rev-parse HEAD -- one.t nope &&
	compare_git rev-parse nope -- one.t &&
	compare_git rev-parse one.t HEAD &&
	compare_git rev-parse one.t nope &&
	compare_git rev-parse one.t --foo &&
	compare_git rev-parse --foo --all --no-merges &&
	compare_git rev-parse "*.t" "d/[x]" &&
	compare_git rev-parse --revs-only HEAD one.t --foo --all &&
	compare_git rev-parse --no-revs HEAD one.t --foo --all &&
	compare_git rev-parse --flags HEAD one.t --foo &&
	compare_git rev-parse --no-flags HEAD one.t --foo &&
	compare_git rev-parse --end-of-options --foo &&
	compare_git rev-parse --all &&
	compare_git rev-parse --branches --tags --remotes &&
	compare_git rev-parse --local-env-vars &&
	compare_git rev-parse &&
	compare_git rev-parse -h
'

ALL="--git-dir --absolute-git-dir --git-common-dir --show-prefix --show-cdup
	--is-inside-work-tree --is-inside-git-dir --is-bare-repository"

test_expect_success 'paths at the top, in subdirectories and inside .git' '
	compare_git rev-parse $ALL --show-toplevel &&
	(cd d && compare_git rev-parse $ALL --show-toplevel) &&
	(cd d/e && compare_git rev-parse $ALL --show-toplevel HEAD:./y HEAD:../x HEAD:y) &&
	(cd d && compare_git rev-parse HEAD:x HEAD:./e/y HEAD:../one.t HEAD:e) &&
	(cd .git && compare_git rev-parse $ALL) &&
	(cd .git && compare_git rev-parse --show-toplevel) &&
	(cd .git/refs && compare_git rev-parse $ALL HEAD) &&
	compare_git -C d rev-parse $ALL --show-toplevel
'

test_expect_success 'bare repository' '
	git clone -q --bare . ../bare.git &&
	(cd ../bare.git && compare_git rev-parse $ALL HEAD side) &&
	(cd ../bare.git && compare_git rev-parse --show-toplevel) &&
	(cd ../bare.git/refs && compare_git rev-parse $ALL HEAD) &&
	(cd ../bare.git && compare_git rev-parse HEAD:./x)
'

test_expect_success 'linked worktree' '
	git worktree add -q ../wt side 2>/dev/null &&
	(cd ../wt && compare_git rev-parse $ALL --show-toplevel HEAD --abbrev-ref HEAD) &&
	mkdir -p ../wt/sub &&
	(cd ../wt/sub && compare_git rev-parse $ALL --show-toplevel)
'

test_expect_success '@{-N}: the branch checked out N switches ago, per work tree' '
	compare_git rev-parse @{-1} @{-2} &&
	compare_git rev-parse --symbolic-full-name @{-1} @{-2} &&
	compare_git rev-parse --abbrev-ref @{-1} &&
	compare_git rev-parse @{-3} &&
	compare_git rev-parse --verify -q @{-3} &&
	compare_git rev-parse "@{-1}~1" "@{-1}^{tree}" "@{-2}:one.t" &&
	(cd ../wt && compare_git rev-parse @{-1}) &&
	(cd ../wt && git checkout -q master~0 && git checkout -q side &&
	 compare_git rev-parse --symbolic-full-name @{-1} && compare_git rev-parse @{-1})
'

test_expect_success 'GIT_DIR, GIT_WORK_TREE and --git-dir' '
	(cd .. && GIT_DIR=r/.git compare_git rev-parse $ALL HEAD) &&
	(cd .. && GIT_DIR=$PWD/r/.git compare_git rev-parse $ALL) &&
	(cd .. && GIT_DIR=bare.git compare_git rev-parse $ALL side) &&
	(cd .. && GIT_DIR=r/.git GIT_WORK_TREE=r compare_git rev-parse $ALL --show-toplevel) &&
	(cd d && GIT_DIR=../.git GIT_WORK_TREE=.. compare_git rev-parse $ALL --show-toplevel) &&
	(cd d && GIT_DIR=../.git compare_git rev-parse $ALL) &&
	(cd .. && GIT_DIR=nope compare_git rev-parse HEAD) &&
	(cd .. && compare_git --git-dir=r/.git rev-parse $ALL HEAD) &&
	(cd .. && compare_git -C r rev-parse $ALL) &&
	(cd .. && compare_git -C r/d rev-parse $ALL)
'

test_expect_success 'outside any repository' '
	mkdir -p ../outside && cd ../outside &&
	GIT_CEILING_DIRECTORIES=$TRASH &&
	export GIT_CEILING_DIRECTORIES &&
	compare_git rev-parse &&
	compare_git rev-parse --is-inside-work-tree &&
	compare_git rev-parse --git-dir &&
	compare_git rev-parse HEAD &&
	compare_git rev-parse --local-env-vars
'

test_expect_success '--all, --branches, --tags and --remotes with --symbolic, --symbolic-full-name, --abbrev-ref' '
	for mode in --symbolic --symbolic-full-name --abbrev-ref --short ""; do
		for which in --all --branches --tags --remotes "--not --branches"; do
			compare_git rev-parse $mode $which || { echo "$mode $which"; return 1; }
		done
	done
'

test_expect_success '--sq-quote quotes its arguments for the shell, needing no repository' '
	compare_git rev-parse --sq-quote a "b c" "d'"'"'e" "!x" "" "--" &&
	compare_git rev-parse --sq-quote &&
	compare_git rev-parse --sq-quote -h &&
	mkdir -p outside-sq && cd outside-sq &&
	GIT_CEILING_DIRECTORIES="$TRASH" compare_git rev-parse --sq-quote "x y"
'

test_done
