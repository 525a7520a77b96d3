/* column.h: listings in columns, as git's --column, column.ui and
 * column.<command> lay them out. */
#ifndef LIB_COLUMN_H
#define LIB_COLUMN_H

#include <stddef.h>

#define COL_ENABLE_MASK 0x000f  /* never, always, auto */
#define COL_DISABLED 0x0000
#define COL_ENABLED 0x0001
#define COL_AUTO 0x0002
#define COL_LAYOUT_MASK 0x00f0
#define COL_COLUMN 0x0000       /* fill columns first */
#define COL_ROW 0x0010          /* fill rows first */
#define COL_PLAIN 0x0020        /* one a line */
#define COL_DENSE 0x0100        /* columns of unequal widths */
#define COL_PARSEOPT 0x0200     /* set by --column or --no-column */

/* Words separated by spaces or commas: always, never, auto, column, row,
 * plain, [no]dense. A layout without always/never/auto means always. 0,
 * or -1 after git's "unsupported option" error. */
int column_parse(unsigned *colopts, const char *value);
/* For a config_for_each() callback: column.ui and column.<command>.
 * Dies as git does on a value it cannot parse. */
void column_config(const char *key, const char *value, const char *command, unsigned *colopts);
/* --column[=<options>] and --no-column. */
int column_option(unsigned *colopts, const char *arg, int unset);
/* auto becomes always on a terminal or under a pager git started. */
void column_finalize(unsigned *colopts);
static inline int column_active(unsigned colopts)
{
	return (colopts & COL_ENABLE_MASK) == COL_ENABLED;
}
/* Prints the items, laid out in the terminal's width (COLUMNS, else the
 * terminal's, else 80) less one. */
void column_print(const char *const *items, size_t nr, unsigned colopts);

#endif
