/* versioncmp.h: names compared as versions ("v1.9" before "v1.10"), as
 * --sort=version:refname orders them. */
#ifndef LIB_VERSIONCMP_H
#define LIB_VERSIONCMP_H

/* Runs of digits compare as numbers; a run with leading zeros is a
 * fraction (glibc's strverscmp order, on every libc). */
int strverscmp_own(const char *a, const char *b);

/* strverscmp_own(), after the configured versionsort.suffix (or the
 * older versionsort.prereleaseSuffix) places: "-rc" configured puts
 * "v1.0-rc1" before "v1.0". */
int versioncmp(const char *a, const char *b);

#endif
