#!/bin/sh
# demo.sh: make a small repository with git (branches, tags, packed refs,
# a pack with deltas) and run mini-git's main commands on it beside git.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
mg="$top/mini-git"
dir=$(mktemp -d "${TMPDIR:-/tmp}/mini-git-demo.XXXXXX")
export LC_ALL=C GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com \
	GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com

echo "== making a demo repository in $dir/repo"
git init -q -b main "$dir/repo"
cd "$dir/repo"
i=0
while [ $i -lt 30 ]; do
	seq 1 $((200 + i)) >file.txt
	echo "line $i" >>notes.txt
	git add file.txt notes.txt
	GIT_AUTHOR_DATE="$((1700000000 + i * 3600)) +0000" \
	GIT_COMMITTER_DATE="$((1700000000 + i * 3600)) +0000" \
		git commit -q -m "change $i"
	git tag "v0.$i"
	[ $((i % 10)) = 0 ] && git branch "topic-$i"
	i=$((i + 1))
done
git tag -a -m "release" v1.0
git pack-refs --all
git gc -q

run() {
	echo "\$ mini-git $*"
	"$mg" "$@" || echo "(exit $?)"
}
run --version
for c in "branch" "branch -v" "rev-parse HEAD" "cat-file -p HEAD" \
	 "show-ref --heads" "fsck"; do
	if "$mg" help 2>/dev/null | grep -q "^   ${c%% *}\$"; then
		run $c
		if [ "$(git $c 2>&1)" = "$("$mg" $c 2>&1)" ]; then
			echo "   (same output as git $c)"
		else
			echo "   (output differs from git $c)"
		fi
	fi
done
if command -v strace >/dev/null 2>&1 && "$mg" help | grep -q '^   branch$'; then
	strace -f -c -o "$dir/mg.strace" "$mg" branch >/dev/null 2>&1
	strace -f -c -o "$dir/git.strace" git branch >/dev/null 2>&1
	n=$(awk '/ total$/ {print $4}' "$dir/mg.strace")
	g=$(awk '/ total$/ {print $4}' "$dir/git.strace")
	echo "== system calls for 'branch': mini-git $n, git $g"
fi
rm -rf "$dir"
