/* utf8-width.h: how many columns text takes on a terminal, counted as git
 * 2.39 counts them for --column, %(align) and branch -v.
 *
 * The text is read as UTF-8 one character at a time. NUL, the controls
 * (below U+0020, and U+007F..U+009F), combining marks and other
 * characters of no width take no column; East Asian Wide and Fullwidth
 * characters take two; every other character one (Unicode 14.0, as git
 * 2.39's tables). Text with any sequence that is not UTF-8 (a stray or
 * missing continuation byte, an overlong form, a surrogate, a code point
 * above U+10FFFF, U+FFFE or U+FFFF) is taken one column a byte, all of it. */
#ifndef LIB_UTF8_WIDTH_H
#define LIB_UTF8_WIDTH_H

#include <stddef.h>
#include <stdint.h>

/* Colour sequences, ESC '[' <digits and ';'> 'm', take no column (an ESC
 * that does not start a whole one is a control: only the ESC has none). */
#define UTF8_WIDTH_SKIP_ANSI 1

/* The columns of s[0..n). flags: 0 or UTF8_WIDTH_SKIP_ANSI. */
size_t utf8_width(const char *s, size_t n, unsigned flags);

/* The columns of one code point: 0, 1 or 2. */
int utf8_char_width(uint32_t cp);

#endif
