/* parse-options.c: git-style option parsing with unique-prefix long
 * options, --no-<name> negation, bundled short switches and "--". */
#include "lib/parse-options.h"

#define OPTS_WIDTH 24
#define OPTS_GAP 2

void print_usage(FILE *f, const char *const *u, const struct option *opts, int hidden)
{
	int extra = 0;
	fprintf(f, "usage: %s\n", *u++);
	for (; *u; u++) {
		if (!**u)
			extra = 1;
		if (extra)
			fprintf(f, "%s%s\n", **u ? "    " : "", *u);
		else
			fprintf(f, "   or: %s\n", *u);
	}
	if (opts->type != OPTION_GROUP)
		fputc('\n', f);
	for (; opts->type != OPTION_END; opts++) {
		int pos;
		if (opts->type == OPTION_GROUP) {
			fputc('\n', f);
			if (opts->help && *opts->help)
				fprintf(f, "%s\n", opts->help);
			continue;
		}
		if ((opts->flags & PARSE_OPT_HIDDEN) && !hidden)
			continue;
		pos = fprintf(f, "    ");
		if (opts->short_name)
			pos += fprintf(f, "-%c", opts->short_name);
		if (opts->short_name && opts->long_name)
			pos += fprintf(f, ", ");
		if (opts->long_name)
			pos += fprintf(f, "--%s", opts->long_name);
		if ((opts->type == OPTION_STRING || opts->type == OPTION_INTEGER ||
		     opts->type == OPTION_CALLBACK) && !(opts->flags & PARSE_OPT_NOARG)) {
			const char *a = opts->argh ? opts->argh : "...";
			const char *fmt = (opts->flags & PARSE_OPT_LITERAL_ARGHELP) ? "%s" : "<%s>";
			if (opts->flags & PARSE_OPT_OPTARG)
				pos += fprintf(f, opts->long_name ? "[=" : "[");
			else
				pos += fprintf(f, " ");
			pos += fprintf(f, fmt, a);
			if (opts->flags & PARSE_OPT_OPTARG)
				pos += fprintf(f, "]");
		}
		if (pos <= OPTS_WIDTH)
			fprintf(f, "%*s%s\n", OPTS_WIDTH - pos + OPTS_GAP, "", opts->help ? opts->help : "");
		else
			fprintf(f, "\n%*s%s\n", OPTS_WIDTH + OPTS_GAP, "", opts->help ? opts->help : "");
	}
	fputc('\n', f);
}

void usage_with_options(const char *const *u, const struct option *opts)
{
	print_usage(stderr, u, opts, 0);
	exit(129);
}

void usage_msg_opt(const char *msg, const char *const *u, const struct option *opts)
{
	fprintf(stderr, "fatal: %s\n\n", msg);
	usage_with_options(u, opts);
}

struct state {
	const char *const *usage;
	const struct option *opts;
};

/* Unknown options print the usage after the error; a bad value does not. */
static NORETURN void fail(struct state *st, const char *fmt, const char *what)
{
	fprintf(stderr, "error: ");
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	usage_with_options(st->usage, st->opts);
}

static NORETURN void fail_value(const char *fmt, const char *what)
{
	fprintf(stderr, "error: ");
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	exit(129);
}

static int takes_arg(const struct option *o)
{
	if (o->type == OPTION_STRING || o->type == OPTION_INTEGER)
		return 1;
	return o->type == OPTION_CALLBACK && !(o->flags & PARSE_OPT_NOARG);
}

/* Apply one option. arg: the value given with "=" or glued, or NULL.
 * next: the following argv word, consumed when the option needs it. */
static int apply(const struct option *o, int unset,
		 const char *arg, const char *next, int is_long)
{
	int used_next = 0;
	char name[128];
	if (is_long)
		snprintf(name, sizeof(name), "%s%s", unset ? "no-" : "", o->long_name);
	else
		snprintf(name, sizeof(name), "%c", o->short_name);
	if (!takes_arg(o) || unset) {
		if (arg)
			fail_value(is_long ? "option `%s' takes no value" : "switch `%s' takes no value", name);
	} else if (!arg && !next && (o->flags & PARSE_OPT_LASTARG_DEFAULT)) {
		arg = (const char *)o->defval;
	} else if (!arg && !(o->flags & PARSE_OPT_OPTARG)) {
		if (!next)
			fail_value(is_long ? "option `%s' requires a value" : "switch `%s' requires a value", name);
		arg = next;
		used_next = 1;
	}
	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = !unset;
		break;
	case OPTION_COUNTUP:
		if (unset)
			*(int *)o->value = 0;
		else if (*(int *)o->value < 0)
			*(int *)o->value = 1;
		else
			(*(int *)o->value)++;
		break;
	case OPTION_SET_INT:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		break;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : (arg ? arg : (const char *)o->defval);
		break;
	case OPTION_INTEGER: {
		char *end;
		long v;
		if (unset) {
			*(int *)o->value = 0;
			break;
		}
		if (!arg) {
			*(int *)o->value = (int)o->defval;
			break;
		}
		v = strtol(arg, &end, 10);
		if (!*arg || *end)
			fail_value(is_long ? "option `%s' expects a numerical value" :
					     "switch `%s' expects a numerical value", name);
		*(int *)o->value = (int)v;
		break;
	}
	case OPTION_CALLBACK:
		if (o->callback(o, unset ? NULL : arg, unset) < 0)
			exit(129);
		break;
	default:
		BUG("bad option type");
	}
	return used_next;
}

