/* update-ref: set or delete one ref, with an optional old-value check;
 * with --stdin, many in one transaction, as git's commands on stdin. */
#include "builtin/builtin.h"
#include "lib/quote.h"
#include "lib/repo.h"
#include "refs/refs.h"
#include "odb/oid-name.h"
#include <ctype.h>

static const char *const update_ref_usage[] = {
	"git update-ref [<options>] -d <refname> [<old-val>]",
	"git update-ref [<options>]    <refname> <new-val> [<old-val>]",
	"git update-ref [<options>] --stdin [-z]",
	NULL
};

/*
 * --stdin. Commands come one to a line (with -z: each field ends in a
 * NUL); the changes join one transaction, made at the end of the input,
 * unless "start" asked for an explicit one: then "prepare", "commit" and
 * "abort" say what happens, and the input ending first aborts.
 */
enum tx_state { TX_OPEN, TX_STARTED, TX_PREPARED, TX_CLOSED };

struct stdin_session {
	struct ref_transaction *t;
	int term;                   /* '\n', or '\0' with -z */
	unsigned flags, default_flags;
	const char *msg;
	struct strbuf err;
};

/* One argument without -z: a C-quoted string, or the bytes up to a space. */
static const char *next_word(const char *p, struct strbuf *out)
{
	const char *at = p;
	if (*p == '"') {
		if (unquote_c_style(out, at, &p) < 0)
			die("badly quoted argument: %s", at);
		if (*p && !git_isspace((unsigned char)*p))
			die("unexpected character after quoted argument: %s", at);
		return p;
	}
	while (*p && !git_isspace((unsigned char)*p))
		strbuf_addch(out, *p++);
	return p;
}

static char *parse_ref(struct stdin_session *s, const char **next)
{
	struct strbuf ref = STRBUF_INIT;
	if (s->term) {
		*next = next_word(*next, &ref);
	} else {
		strbuf_addstr(&ref, *next);
		*next += ref.len;
	}
	if (!ref.len) {
		strbuf_release(&ref);
		return NULL;
	}
	if (check_refname_format(ref.buf, REFNAME_ALLOW_ONELEVEL))
		die("invalid ref format: %s", ref.buf);
	return strbuf_detach(&ref, NULL);
}

enum { NEW_VALUE = 0, OLD_VALUE = 1, EMPTY_IS_ZERO = 2 };

/* The next object name: 0 and *oid, or 1 when there is none. Without
 * -z an empty one is the zero id; with -z it is none, or (EMPTY_IS_ZERO)
 * the zero id with a warning. */
static int parse_value(struct stdin_session *s, const char **next, const char *end,
		       struct object_id *oid, const char *cmd, const char *ref, unsigned how)
{
	const char *what = how & OLD_VALUE ? "oldvalue" : "newvalue";
	struct strbuf arg = STRBUF_INIT;

	if (*next == end)
		die("%s %s: unexpected end of input when reading <%s>", cmd, ref, what);
	if (s->term) {
		if (!**next || **next == s->term)
			return 1;
		if (**next != ' ')
			die("%s %s: expected SP but got: %s", cmd, ref, *next);
		*next = next_word(*next + 1, &arg);
	} else {
		if (**next)
			die("%s %s: expected NUL but got: %s", cmd, ref, *next);
		if (++*next == end)
			die("%s %s: unexpected end of input when reading <%s>", cmd, ref, what);
		strbuf_addstr(&arg, *next);
		*next += arg.len;
		if (!arg.len && !(how & EMPTY_IS_ZERO)) {
			strbuf_release(&arg);
			return 1;
		}
		if (!arg.len)
			warning("%s %s: missing <%s>, treating as zero", cmd, ref, what);
	}
	if (!arg.len)
		oidclr(oid);
	else if (get_oid(arg.buf, oid))
		die("%s %s: invalid <%s>: %s", cmd, ref, what, arg.buf);
	strbuf_release(&arg);
	return 0;
}

static void expect_end(struct stdin_session *s, const char *next, const char *cmd, const char *ref)
{
	if (*next != s->term)
		die("%s %s: extra input: %s", cmd, ref, next);
}

static void queue(struct stdin_session *s, char *ref, const struct object_id *new_oid,
		  const struct object_id *old_oid)
{
	if (new_oid && !is_null_oid(new_oid) ? 0 : !refname_is_safe(ref))
		die("refusing to update ref with bad name '%s'", ref);
	ref_transaction_add(s->t, ref, new_oid, old_oid, s->flags, s->msg);
	s->flags = s->default_flags;
	free(ref);
}

static void cmd_update(struct stdin_session *s, const char *next, const char *end)
{
	struct object_id new_oid, old_oid;
	char *ref = parse_ref(s, &next);
	int has_old;
	if (!ref)
		die("update: missing <ref>");
	if (parse_value(s, &next, end, &new_oid, "update", ref, NEW_VALUE | EMPTY_IS_ZERO))
		die("update %s: missing <newvalue>", ref);
	has_old = !parse_value(s, &next, end, &old_oid, "update", ref, OLD_VALUE);
	expect_end(s, next, "update", ref);
	queue(s, ref, &new_oid, has_old ? &old_oid : NULL);
}

