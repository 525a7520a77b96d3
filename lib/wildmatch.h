/* wildmatch.h: git's wildcards, matched against a whole name: '*', '?',
 * '[...]' (negated by '!' or '^', with ranges and [:class:]es) and '\'
 * escapes. Without WM_PATHNAME, '*' matches any run of characters. With
 * it, none of these matches '/'; but two or more stars that make a whole
 * part of the path (between slashes, or at either end) match any run,
 * slashes included, and followed by a slash may match no part at all.
 * The same on every C library, unlike fnmatch(). */
#ifndef LIB_WILDMATCH_H
#define LIB_WILDMATCH_H

#define WM_CASEFOLD 1
#define WM_PATHNAME 2

/* 1 if pattern matches all of text, else 0. */
int wildmatch(const char *pattern, const char *text, unsigned flags);

#endif
