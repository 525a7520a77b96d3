#!/bin/sh
# for-each-ref: formats, atoms, sorting, patterns and filters beside git.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q up && (cd up && test_commit one && test_commit two && git branch other one) &&
	git clone -q up r && cd r &&
	test_commit three &&
	git tag -a -m "annotated tag" ann two &&
	git tag -a -m "tag of a tag" ann2 ann &&
	git branch --track tracked origin/other &&
	git branch side one && git branch deep/er/name &&
	git update-ref refs/notes/x HEAD &&
	git pack-refs --all && git tag loose-tag one
'

for args in "" "refs/heads" "refs/heads/" "refs/tags/a*" "refs/heads refs/tags" "refs/he" \
	"--count=3" "--count=0" "--count=-1" "--sort=-refname" "--sort=objectname" "--sort=objecttype" \
	"--sort=committerdate" "--sort=-committerdate --sort=refname" "--sort=objectsize" \
	"--sort=authordate" "--sort=bogus" \
	"--format=%(refname)" "--format=%(refname:short)" "--format=%(refname:lstrip=1)" \
	"--format=%(refname:rstrip=2)" "--format=%(refname:lstrip=-1)" "--format=%(refname:strip=2)" \
	"--format=%(objectname)" "--format=%(objectname:short)" "--format=%(objectname:short=10)" \
	"--format=%(objecttype)%(objectsize)" "--format=%(*objectname)%(*objecttype)" \
	"--format=%(upstream)|%(upstream:short)|%(upstream:track)|%(upstream:trackshort)" \
	"--format=%(upstream:remotename)|%(upstream:remoteref)" \
	"--format=%(HEAD)%(symref)|%(symref:short)" "--format=%(subject)" "--format=%(body)" \
	"--format=%(contents)" "--format=%(contents:subject)" "--format=%(committerdate)" \
	"--format=%(contents:size)|%(*contents:size)" "--sort=contents:size" "--format=%(contents:size:x)" \
	"--format=%(committerdate:iso)|%(committerdate:short)|%(committerdate:raw)|%(committerdate:unix)" \
	"--format=%(authorname)|%(authoremail)|%(author)" "--format=%(committername)%(committeremail)" \
	"--format=%(taggername)|%(taggerdate)|%(creatordate)" "--format=%(tree)|%(parent)" \
	"--format=%(type)|%(object)|%(tag)" \
	"--format=%(if)%(symref)%(then)S%(else)N%(end)" "--format=%(if:equals=one)%(refname:short)%(then)yes%(end)" \
	"--format=%(if:notequals=refs/heads)%(refname:rstrip=-2)%(then)%(refname)%(end)" \
	"--format=%(align:20,right)%(refname:short)%(end)|" "--format=%(align:width=9,position=middle)x%(end)|" \
	"--format=%%%(refname)%41" "--format=%(bogus)" "--format=%(refname" "--format=%(then)" \
	"--format=%(if)x" "--format=%(objectname:bogus)" "--format=%(color:red)x%(color:reset)" \
	"--color=always --format=%(color:bold)%(color:red)%(refname)%(color:reset)" \
	"--shell --format=%(refname)" "--perl --format=%(refname)" "--python --format=%(subject)" \
	"--tcl --format=%(subject)" "-s -p" "--shell --format=%(raw)" "--python --format=%(*raw)" \
	"--perl --format=%(raw)" "--tcl --format=x%(raw:size)" \
	"--python --format=%(*raw)%(bogus)" "--shell --format=%(bogus)%(raw)" \
	"--points-at HEAD" "--points-at one" "--points-at ann" "--contains one" "--contains" \
	"--no-contains two" "--merged" "--merged one" "--no-merged" "--no-merged=one" \
	"--contains one --no-merged" "--ignore-case refs/HEADS" "--bogus" "-h" \
	"--no-contains" "--cont" "--no-merged one --merged" "--contains=ann" "--contains nothere" \
	"--merged nothere" "--contains HEAD^{tree}" "--merged HEAD^{tree}" "--merged --" \
	"--points-at one --no-points-at" "--no-points-at --points-at one" "--no-sort" \
	"--sort=objecttype --no-sort --sort=-objecttype" "--sort=bogus --format=%(bogus)" \
	"--color=true" "--color=bad" "--color --format=%(color:green)%(refname)%(color:reset)" \
	"refs/**/name" "**/name" "refs/heads/**" "**" "refs/**/er/**" "refs/heads/de**me" \
	"refs/heads/deep/er/**/name" "--ignore-case refs/heads/D*" "--ignore-case REFS/heads/" \
	"--ignore-case refs/heads/[D]*" "--ignore-case refs/*/[[:upper:]]*" "refs/*/[!/]*" \
	"--format=%(if)x%(else) nothere" "--format=x%(align:10) refs/nothere" \
	"--format=%(end)x --sort=bogus" "--format=%(then)x --count=0" "--format=%(if)x"