static void cmd_create(struct stdin_session *s, const char *next, const char *end)
{
	static const struct object_id zero;
	struct object_id new_oid;
	char *ref = parse_ref(s, &next);
	if (!ref)
		die("create: missing <ref>");
	if (parse_value(s, &next, end, &new_oid, "create", ref, NEW_VALUE))
		die("create %s: missing <newvalue>", ref);
	if (is_null_oid(&new_oid))
		die("create %s: zero <newvalue>", ref);
	expect_end(s, next, "create", ref);
	queue(s, ref, &new_oid, &zero);
}

static void cmd_delete(struct stdin_session *s, const char *next, const char *end)
{
	static const struct object_id zero;
	struct object_id old_oid;
	char *ref = parse_ref(s, &next);
	int has_old;
	if (!ref)
		die("delete: missing <ref>");
	has_old = !parse_value(s, &next, end, &old_oid, "delete", ref, OLD_VALUE);
	if (has_old && is_null_oid(&old_oid))
		die("delete %s: zero <oldvalue>", ref);
	expect_end(s, next, "delete", ref);
	queue(s, ref, &zero, has_old ? &old_oid : NULL);
}

static void cmd_verify(struct stdin_session *s, const char *next, const char *end)
{
	struct object_id old_oid;
	char *ref = parse_ref(s, &next);
	if (!ref)
		die("verify: missing <ref>");
	/* no value: the ref must not exist */
	if (parse_value(s, &next, end, &old_oid, "verify", ref, OLD_VALUE))
		oidclr(&old_oid);
	expect_end(s, next, "verify", ref);
	queue(s, ref, NULL, &old_oid);
}

static void cmd_option(struct stdin_session *s, const char *next, const char *end)
{
	const char *rest;
	(void)end;
	if (skip_prefix(next, "no-deref", &rest) && *rest == s->term)
		s->flags |= REF_NO_DEREF;
	else
		die("option unknown: %s", next);
}

static void report(const char *what)
{
	printf("%s: ok\n", what);
	fflush(stdout);   /* a caller may wait for it before going on */
}

static void cmd_start(struct stdin_session *s, const char *next, const char *end)
{
	(void)s; (void)next; (void)end;
	report("start");
}

static void cmd_prepare(struct stdin_session *s, const char *next, const char *end)
{
	(void)next; (void)end;
	if (ref_transaction_prepare(s->t, &s->err) < 0)
		die("prepare: %s", s->err.buf);
	report("prepare");
}

static void cmd_abort(struct stdin_session *s, const char *next, const char *end)
{
	(void)next; (void)end;
	ref_transaction_free(s->t);
	s->t = NULL;
	report("abort");
}

static void cmd_commit(struct stdin_session *s, const char *next, const char *end)
{
	(void)next; (void)end;
	if (ref_transaction_commit(s->t, &s->err) < 0)
		die("commit: %s", s->err.buf);
	ref_transaction_free(s->t);
	s->t = NULL;
	report("commit");
}

static const struct stdin_cmd {
	const char *name;
	unsigned fields;            /* 0: the name alone on its line */
	enum tx_state state;        /* where the command takes the transaction */
	void (*fn)(struct stdin_session *s, const char *next, const char *end);
} stdin_cmds[] = {
	{ "update", 3, TX_OPEN, cmd_update },
	{ "create", 2, TX_OPEN, cmd_create },
	{ "delete", 2, TX_OPEN, cmd_delete },
	{ "verify", 2, TX_OPEN, cmd_verify },
	{ "option", 1, TX_OPEN, cmd_option },
	{ "start", 0, TX_STARTED, cmd_start },
	{ "prepare", 0, TX_PREPARED, cmd_prepare },
	{ "abort", 0, TX_CLOSED, cmd_abort },
	{ "commit", 0, TX_CLOSED, cmd_commit },
};

static const struct stdin_cmd *find_cmd(const char *line, int term)
{
	for (size_t i = 0; i < ARRAY_SIZE(stdin_cmds); i++) {
		const char *rest;
		if (skip_prefix(line, stdin_cmds[i].name, &rest) &&
		    *rest == (stdin_cmds[i].fields ? ' ' : term))
			return &stdin_cmds[i];
	}
	return NULL;
}

static void move_state(struct stdin_session *s, enum tx_state *state, enum tx_state to)
{
	switch (*state) {
	case TX_OPEN:
	case TX_STARTED:
		if (*state == TX_STARTED && to == TX_STARTED)
			die("cannot restart ongoing transaction");
		if (to > *state)   /* a change inside a transaction keeps it one */
			*state = to;
		break;
	case TX_PREPARED:
		if (to != TX_CLOSED)
			die("prepared transactions can only be closed");
		*state = to;
		break;
	case TX_CLOSED:
		if (to != TX_STARTED)
			die("transaction is closed");
		*state = to;
		s->t = ref_transaction_begin();
		break;
	}
}

