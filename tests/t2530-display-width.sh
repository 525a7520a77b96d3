#!/bin/sh
# Columns on the terminal, as git counts them: %(align) in for-each-ref,
# branch -v's name column and branch --column, with wide (CJK, emoji),
# combining and zero-width characters, controls, and names that are not
# UTF-8 (each byte a column).
. "$(dirname "$0")/test-lib.sh"

# Names by their bytes: printf's octal escapes.
cjk=$(printf '\344\270\255\346\226\207')               # two wide characters
kana=$(printf '\343\201\202\343\201\204\343\201\206')  # three wide
emoji=$(printf 'x\360\237\230\200')                    # x and a wide emoji
comb=$(printf 'e\314\201e\314\201')                    # e and a combining acute, twice
zw=$(printf 'a\342\200\213b')                          # a, zero width space, b
fullw=$(printf '\357\274\241\357\274\242')             # fullwidth A and B
hangul=$(printf '\341\204\200\341\205\241')            # a wide choseong and a jungseong of no width
bad=$(printf 'bad\377\376')                            # not UTF-8
overlong=$(printf 'o\300\257')
surrogate=$(printf 's\355\240\200')
fffe=$(printf 'n\357\277\276')
cut=$(printf 'cut\344\270')                            # a 3-byte character cut short
uni15=$(printf 'u\360\237\253\250')                    # U+1FAE8, new in Unicode 15.0: one column

test_expect_success 'setup: branches of wide, combining and invalid names' '
	git init -q r && cd r && test_commit one && test_commit two &&
	for b in "$cjk" "$kana" "$emoji" "$comb" "$zw" "$fullw" "$hangul" "$bad" \
		"$overlong" "$surrogate" "$fffe" "$cut" "$uni15" "dir/$cjk$kana" plain; do
		git branch "$b" one || return 1
	done &&
	git update-ref "refs/remotes/origin/$kana" two &&
	git update-ref "refs/remotes/origin/$bad" one &&
	git branch --list >names && test $(wc -l <names) = 16
'

for pos in left middle right; do
	for w in 3 5 8 12; do
		test_expect_success "for-each-ref %(align:$w,$pos) of each name" '
			cd r && compare_git for-each-ref \
				--format="[%(align:$w,$pos)%(refname:lstrip=2)%(end)]" refs/heads refs/remotes
		'
	done
done

test_expect_success 'for-each-ref %(align) of bytes from the format: controls, C1, invalid forms' '
	cd r &&
	for t in "a%01b%7fc" "%1b[31mred%1b[m" "%c2%80%c2%9fx" "%c2%a0" "%c2%ad" "%e2%80%8b" \
		"%ef%bb%bf" "%ef%bf%bd" "%ef%bf%be" "%ef%bf%bf" "%c0%af" "%c1%bf" "%e0%80%af" \
		"%e0%9f%bf" "%ed%a0%80" "%ed%bf%bf" "%ed%9f%bf" "%f0%80%80%af" "%f0%8f%bf%bf" \
		"%f4%8f%bf%bf" "%f4%90%80%80" "%f5%80%80%80" "%f8%88%80%80%80" "%80" "%fe" "%c3" \
		"%e4%b8" "%f0%9f%98" "%e4%b8z" "%c3%a9%bf" "%e1%85%a0%e1%87%bf" "%e3%80%aa" \
		"%f3%a0%84%80" "%ef%a9%ae" "%f0%b1%8d%90" "%f0%aa%9b%a0" "%e0%b8%bb"; do
		compare_git for-each-ref --format="%(align:6)$t%(end)|%(align:9,middle)$t$t%(end)|" \
			refs/heads/plain || return 1
	done
'

test_expect_success '%(align) ends at a NUL from the format, as git aligns a C string' '
	cd r &&
	for f in "%(align:8)a%00bc%(end)|" "%(align:2)abc%00de%(end)|" "%(align:6,right)%00x%(end)|" \
		"%(align:9)%(align:4)a%00b%(end)c%00d%(end)|" "%(align:7,middle)$cjk%00z%(end)|"; do
		for q in "" --shell --perl --python --tcl; do
			compare_git for-each-ref $q --format="$f" refs/heads/plain || return 1
		done
	done
'

test_expect_success 'branch -v and -vv: names padded to the widest in columns' '
	cd r &&
	compare_git branch -v && compare_git branch -vv && compare_git branch -a -v &&
	compare_git branch -r -v && compare_git branch -v --list "$cjk*" "$kana" plain &&
	compare_git branch -v --list "$comb" "$zw" plain && compare_git branch -v --list "$bad" plain &&
	compare_git branch -v --list "$emoji" "$uni15" && compare_git branch -vv --color=always
'

for args in "" "--column=row" "--column=dense" "--column=row,dense" "-a" "-a --column=dense" \
	"-r" "--color=always" "--color=always -a --column=dense" \
	"--format=%(color:red)%(refname:short)%(color:reset)" \
	"--format=%1b[1;31;m%(refname:short)%1b[m" "--format=%1b[1x%(refname:short)" \
	"--format=%(refname:short)%1b[31" "--format=%1b(B%(refname:short)%01"
do
	test_expect_success "branch --column $args, in widths 10 to 80" '
		cd r && set -f &&
		for w in 10 17 25 33 40 57 80; do
			COLUMNS=$w compare_git branch --column=always $args || return 1
		done
	'
done

test_done
