#!/bin/sh
# Sorting refs as git sorts them: version order (with versionsort.suffix)
# and --ignore-case, for for-each-ref and branch.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: tags that only a version order sorts right' '
	git init -q r && cd r && test_commit c &&
	for t in v1.0 v1.0-rc1 v1.0-rc2 v1.0-rc10 v1.0-pre1 v1.0.1 v1.0-ck1 v1.0-bfs v1.0-rc1-ck \
		v1.9 v1.10 v1.10-rc1 v2.0-rc v2.0 v2.0rc v2.0-rc-1 1.0 01.0 v1.0-rc v1.0-r v1.0-r1 \
		rc v1.0-pre v1.0-prerc1 a-rc a b-rcx b-rc v1.0--rc v1.0-rc.1 v0009 v009 v10 V1.0 \
		x-ck-rc x-rc-ck x 000 00 01 010 09 0 1 9 10; do
		git tag "$t" || return 1
	done &&
	for b in Zeta alpha Beta beta gamma Alpha v1.10 v1.9 v1.09; do git branch "$b" || return 1; done
'

for cfg in "" "-c versionsort.suffix=-rc" "-c versionsort.suffix=-pre -c versionsort.suffix=-rc" \
	"-c versionsort.suffix=-rc -c versionsort.suffix= -c versionsort.suffix=-ck -c versionsort.suffix=-bfs" \
	"-c versionsort.prereleaseSuffix=-rc" \
	"-c versionsort.prereleaseSuffix=-rc -c versionsort.suffix=-pre" \
	"-c versionsort.suffix=rc -c versionsort.suffix=-rc" \
	"-c versionsort.suffix=-r -c versionsort.suffix=-rc" \
	"-c versionsort.suffix=-rc -c versionsort.suffix=-r" \
	"-c versionsort.suffix=-ck -c versionsort.suffix=-rc" \
	"-c versionsort.suffix=.0" "-c versionsort.suffix=1"
do
	test_expect_success "version order, config '$cfg'" '
		cd r && set -f &&
		compare_git $cfg for-each-ref --sort=version:refname --format="%(refname:short)" &&
		compare_git $cfg for-each-ref --sort=-v:refname --format="%(refname:short)" refs/tags &&
		compare_git $cfg branch --sort=v:refname
	'
done

test_expect_success 'version order as a second key, and over other atoms' '
	cd r &&
	compare_git for-each-ref --sort=v:refname --sort=objecttype --format="%(refname:short)" &&
	compare_git for-each-ref --sort=version:refname:short --format="%(refname:short)" &&
	compare_git for-each-ref --sort=version:subject --format="%(refname:short)"
'

test_expect_success 'ignore case: sort keys and the name order' '
	cd r &&
	compare_git branch -i &&
	compare_git branch --ignore-case --list "a*" "B*" &&
	compare_git branch -i --sort=-refname &&
	compare_git branch -i --sort=objectname &&
	compare_git for-each-ref --ignore-case --format="%(refname)" &&
	compare_git for-each-ref --ignore-case --sort=-refname --format="%(refname)" refs/heads &&
	compare_git for-each-ref --ignore-case --sort=v:refname --format="%(refname)" refs/heads &&
	compare_git for-each-ref --format="%(refname)" refs/heads
'

test_expect_success 'version order over a date compares the text shown; a numeric key still checks its format' '
	git init -q dates && cd dates &&
	for d in "1112911993 -0700" "1113011993 +0000" "1113111993 +1400" "999999999 +0000"; do
		GIT_COMMITTER_DATE="$d" GIT_AUTHOR_DATE="$d" git commit -q --allow-empty -m "at $d" &&
		git tag "t${d%% *}" || return 1
	done &&
	git tag -a -m note annotated HEAD~1 &&
	compare_git for-each-ref --sort=v:committerdate --format="%(refname) %(committerdate)" &&
	compare_git for-each-ref --sort=-version:authordate:iso --format="%(refname)" &&
	compare_git for-each-ref --sort=v:objectsize --format="%(refname) %(objectsize)" &&
	compare_git branch --sort=v:creatordate &&
	compare_git for-each-ref --sort=committerdate:bogus &&
	compare_git for-each-ref --sort=taggerdate:bogus refs/tags/annotated &&
	compare_git for-each-ref --sort=taggerdate:bogus refs/heads &&
	compare_git for-each-ref --sort=authordate:b1 --sort=authordate:b2 &&
	compare_git for-each-ref --sort=committerdate:b1 --format="%(committerdate:b2)" &&
	compare_git branch --sort=committerdate:b1 --format="%(committerdate:b2)"
'

test_expect_success 'branch.sort without a value is refused as the config is read' '
	cd r &&
	compare_git -c branch.sort branch && compare_git -c branch.sort branch --no-sort &&
	compare_git -c branch.sort branch -d nothere &&
	printf "[branch]\n\tsort\n" >>.git/config && compare_git branch -v &&
	git config --unset branch.sort
'

test_done
