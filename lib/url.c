/* url.c: URL helpers that both sides of the transport need. */
#include "lib/util.h"
#include "lib/url.h"

char *url_strip_credentials(const char *url)
{
	const char *s = strstr(url, "://"), *host, *slash, *at;
	if (!s)
		return xstrdup(url);
	host = s + 3;
	slash = strchr(host, '/');
	at = memchr(host, '@', slash ? (size_t)(slash - host) : strlen(host));
	if (!at)
		return xstrdup(url);
	return xstrfmt("%.*s%s", (int)(host - url), url, at + 1);
}