do
	test_expect_success "for-each-ref $args" 'cd r && set -f && compare_git for-each-ref $args'
done

test_expect_success 'quoting for the shell: a quote and a ! in a message' '
	git init -q quoting && cd quoting &&
	git commit -q --allow-empty -m "wow! it'"'"'s \$x" -m "!!body'"'"'!" &&
	for q in --shell --perl --python --tcl; do
		compare_git for-each-ref $q --format="%(subject) %(contents) %(refname)" || return 1
	done
'

test_expect_success 'patterns read only the places they name: a broken ref elsewhere goes unreported' '
	cd r && echo garbage >.git/refs/heads/broken && set -f &&
	for args in "refs/tags refs/heads/d*" "refs/heads refs/tags/a" "refs/tags/a* refs/notes" \
		"--no-sort refs/remotes/ refs/tags/a refs/heads/deep" "refs/heads/b refs/heads/br*" \
		"refs/tags/l refs/tags/loose-tag/x refs/tags/lo" "--format=%(end) refs/tags"; do
		compare_git for-each-ref $args || return 1
	done &&
	compare_git branch --sort=bogus && compare_git branch --sort=refname --list "[!b]*" &&
	rm .git/refs/heads/broken
'

test_expect_success '%(align) arguments and empty field names, as git takes or refuses them' '
	cd r &&
	for f in "%()" "%(*)" "%(:x)" "%(align:-3)" "%(align:position=foo,5)" "%(align:5,)" \
		"%(align:width=-3)" "%(align:width=)" "%(align: 5)" "%(align:+5)" "%(align:0)" \
		"%(align:5,position=)" "%(align:4294967296)" "%(align:4294967295,left)" "%(align:05)" \
		"%(align:5,width=3,middle)" "%(align:right,5)" "%(align:right,x)" "%(align:,5)" \
		"%(align:middle)" "%(align:5,4294967295)" "%(align:4294967295,5)" \
		"%(align:position=right,width=7)" "%(align)"; do
		compare_git for-each-ref --count=2 --format="$f|%(end)" || return 1
	done
'

test_expect_success 'setup: a signed-looking tag, a tag that is only a signature, deltas, a loose blob' '
	cd r &&
	printf "object %s\ntype commit\ntag signed\ntagger T <t@x> 1500000000 +0000\n\nSubject one\nand two\n\nBody text\nmore\n-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n" \
		$(git rev-parse HEAD) | git hash-object -t tag -w --stdin >id &&
	git update-ref refs/tags/signed $(cat id) &&
	printf "object %s\ntype commit\ntag onlysig\ntagger T <t@x> 1500000000 +0000\n\n-----BEGIN SSH SIGNATURE-----\nx\n" \
		$(git rev-parse HEAD) | git hash-object -t tag -w --stdin >id &&
	git update-ref refs/tags/onlysig $(cat id) &&
	for i in 1 2 3 4 5 6; do seq 1 $((200 + i)) >big.t && git add big.t && test_commit "big$i" || return 1; done &&
	git repack -q -a -d -f --depth=10 &&
	for i in 1 2 3; do git update-ref refs/b/b$i $(git rev-parse big$i:big.t) || return 1; done &&
	echo loose >lf && git update-ref refs/b/loose $(git hash-object -w lf)
'

