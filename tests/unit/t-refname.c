/* t-refname: check_refname_format against git's rules, name by name. */
#include "lib/util.h"
#include "refs/refs.h"
#include "tests/unit/tap.h"

#define check_name(cond, what, name, flags) \
	check((cond), "%s '%s' (flags %u)", (what), (name), (flags))

static void good(const char *name, unsigned flags)
{
	check_name(check_refname_format(name, flags) == 0, "accepts", name, flags);
}

static void bad(const char *name, unsigned flags)
{
	check_name(check_refname_format(name, flags) != 0, "rejects", name, flags);
}

int main(void)
{
	const unsigned one = REFNAME_ALLOW_ONELEVEL, pat = REFNAME_REFSPEC_PATTERN;
	good("refs/heads/main", 0);
	good("refs/heads/feature/x", 0);
	good("refs/tags/v1.0", 0);
	good("heads/main", 0);
	good("HEAD", one);
	good("main", one);
	good("refs/heads/@", 0);
	good("refs/heads/a@b", 0);
	good("refs/heads/a.b", 0);
	good("refs/heads/ünïcode", 0);
	good("refs/heads/*", pat);
	good("refs/*/main", pat);
	bad("main", 0);
	bad("HEAD", 0);
	bad("@", one);
	bad("refs/heads/a..b", 0);
	bad("refs/heads/.hidden", 0);
	bad("refs/heads/x.lock", 0);
	bad("refs/heads/x.lock/y", 0);
	bad("refs/heads/x/", 0);
	bad("refs/heads//x", 0);
	bad("/refs/heads/x", 0);
	bad("refs/heads/x.", 0);
	bad("refs/heads/x@{1}", 0);
	bad("refs/heads/sp ace", 0);
	bad("refs/heads/tab\tx", 0);
	bad("refs/heads/del\177", 0);
	bad("refs/heads/a~1", 0);
	bad("refs/heads/a^", 0);
	bad("refs/heads/a:b", 0);
	bad("refs/heads/a?", 0);
	bad("refs/heads/a[b", 0);
	bad("refs/heads/a\\b", 0);
	bad("refs/heads/*", 0);
	bad("refs/*/*", pat);
	bad("", one);
	bad(".", one);
	bad("..", one);
	return tap_done();
}
