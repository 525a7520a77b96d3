#!/bin/sh
# Colour in ref formats beside git: every form of a colour specification,
# the reset git adds at the end of a line left coloured, colour atoms
# under --shell and friends, and the colour.branch.* configuration.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q r && cd r && test_commit one && test_commit two &&
	git branch side one && git tag -a -m tag ann
'

# the forms git's colour parser takes, and ones it refuses
while IFS= read -r spec; do
	test_expect_success "colour '$spec'" '
		cd r &&
		compare_git for-each-ref --count=1 --color=always --format="%(color:$spec)x" &&
		compare_git for-each-ref --count=1 --color=never --format="%(color:$spec)x"
	'
done <<'SPECS'
red
bold red
red bold
  red   bold  
reset green
reset
bold reset
red reset blue
normal
normal red
normal default
default default
red normal
brightred brightblue
BrightRed
RED
Normal
DEFAULT
7
07
+7
8
15
16
255 0
-1
#ff0ab3
#FF0AB3 #000000
nobold
no-bold
nobold nodim
nobold bold
bold bold
noitalic no-ul noblink noreverse nostrike
bold dim italic ul blink reverse strike
strike nostrike
ul reverse red blue
nobold red reset
red blue green
foo
Bold
256
-2
#ff0ab
#fff
#abcdeg
brightnormal
brightdefault
no-
no
noreset
0x7
1e1
SPECS

test_expect_success 'a line left coloured ends with a reset, only when colour is on' '
	cd r &&
	for f in "%(color:red)x%(color:reset)" "%(color:reset)x" "%(color:red)x" \
		"%(color:red)x%(color:reset)y%(color:blue)" "%(color:normal)x" \
		"%(if)%(symref)%(then)%(color:red)%(end)x" "%(color:)x"; do
		compare_git for-each-ref --color=always --format="$f" &&
		compare_git for-each-ref --color=never --format="$f" &&
		compare_git branch --color=always --format="$f" || return 1
	done
'

test_expect_success 'quoting: colour atoms are values, %(if) and %(align) blocks one value each' '
	cd r &&
	for q in --shell --python --tcl --perl; do
		for f in "%(color:red)x%(color:reset)" "%(color:red)x" \
			"%(if)%(symref)%(then)%(color:red)%(end)x" \
			"%(if)%(refname)%(then)a%(refname)b%(end)c" \
			"%(align:30)%(refname) %(objectname:short)%(end)|" \
			"%(align:30)%(if)%(HEAD)%(then)%(refname)%(else)%(objectname)%(end)%(end)"; do
			compare_git for-each-ref $q --color=always --format="$f" &&
			compare_git for-each-ref $q --color=never --format="$f" || return 1
		done
	done
'

test_expect_success 'color.branch.*: specifications, and a bad one in a file and on the command line' '
	cd r &&
	compare_git -c color.branch.current="bold red" -c color.branch.local="#00ff00 ul" \
		branch --color=always -v &&
	compare_git -c color.branch.current=foo branch --color=always &&
	compare_git -c color.branch.local="red blue green" branch &&
	compare_git -c color.branch.local="red blue green" branch -d nothere &&
	compare_git -c color.branch.current branch &&
	compare_git -c color.branch.bogus=foo branch --color=always &&
	git config color.branch.current "bold nothing" &&
	compare_git branch --color=always &&
	git config --unset color.branch.current
'

test_expect_success 'color.branch and color.ui: words in any case or booleans; anything else is fatal' '
	cd r &&
	for v in always ALWAYS Never auto yes 1 0 false "" bogus; do
		compare_git -c color.branch="$v" branch --format="%(color:red)%(refname)" &&
		compare_git -c color.ui="$v" branch &&
		compare_git -c color.ui="$v" -c color.branch=always branch -v || return 1
	done &&
	compare_git -c color.branch branch --format="%(color:red)%(refname)" &&
	compare_git -c color.ui=bogus branch -d nothere &&
	compare_git -c color.branch=bogus branch -m nothere new &&
	git config color.branch bogus &&
	compare_git branch --color=always &&
	git config --unset color.branch &&
	compare_git -c color.ui=bogus for-each-ref --format="%(color:red)%(refname)"
'

test_expect_success 'a bad core value and a bad colour: the first in the config is reported' '
	cd r &&
	compare_git -c color.branch.current=bogus -c core.logAllRefUpdates=bogus branch &&
	compare_git -c core.logAllRefUpdates=bogus -c color.branch.current=bogus branch &&
	compare_git -c color.branch.upstream=bogus -c core.abbrev=41 branch -v &&
	compare_git -c core.abbrev=41 -c color.branch=bogus branch &&
	git config core.warnAmbiguousRefs bogus &&
	compare_git -c color.branch.local=bogus branch &&
	git config --unset core.warnAmbiguousRefs
'

test_done
