/* parse-options.h: command-line options with git's syntax, messages and
 * usage layout (-h prints usage on stdout and exits 129). */
#ifndef LIB_PARSE_OPTIONS_H
#define LIB_PARSE_OPTIONS_H

#include "lib/util.h"

enum opt_type {
	OPTION_END,
	OPTION_GROUP,
	OPTION_BOOL,     /* int: 1, --no-x: 0 */
	OPTION_COUNTUP,  /* int: +1 each time, --no-x: 0 */
	OPTION_SET_INT,  /* int: defval, --no-x: 0 */
	OPTION_STRING,   /* const char *: the argument, --no-x: NULL */
	OPTION_INTEGER,  /* int: the argument */
	OPTION_CALLBACK, /* callback(opt, arg, unset) */
};

enum {
	PARSE_OPT_OPTARG = 1,   /* the argument is optional (--x[=arg]) */
	PARSE_OPT_NOARG = 2,    /* callback takes no argument */
	PARSE_OPT_NONEG = 4,    /* no --no-x form */
	PARSE_OPT_HIDDEN = 8,   /* not shown in usage */
	PARSE_OPT_LITERAL_ARGHELP = 16,
	/* the argument may be left out only when the option is the last
	 * word of the command line: defval (a string) is used then */
	PARSE_OPT_LASTARG_DEFAULT = 32,
};

/* flags for parse_options() */
enum {
	PARSE_OPT_STOP_AT_NON_OPTION = 1,
	PARSE_OPT_KEEP_DASHDASH = 2,
	PARSE_OPT_KEEP_UNKNOWN = 4,
};

struct option;
typedef int (*parse_opt_cb)(const struct option *opt, const char *arg, int unset);

struct option {
	enum opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	parse_opt_cb callback;
	intptr_t defval;
};

#define OPT_END() { .type = OPTION_END }
#define OPT_GROUP(h) { .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOL(s, l, v, h) { .type = OPTION_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_BOOL_F(s, l, v, h, f) { .type = OPTION_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .flags = (f) }
#define OPT__VERBOSE(v, h) { .type = OPTION_COUNTUP, .short_name = 'v', .long_name = "verbose", .value = (v), .help = (h) }
#define OPT__QUIET(v, h) { .type = OPTION_COUNTUP, .short_name = 'q', .long_name = "quiet", .value = (v), .help = (h) }
#define OPT_COUNTUP(s, l, v, h) { .type = OPTION_COUNTUP, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_SET_INT(s, l, v, h, i) { .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .defval = (i) }
#define OPT_SET_INT_F(s, l, v, h, i, f) { .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .defval = (i), .flags = (f) }
/* A mode switch: like SET_INT, no negation. */
#define OPT_CMDMODE(s, l, v, h, i) { .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .defval = (i), .flags = PARSE_OPT_NONEG }
#define OPT_STRING(s, l, v, a, h) { .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_F(s, l, v, a, h, f) { .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = (f) }
#define OPT_INTEGER(s, l, v, h) { .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (cb) }
#define OPT_CALLBACK_F(s, l, v, a, h, f, cb) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = (f), .callback = (cb) }

/* --abbrev[=<n>] into an int: -1 for the default length, 0 for
 * --no-abbrev, else n clamped to 4..40 (git's OPT__ABBREV). */
int parse_opt_abbrev_cb(const struct option *opt, const char *arg, int unset);
#define OPT__ABBREV(v) OPT_CALLBACK_F(0, "abbrev", (v), "n", \
	"use <n> digits to display object names", PARSE_OPT_OPTARG, parse_opt_abbrev_cb)

/*
 * Parses argv[1..] (argv[0] is the command name), removes the options and
 * returns the number of arguments left in argv[0..]. Bad options print
 * git's error and the usage to stderr and exit 129; an ambiguous
 * abbreviation, -h and --help-all (hidden options too) print the usage
 * to stdout, as git does.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr, int flags);

/* Print the usage and the options to stderr and exit 129. */
NORETURN void usage_with_options(const char *const *usagestr, const struct option *opts);
/* "fatal: msg", then as usage_with_options(). */
NORETURN void usage_msg_opt(const char *msg, const char *const *usagestr, const struct option *opts);
/* The usage and the options' help on f; hidden options too if hidden. */
void print_usage(FILE *f, const char *const *usagestr, const struct option *opts, int hidden);

#endif