for f in "%(contents:lines=1)" "%(contents:lines=0)" "%(contents:lines=3)" "%(contents:lines=x)" \
	"%(contents:lines=-1)" "%(contents:signature)" "%(contents)" "%(body)" "%(subject)" \
	"%(contents:body)" "%(contents:subject)" "%(numparent)" "%(numparent:x)" "%(parent:short)" \
	"%(tree:short)" "%(tree:short=5)" "%(parent:short=0)" "%(objectname:short=0)" \
	"%(tree:bogus)" "%(objectsize:disk)" "%(objectsize:x)" "%(deltabase)" "%(deltabase:x)" \
	"%(raw)" "%(raw:size)" "%(raw:x)" "%(rest)" "%(rest:x)" "%(authoremail:localpart)" \
	"%(authoremail:trim)" "%(taggeremail:trim)" "%(committeremail:mailmap)" \
	"%(subject:sanitize)" "%(subject:x)" "%(body:x)" "%(objecttype:x)" "%(HEAD:x)" \
	"%(authorname:mailmap)" "%(author:x)" "%(creator)" "%(creator:x)" "%(type:x)" \
	"%(*subject:sanitize)" "%(*objectsize:disk)" "%(*deltabase)" "%(*creator)" "%(*numparent)" \
	"%(*contents:lines=2)" "%(*raw:size)" "%(refname) --sort=objectsize:disk" \
	"%(refname) --sort=-numparent" "%(refname) --sort=raw:size" \
	"%(*refname)" "%(*refname:short)" "%(*symref)" "%(*symref:lstrip=1)" "%(*push)" \
	"%(*push:remotename)" "%(*upstream)" "%(flag)" "%(*flag)" "%(flag:x)" "%(refname) --sort=*push" \
	"%(refname) --sort=*refname"
do
	test_expect_success "for-each-ref --format=$f" '
		cd r && compare_git for-each-ref --format="${f%% --sort=*}" \
			$(case "$f" in *--sort=*) echo "--sort=${f##*--sort=}" ;; esac) refs/heads refs/tags refs/b
	'
done