static const struct option *find_short(const struct option *o, int c)
{
	for (; o->type != OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/*
 * Long option lookup, by git's rules, over the table in order. arg is the
 * word after "--", "=value" included; len stops before the "=".
 * - An exact name is taken at once: the option's own ("--x"), its
 *   negation ("--no-x"), or for an option named "no-x", "--x" (negated).
 * - Otherwise a word may abbreviate one option: "--x" a name starting
 *   with x, "--no-x" a negatable name starting with x (the "=value" counts
 *   there, so it never matches), and "--n", "--no", "--no-" the negation
 *   of every negatable option.
 * - Two abbreviated matches are ambiguous: git names the last two.
 * Options that cannot be negated (PARSE_OPT_NONEG) match only as
 * themselves.
 */
static const struct option *find_long(struct state *st, const char *arg, size_t len, int *unset)
{
	const struct option *o, *abbrev = NULL, *other = NULL;
	int abbrev_unset = 0, other_unset = 0;
	int negated = starts_with(arg, "no-");

	for (o = st->opts; o->type != OPTION_END; o++) {
		const char *name = o->long_name;
		int neg = 0, flip = 0;   /* flip: "no-" taken off the option's name */
		size_t nlen;

		if (!name)
			continue;
	again:
		nlen = strlen(name);
		if (len == nlen && !strncmp(arg, name, len)) {
			*unset = flip;
			return o;
		}
		if (!strncmp(name, arg, len))
			goto abbreviated;
		if (o->flags & PARSE_OPT_NONEG)
			continue;
		if (starts_with("no-", arg)) {
			neg = 1;
			goto abbreviated;
		}
		if (!negated) {
			if (!flip && skip_prefix(name, "no-", &name)) {
				flip = 1;
				goto again;
			}
			continue;
		}
		neg = 1;
		if (len - 3 == nlen && !strncmp(arg + 3, name, nlen)) {
			*unset = !flip;
			return o;
		}
		if (!starts_with(name, arg + 3))
			continue;
	abbreviated:
		if (abbrev) {
			other = abbrev;
			other_unset = abbrev_unset;
		}
		abbrev = o;
		abbrev_unset = neg ^ flip;
	}
	if (other) {
		fprintf(stderr, "error: ambiguous option: %s (could be --%s%s or --%s%s)\n",
			arg, other_unset ? "no-" : "", other->long_name,
			abbrev_unset ? "no-" : "", abbrev->long_name);
		/* git shows the usage on stdout here, as for -h */
		print_usage(stdout, st->usage, st->opts, 0);
		exit(129);
	}
	*unset = abbrev_unset;
	return abbrev;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr, int flags)
{
	struct state st = { usagestr, opts };
	int out = 0, i;

	/* a lone -h asks for the usage, even where -h is an option */
	if (argc == 2 && !strcmp(argv[1], "-h")) {
		print_usage(stdout, usagestr, opts, 0);
		exit(129);
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = a;
			i++;
			break;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int unset;
			const struct option *o;
			if (!strcmp(name, "help-all") || (len == 4 && !strncmp(name, "help", 4) && !find_long(&st, name, len, &unset))) {
				print_usage(stdout, usagestr, opts, !strcmp(name, "help-all"));
				exit(129);
			}
			o = find_long(&st, name, len, &unset);
			if (!o) {
				if (flags & PARSE_OPT_KEEP_UNKNOWN) {
					argv[out++] = a;
					continue;
				}
				fail(&st, "unknown option `%s'", name);
			}
			if (apply(o, unset, eq ? eq + 1 : NULL, next, 1))
				i++;
			continue;
		}
		/* bundled short switches: -abc, -n5, -n 5 */
		for (const char *p = a + 1; *p; p++) {
			const struct option *o;
			char c[2] = { *p, 0 };
			if (*p == 'h' && !find_short(opts, 'h')) {
				print_usage(stdout, usagestr, opts, 0);
				exit(129);
			}
			o = find_short(opts, *p);
			if (!o) {
				if (flags & PARSE_OPT_KEEP_UNKNOWN) {
					argv[out++] = a;
					break;
				}
				fail(&st, "unknown switch `%s'", c);
			}
			if (takes_arg(o)) {
				if (p[1]) {
					apply(o, 0, p + 1, NULL, 0);
				} else if (o->flags & PARSE_OPT_OPTARG) {
					apply(o, 0, NULL, NULL, 0);
				} else if (apply(o, 0, NULL, next, 0))
					i++;
				break;
			}
			apply(o, 0, NULL, NULL, 0);
		}
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

int parse_opt_abbrev_cb(const struct option *opt, const char *arg, int unset)
{
	int *v = opt->value;
	char *end;
	long n;
	if (!arg) {
		*v = unset ? 0 : -1;
		return 0;
	}
	n = strtol(arg, &end, 10);
	if (!*arg || *end)
		return error("option `%s' expects a numerical value", opt->long_name);
	*v = n < 4 ? (n ? 4 : 0) : n > 40 ? 40 : (int)n;
	return 0;
}