static int update_refs_stdin(int term, unsigned flags, const char *msg)
{
	struct stdin_session s = { ref_transaction_begin(), term, flags, flags, msg, STRBUF_INIT };
	struct strbuf line = STRBUF_INIT;
	enum tx_state state = TX_OPEN;

	while (strbuf_reset(&line), !strbuf_appendline(&line, stdin, term)) {
		const struct stdin_cmd *cmd;
		if (line.buf[0] == term)
			die("empty command in input");
		if (git_isspace((unsigned char)line.buf[0]))
			die("whitespace before command: %s", line.buf);
		if (!(cmd = find_cmd(line.buf, term)))
			die("unknown command: %s", line.buf);
		/* with -z the fields are read now; a short input is for the
		 * command to name */
		for (unsigned k = 1; !term && k < cmd->fields; k++)
			if (strbuf_appendline(&line, stdin, term) < 0)
				break;
		move_state(&s, &state, cmd->state);
		cmd->fn(&s, line.buf + strlen(cmd->name) + !!cmd->fields, line.buf + line.len);
	}
	if (state == TX_OPEN && ref_transaction_commit(s.t, &s.err) < 0)
		die("%s", s.err.buf);
	ref_transaction_free(s.t);
	strbuf_release(&line);
	strbuf_release(&s.err);
	return 0;
}

int cmd_update_ref(int argc, const char **argv)
{
	const char *msg = NULL, *refname, *value, *oldval = NULL;
	int del = 0, no_deref = 0, read_stdin = 0, end_null = 0, create_reflog = 0, zeroed;
	struct object_id oid, oldoid;
	struct strbuf err = STRBUF_INIT;
	unsigned flags;
	struct option opts[] = {
		OPT_STRING('m', NULL, &msg, "reason", "reason of the update"),
		OPT_BOOL('d', NULL, &del, "delete the reference"),
		OPT_BOOL(0, "no-deref", &no_deref, "update <refname> not the one it points to"),
		OPT_BOOL('z', NULL, &end_null, "stdin has NUL-terminated arguments"),
		OPT_BOOL(0, "stdin", &read_stdin, "read updates from stdin"),
		OPT_BOOL(0, "create-reflog", &create_reflog, "create a reflog"),
		OPT_END()
	};

	setup_for_command(argc, argv);
	argc = parse_options(argc, argv, opts, update_ref_usage, 0);
	if (msg && !*msg)
		die("Refusing to perform update with empty message.");
	flags = no_deref ? REF_NO_DEREF : 0;
	if (read_stdin) {
		if (del || argc > 0)
			usage_with_options(update_ref_usage, opts);
		return update_refs_stdin(end_null ? '\0' : '\n',
					 flags | (create_reflog ? REF_FORCE_CREATE_REFLOG : 0), msg);
	}
	if (end_null)
		usage_with_options(update_ref_usage, opts);
	if (del) {
		if (argc < 1 || argc > 2)
			usage_with_options(update_ref_usage, opts);
		refname = argv[0];
		oldval = argc > 1 ? argv[1] : NULL;
	} else {
		if (argc < 2 || argc > 3)
			usage_with_options(update_ref_usage, opts);
		refname = argv[0];
		value = argv[1];
		oldval = argc > 2 ? argv[2] : NULL;
		if (get_oid(value, &oid))
			die("%s: not a valid SHA1", value);
	}
	if (oldval) {
		if (!*oldval)
			oidclr(&oldoid);
		else if (get_oid(oldval, &oldoid))
			die("%s: not a valid old SHA1", oldval);
	}
	/* as in git, the zero id as the new value deletes the ref */
	zeroed = !del && is_null_oid(&oid);
	if (del || zeroed) {
		int r = 0;
		/* as git: -d takes a null old value for no check; an update
		 * to zero, as any update, for "must not exist" */
		int check_old = oldval && (zeroed || !is_null_oid(&oldoid));
		if (refs_delete_err(refname, check_old ? &oldoid : NULL,
				    flags, msg, &err) < 0) {
			/* an update to zero fails as any update; -d reports */
			if (zeroed)
				die("update_ref failed for ref '%s': %s", refname, err.buf);
			error("%s", err.buf);
			r = 1;
		}
		strbuf_release(&err);
		return r;
	}
	if (refs_update_err(refname, &oid, oldval ? &oldoid : NULL, msg,
			    flags | (create_reflog ? REF_FORCE_CREATE_REFLOG : 0), &err) < 0)
		die("update_ref failed for ref '%s': %s", refname, err.buf);
	strbuf_release(&err);
	return 0;
}
