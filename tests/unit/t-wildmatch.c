/* t-wildmatch: git's wildcards (lib/wildmatch.h), as git's for-each-ref
 * (WM_PATHNAME) and branch --list (no flags) match ref names. The answers
 * of the groups marked "git" were read from git 2.39: for-each-ref and
 * branch --list on refs of those names, or ls-files with a ":(glob)"
 * pathspec (WM_PATHNAME) on files of those names. */
#include "lib/util.h"
#include "lib/wildmatch.h"
#include "tests/unit/tap.h"

#define P WM_PATHNAME
#define I WM_CASEFOLD

static const struct {
	const char *pattern, *text;
	unsigned flags;
	int want;
} cases[] = {
	{ "abc", "abc", 0, 1 },
	{ "abc", "abd", 0, 0 },
	{ "abc", "ab", 0, 0 },
	{ "ab", "abc", 0, 0 },
	{ "", "", 0, 1 },
	{ "*", "", 0, 1 },
	{ "a?c", "abc", 0, 1 },
	{ "a?c", "a/c", 0, 1 },
	{ "a?c", "a/c", P, 0 },
	{ "a*c", "a/b/c", 0, 1 },
	{ "a*c", "a/b/c", P, 0 },
	{ "a\\*c", "a*c", 0, 1 },
	{ "a\\*c", "abc", 0, 0 },
	/* git: branch --list (no WM_PATHNAME) */
	{ "d**e", "deep/er/name", 0, 1 },
	{ "d*e", "deep/er/name", 0, 1 },
	{ "deep/er/**/name", "deep/er/name", 0, 0 },
	{ "deep[/]er/name", "deep/er/name", 0, 1 },
	{ "deep[!a]er/name", "deep/er/name", 0, 1 },
	{ "**/er/name", "deep/er/name", 0, 1 },
	/* git: for-each-ref (WM_PATHNAME) */
	{ "refs/heads/d*e", "refs/heads/deep/er/name", P, 0 },
	{ "refs/heads/deep**/name", "refs/heads/deep/er/name", P, 0 },
	{ "refs/heads/**name", "refs/heads/deep/er/name", P, 0 },
	{ "refs/heads/deep/er/**/name", "refs/heads/deep/er/name", P, 1 },
	{ "refs/heads/deep/er**", "refs/heads/deep/er/name", P, 0 },
	{ "refs/heads/deep?er/name", "refs/heads/deep/er/name", P, 0 },
	{ "refs/heads/deep[/]er/name", "refs/heads/deep/er/name", P, 0 },
	{ "refs/heads/deep[!a]er/name", "refs/heads/deep/er/name", P, 0 },
	{ "refs/**/er/**", "refs/heads/deep/er/name", P, 1 },
	{ "refs**", "refs/heads/deep/er/name", P, 0 },
	{ "**/heads/deep/**", "refs/heads/deep/er/name", P, 1 },
	{ "**", "refs/heads/deep/er/name", P, 1 },
	{ "**/name", "refs/heads/deep/er/name", P, 1 },
	{ "refs/heads/**", "refs/heads/deep/er/name", P, 1 },
	{ "refs/heads/**", "refs/heads", P, 0 },
	{ "refs/*/[!/]*", "refs/heads/master", P, 1 },
	{ "refs/*/[!/]*", "refs/heads/deep/er/name", P, 0 },
	/* git: ls-files ':(glob)...' */
	{ "a/**/b", "a/b", P, 1 },
	{ "a/**/b", "a/x/y/b", P, 1 },
	{ "a/***/b", "a/x/b", P, 1 },
	{ "a*/b", "a1/b", P, 1 },
	{ "a*", "a1/x/y/b", P, 0 },
	/* git: for-each-ref --ignore-case */
	{ "refs/heads/[M]*", "refs/heads/master", P | I, 0 },
	{ "refs/heads/[u]*", "refs/heads/Upper", P | I, 1 },
	{ "refs/heads/[A-Z]aster", "refs/heads/master", P | I, 1 },
	{ "refs/heads/[[:upper:]]aster", "refs/heads/master", P | I, 1 },
	{ "refs/heads/[!M]aster", "refs/heads/master", P | I, 1 },
	{ "refs/heads/[!m]aster", "refs/heads/master", P | I, 0 },
	{ "refs/heads/[^M]aster", "refs/heads/master", P | I, 1 },
	{ "refs/heads/[[:UPPER:]]aster", "refs/heads/master", P | I, 0 },
	{ "refs/heads/[[:foo:]]aster", "refs/heads/master", P | I, 0 },
	{ "refs/heads/[a-", "refs/heads/a", P | I, 0 },
	{ "refs/heads/ma\\ster", "refs/heads/master", P | I, 1 },
	{ "refs/heads/M*", "refs/heads/master", P | I, 1 },
	{ "refs/heads/M*", "refs/heads/master", P, 0 },
	{ "refs/heads/[[:lower:]]aster", "refs/heads/master", P | I, 1 },
	/* git: ls-files ':(glob)...' */
	{ "[]]", "]", 0, 1 },
	{ "[]a]", "a", 0, 1 },
	{ "[!]]", "a", 0, 1 },
	{ "[!]]", "]", 0, 0 },
	{ "[a-]", "-", 0, 1 },
	{ "[-a]", "-", 0, 1 },
	{ "[a-c]", "b", 0, 1 },
	{ "[a-c]", "d", 0, 0 },
	{ "[\\]]", "]", 0, 1 },
	{ "[a\\-c]", "b", 0, 0 },
	{ "[[:digit:]x]", "7", 0, 1 },
	{ "[[:digit:]x]", "x", 0, 1 },
	{ "[[:digit:]x]", "y", 0, 0 },
	{ "[[:alpha:]", "a", 0, 0 },
	{ "[[:xdigit:]][[:space:]]", "f ", 0, 1 },
	{ "[abc", "a", 0, 0 },
	{ "abc\\", "abc\\", P, 0 },
	{ "abc\\", "abc", P, 0 },
	/* not read from git */
	{ "[", "[", 0, 0 },
	{ "**/", "a/", P, 1 },
	{ "**/", "a", P, 0 },
	/* many stars: pruned, not exponential */
	{ "*a*a*a*a*a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 0 },
	{ "*/*/*/*/*/*/*/*/*/*/x", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/y", P, 0 },
	{ "**/**/**/**/**/**/**/**/x", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/y", P, 0 },
	{ "**/**/**/**/**/**/**/**/y", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/y", P, 1 },
	{ "**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/x",
	  "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/y", P, 0 },
	{ "f**/*/**/***/*/**/***/***/****/***/*****/*/*****/*/***/**/***/[a?", "f/x/y/z/w/v/u/t/s/r/q/p/o/n/m/l/k/j", P, 0 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int got = wildmatch(cases[i].pattern, cases[i].text, cases[i].flags);
		check(got == cases[i].want, "'%s' %s '%s'%s%s", cases[i].pattern,
		      cases[i].want ? "matches" : "does not match", cases[i].text,
		      cases[i].flags & P ? " (pathname)" : "", cases[i].flags & I ? " (case folded)" : "");
	}
	return tap_done();
}