test_expect_success '%(push) and its options under every push setting' '
	cd r &&
	git branch -q --set-upstream-to=origin/master master &&
	f="%(refname:short) [%(push)] [%(push:short)] [%(push:remotename)] [%(push:remoteref)] [%(push:track)] [%(push:trackshort)] [%(push:track,nobracket)] [%(push:lstrip=1)]" &&
	for c in push.default=simple push.default=current push.default=upstream push.default=matching \
		push.default=nothing push.default=tracking remote.pushDefault=origin \
		branch.side.pushRemote=origin remote.origin.push=refs/heads/*:refs/heads/pushed/* \
		remote.origin.push=refs/heads/master remote.origin.push=+refs/heads/master:refs/heads/other \
		remote.origin.mirror=true remote.pushDefault=nowhere; do
		compare_git -c $c for-each-ref --format="$f" refs/heads || return 1
	done &&
	compare_git for-each-ref --format="$f" refs/heads &&
	compare_git for-each-ref --format="%(push:bogus)" refs/heads &&
	# with one remote only, not named origin, that one is every branch'"'"'s
	cp -a ../r ../one-remote && cd ../one-remote &&
	git config --rename-section remote.origin remote.up &&
	git update-ref refs/remotes/up/side HEAD &&
	for c in push.default=current push.default=matching remote.other.tagOpt=--no-tags; do
		compare_git -c $c for-each-ref --format="$f" refs/heads &&
		compare_git -c $c rev-parse --symbolic-full-name side@{push} || return 1
	done
'

test_expect_success 'setup: messages with and without trailer blocks' '
	git init -q trl && cd trl && n=0 &&
	for m in "Subject\n\nBody\n\nSigned-off-by: A <a@x>\nReviewed-by: B <b@x>\n" \
		"Subject\n\nBody\n\nSigned-off-by: A <a@x>\nnot a trailer\nReviewed-by: B\n  continued line\n" \
		"Subject only\n" "Subject\n\nKey: value\n" "Subject\n\nBody\n\nrandom text\nmore text\nKey: v\n" \
		"Subject\n\nBody\n\nFixes: 123\n---\nKey: after divider\n" \
		"Subject\n\nBody\n\nFoo: bar\nFoo-Bar : baz\n# comment\n\n" "Subject\nKey: in title\n" \
		"Subject\n\n(cherry picked from commit abc)\nLine one\nLine two\nLine three\n" \
		"Subject\n\nBody\n\nHelped-by: X\n   multi\n   line  \nAcked-by: Y\n" \
		"Subject\n\nKey:value\nkey: Value2\nKEY : v3\n" "Subject\n\n    \nKey: x\n" \
		"Subject\n\nBody\n\nSigned-off-by: A\n# ------------------------ >8 ------------------------\nKey: after\n"; do
		n=$((n + 1)) && printf "$m" >msg &&
		git commit -q --allow-empty --cleanup=verbatim -F msg && git branch "c$n" || return 1
	done &&
	printf "object %s\ntype commit\ntag t\ntagger T <t@x> 1500000000 +0000\n\nS\n\nAcked-by: Z\n-----BEGIN PGP SIGNATURE-----\nx\n-----END PGP SIGNATURE-----\n" \
		$(git rev-parse HEAD) | git hash-object -t tag -w --stdin >id &&
	git update-ref refs/tags/t $(cat id) &&
	printf "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1500000000 +0000\ncommitter C <c@x> 1500000000 +0000\n\nSub\0ject\n\nBo\0dy\nKey: v\0al\n" |
		git hash-object -t commit -w --stdin --literally >id &&
	git update-ref refs/heads/nul $(cat id)
'

test_expect_success 'a NUL in a message ends a value there, as git reads C strings' '
	cd trl &&
	for f in "%(subject)" "%(body)" "%(contents)" "%(contents:body)" "%(contents:lines=3)" \
		"%(subject:sanitize)" "%(raw)" "%(raw:size)" "%(objectsize)"; do
		compare_git for-each-ref --format="[$f]" refs/heads/nul || return 1
	done
'

for f in "%(trailers)" "%(trailers:only)" "%(trailers:unfold)" "%(trailers:only,unfold)" \
	"%(trailers:key=Signed-off-by)" "%(trailers:key=key)" "%(trailers:key=Key:,valueonly)" \
	"%(trailers:key=Foo,keyonly)" "%(trailers:separator=%x2C )" \
	"%(trailers:separator=|,key_value_separator==)" "%(trailers:only=no)" "%(trailers:only=bogus)" \
	"%(trailers:only=bogus,unfold)" "%(trailers:bogus)" "%(trailers:key)" "%(trailers:key=)" \
	"%(trailers:,only,)" "%(trailers:only,)" "%(contents:trailers)" "%(contents:trailers:only)" \
	"%(contents:trailersx)" "%(trailers:valueonly,separator=%n)" "%(trailers:unfold,separator=%x00)" \
	"%(trailers:)" "%(trailers:separator=%%x%z%x4)" "%(*trailers)" \
	"%(trailers:only=maybe,key=Signed-off-by)" "%(trailers:unfold=x,separator=%x2C)" \
	"%(trailers:only=2)" "%(trailers:unfold=1k,only=0x0)" "%(trailers:only=k)" \
	"%(trailers:only=99999999999)" "%(trailers:only=maybe,only=2)" "%(trailers:keyonly=x,key)"
do
	test_expect_success "for-each-ref --format=$f" '
		cd trl && compare_git for-each-ref --format="[$f]"
	'
done

test_expect_success 'all %(trailers) atoms share one key list and one of each separator' '
	cd trl && set -f &&
	for f in "%(trailers:key=Signed-off-by)|%(trailers:key=Key,valueonly)|%(trailers)" \
		"%(trailers:separator=A)|%(contents:trailers:separator=B)|%(trailers)" \
		"%(trailers:key_value_separator=A)|%(trailers:key_value_separator=B,separator=C)"; do
		compare_git for-each-ref --format="$f" &&
		compare_git for-each-ref --format="$f" --sort=trailers:separator=X --sort=trailers:key=fixes &&
		compare_git branch --format="$f" --sort=trailers:separator=X || return 1
	done
'

test_expect_success 'trailer config: separators, token keys, and its warnings' '
	cd trl &&
	printf "Sub\n\nbody\n\nsign: S <s@x>\nfix #7\nFixes= 9\nKey: v\n" >msg &&
	git commit -q --allow-empty --cleanup=verbatim -F msg && git branch alias &&
	for c in "trailer.separators=:#" "trailer.sign.key=Signed-off-by" "trailer.separators==" \
		"trailer.separators=:=#" "trailer.fix.key=Fixes" "trailer.signature.where=end" \
		"trailer.x.where=bogus" "trailer.where=nowhere" "trailer.ifexists=bad" \
		"trailer.s.key=K1 -c trailer.S.key=K2"; do
		for f in "%(trailers)" "%(trailers:key=Signed-off-by)" "%(trailers:only)" \
			"%(trailers:unfold,only)" "%(trailers:key=sign)"; do
			eval "compare_git -c $c for-each-ref --format=\"[\$f]\"" ||
				{ echo "-c $c, $f"; return 1; }
		done
	done
'

test_expect_success 'colour: color.ui, TERM and a pager git started' '
	cd r && f="--format=%(color:red)%(refname)%(color:reset)" &&
	compare_git -c color.ui=always for-each-ref "$f" &&
	compare_git -c color.ui=false for-each-ref --color=auto "$f" &&
	(export GIT_PAGER_IN_USE=1 TERM=xterm &&
	 compare_git for-each-ref "$f" && compare_git -c color.pager=false for-each-ref "$f" &&
	 compare_git -c color.ui=auto for-each-ref "$f" && TERM=dumb compare_git for-each-ref "$f")
'

test_expect_success 'setup: commits in four zones, -0001 among them' '
	git init -q dates && cd dates &&
	for z in +0000 -0130 +0530 -0001; do
		GIT_COMMITTER_DATE="1000000000 $z" GIT_AUTHOR_DATE="999990000 $z" \
			git commit -q --allow-empty -m "z$z" && git branch "z$z" || return 1
	done
'

for f in default relative human local short iso iso8601 iso-strict iso8601-strict rfc rfc2822 raw \
	unix default-local iso-local iso-strict-local rfc-local short-local raw-local unix-local \
	human-local relative-local "format:%Y-%m-%d %H:%M:%S %z|%Z|%%|%a %b" "format-local:%H %z %Z" \
	"format:" auto:iso bogus format formatx iso-localx "" relative-
do
	test_expect_success "date format '$f', in two zones" '
		cd dates && set -f &&
		compare_git for-each-ref --format="%(refname:short) %(committerdate:$f) %(authordate:$f)" &&
		TZ=Asia/Kolkata compare_git for-each-ref --format="%(committerdate:$f)"
	'
done

test_expect_success 'dates past what git holds, odd zones; a bad format with no ref to show' '
	git init -q extreme && cd extreme &&
	for d in "0 +0000" "4294967296 +0000" "253402300800 +0000" \
		"18446744073709551615 +0000" "99999999999999999999 +0000" \
		"1500000000 +9959" "1500000000 -9959" "1500000000 abc" "1500000000"; do
		c=$(printf "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> %s\ncommitter C <c@x> %s\n\nm\n" "$d" "$d" |
			git hash-object -t commit -w --stdin --literally) &&
		git update-ref "refs/heads/d$(echo "$d" | tr -c "a-z0-9" _)" $c || return 1
	done &&
	for f in default relative human iso iso-strict rfc short raw unix "format:%Y %F %z"; do
		GIT_TEST_DATE_NOW=1600000000 compare_git for-each-ref \
			--format="%(refname:short)|%(committerdate:$f)|%(authordate:$f)" || return 1
	done &&
	compare_git for-each-ref --sort=committerdate &&
	compare_git for-each-ref --format="%(committerdate:bogus)" refs/nothing &&
	compare_git for-each-ref --format="%(committerdate:bogus)"
'

test_expect_success 'relative and human dates across their boundaries (GIT_TEST_DATE_NOW)' '
	cd dates &&
	for d in 0 1 89 90 91 5369 5370 5371 5400 128999 129600 131400 1166399 1166400 \
		1209599 1209600 5999999 6048000 31449600 31535999 31536000 31622400 \
		94608000 157679999 157680000 157766400 315360000 -1 -100000; do
		now=$((1000000000 + d)) &&
		GIT_TEST_DATE_NOW=$now compare_git for-each-ref \
			--format="%(committerdate:relative)|%(committerdate:human)|%(authordate:human)" ||
		return 1
	done
'

test_expect_success 'loose over packed, unsorted packed-refs, broken refs' '
	cd r &&
	git rev-parse one >.git/refs/heads/side &&
	compare_git for-each-ref &&
	echo garbage >.git/refs/heads/broken &&
	git symbolic-ref refs/heads/dangling refs/heads/nothing &&
	compare_git for-each-ref --format="%(refname)" &&
	rm .git/refs/heads/broken .git/refs/heads/dangling &&
	git pack-refs --all && git rev-parse one >.git/refs/heads/side &&
	git symbolic-ref refs/heads/to-packed refs/heads/master &&
	git symbolic-ref refs/heads/to-loose refs/heads/side &&
	compare_git for-each-ref --format="%(refname) %(flag) %(*flag) %(symref) %(*symref)" &&
	rm .git/refs/heads/to-packed .git/refs/heads/to-loose
'

test_expect_success 'commit filters leave out refs at a tree or a blob, quietly' '
	cd r && git tag tree-tag HEAD^{tree} && git tag -a -m blob blob-tag HEAD:one.t &&
	for args in "--merged HEAD" "--no-merged one" "--contains one" "--no-contains two"; do
		compare_git for-each-ref $args refs/tags || return 1
	done &&
	git tag -d tree-tag blob-tag >/dev/null
'

test_expect_success 'an empty modifier is none; name options are one; messages name a "*" atom whole' '
	cd r && set -f &&
	for f in "%(align:)x%(end)" "%(objectname:)" "%(if:)x%(then)y%(end)" "%(contents:)" \
		"%(subject:)" "%(raw:)" "%(committerdate:)" "%(authorname:)" "%(*rest)" \
		"%(*objectname:bogus)" "%(*objectname:short=x)" "%(*refname:bogus)" \
		"%(refname:short,short)" "%(refname:lstrip=9999999999)" "%(symref:short,x)" \
		"%(upstream:track,short)" "%(upstream:lstrip=1,track)" "%(upstream:track,)" \
		"%(upstream:track,remotename)" "%(upstream:remotename,trackshort)" \
		"%(push:remoteref,remotename)" "%(upstream:nobracket,track)"; do
		compare_git for-each-ref --format="$f" refs/heads || return 1
	done
'

test_expect_success 'an unknown date format dies before anything is shown, in git order' '
	cd r && set -f &&
	for f in "%(refname)%(*committerdate:bogus)" "%(committerdate:b1)%(authordate:b2)" \
		"%(creatordate:b1)%(committerdate:b2)" "%(*authordate:b1)%(taggerdate:b2)"; do
		compare_git for-each-ref --format="$f" || return 1
	done &&
	compare_git for-each-ref --no-sort --format="%(refname)%(*committerdate:bogus)"
'

test_expect_success 'format:%s is the time itself in any zone' '
	cd r &&
	compare_git for-each-ref --format="%(committerdate:format:%s %%s %%%s)|%(taggerdate:format-local:%s)" &&
	TZ=Asia/Tokyo compare_git for-each-ref --format="%(authordate:format-local:%s %z)"
'

test_expect_success 'branch beside a detached HEAD: every ref is read and HEAD is sorted in last' '
	cd r && git checkout -q --detach HEAD && echo garbage >.git/refs/tags/broken &&
	compare_git branch && compare_git branch --list "s*" && compare_git branch -r &&
	compare_git branch --format="%(*push)" && compare_git branch --format="%(*push)" --sort=-refname &&
	rm .git/refs/tags/broken && git checkout -q -
'

test_expect_success 'messages name a detached HEAD as HEAD, not by its description' '
	cd r && git checkout -q --detach HEAD &&
	compare_git branch --list HEAD --format="%(*push)" &&
	git rev-parse HEAD >head && echo 1234567890123456789012345678901234567890 >.git/HEAD &&
	compare_git branch --format="%(subject)" && compare_git branch -v --list HEAD &&
	cat head >.git/HEAD && git checkout -q -
'

test_done
