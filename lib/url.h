/* url.h: small URL helpers shared by mini-git and its HTTP helper. */
#ifndef LIB_URL_H
#define LIB_URL_H

/* The URL without "user:password@" (for messages); malloc'ed. */
char *url_strip_credentials(const char *url);

#endif
