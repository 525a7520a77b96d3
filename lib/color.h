/* color.h: colour specifications as git's configuration and
 * %(color:...) take them ("bold red", "reset green", "#ff0ab3 254",
 * "no-ul"). */
#ifndef LIB_COLOR_H
#define LIB_COLOR_H

#include "lib/strbuf.h"

/* The escape sequence of spec appended to out (nothing for "" or
 * "normal"): 0, or -1 after git's "invalid color value: <spec>" error. */
int color_parse(const char *spec, struct strbuf *out);

#define COLOR_RESET "\033[m"

#endif
