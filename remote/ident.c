/* ident.c: the committer identity and date for reflogs. */
#include "remote/ident.h"
#include "lib/config.h"
#include <pwd.h>
#include <time.h>

static void add_date(struct strbuf *sb)
{
	const char *env = getenv("GIT_COMMITTER_DATE");
	if (env && *env) {
		/* "<seconds> <+hhmm>" (optionally "@<seconds>"), as scripts set it */
		const char *p = env + (*env == '@');
		char *end;
		unsigned long long secs = strtoull(p, &end, 10);
		if (end != p && *end == ' ' && (end[1] == '+' || end[1] == '-') && strlen(end + 1) == 5) {
			strbuf_addf(sb, "%llu %s", secs, end + 1);
			return;
		}
	}
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	long off = tm.tm_gmtoff / 60;
	char sign = off < 0 ? '-' : '+';
	if (off < 0)
		off = -off;
	strbuf_addf(sb, "%llu %c%02ld%02ld", (unsigned long long)now, sign, off / 60, off % 60);
}

void ident_committer(struct strbuf *sb)
{
	const char *name = getenv("GIT_COMMITTER_NAME"), *email = getenv("GIT_COMMITTER_EMAIL");
	struct passwd *pw = NULL;
	char host[256];

	if (!name && !config_get("user.name", &name))
		name = NULL;
	if (!email && !config_get("user.email", &email))
		email = NULL;
	if (!email)
		email = getenv("EMAIL");
	if (!name || !email)
		pw = getpwuid(getuid());
	if (!name)
		name = pw && pw->pw_gecos && *pw->pw_gecos ? pw->pw_gecos : pw ? pw->pw_name : "unknown";
	strbuf_addf(sb, "%s <", name);
	if (email) {
		strbuf_addstr(sb, email);
	} else {
		if (gethostname(host, sizeof(host)) < 0)
			strcpy(host, "localhost");
		host[sizeof(host) - 1] = 0;
		strbuf_addf(sb, "%s@%s", pw ? pw->pw_name : "unknown", host);
	}
	strbuf_addstr(sb, "> ");
	add_date(sb);
}
