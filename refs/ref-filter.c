/* ref-filter.c: the %(atom) format language, sorting and filtering shared
 * by branch and for-each-ref. Values are computed on demand: a format or
 * sort key that names only ref atoms never touches the object store. */
#include "refs/ref-filter.h"
#include "lib/quote.h"
#include "lib/wildmatch.h"
#include "lib/versioncmp.h"
#include "lib/sorted.h"
#include "lib/utf8-width.h"
#include "remote/remote.h"
#include "lib/color.h"
#include "refs/ref-object.h"
#include "lib/config.h"
#include "lib/trailer.h"
#include "lib/repo.h"
#include "lib/worktree.h"
#include "odb/oid-name.h"
#include "odb/object.h"
#include "odb/odb.h"
#include <ctype.h>
#include <limits.h>
#include <time.h>

enum atom_id {
	A_REFNAME, A_OBJECTNAME, A_OBJECTTYPE, A_OBJECTSIZE, A_UPSTREAM, A_PUSH,
	A_HEAD, A_SYMREF, A_SUBJECT, A_BODY, A_CONTENTS, A_COMMITTERDATE,
	A_COMMITTERNAME, A_COMMITTEREMAIL, A_COMMITTER, A_AUTHORDATE, A_AUTHORNAME,
	A_AUTHOREMAIL, A_AUTHOR, A_TAGGERDATE, A_TAGGERNAME, A_TAGGEREMAIL, A_TAGGER,
	A_CREATORDATE, A_TREE, A_PARENT, A_TYPE, A_OBJECT, A_TAG,
	A_WORKTREEPATH, A_FLAG, A_COLOR, A_ALIGN, A_IF, A_THEN, A_ELSE, A_END, A_REST,
	A_NUMPARENT, A_CREATOR, A_RAW, A_DELTABASE, A_TRAILERS,
};

static const struct { const char *name; enum atom_id id; int needs_obj; } atom_table[] = {
	{ "refname", A_REFNAME, 0 },
	{ "objectname", A_OBJECTNAME, 0 },
	{ "objecttype", A_OBJECTTYPE, 1 },
	{ "objectsize", A_OBJECTSIZE, 1 },
	{ "upstream", A_UPSTREAM, 0 },
	{ "push", A_PUSH, 0 },
	{ "HEAD", A_HEAD, 0 },
	{ "symref", A_SYMREF, 0 },
	{ "subject", A_SUBJECT, 1 },
	{ "body", A_BODY, 1 },
	{ "contents", A_CONTENTS, 1 },
	{ "committerdate", A_COMMITTERDATE, 1 },
	{ "committername", A_COMMITTERNAME, 1 },
	{ "committeremail", A_COMMITTEREMAIL, 1 },
	{ "committer", A_COMMITTER, 1 },
	{ "authordate", A_AUTHORDATE, 1 },
	{ "authorname", A_AUTHORNAME, 1 },
	{ "authoremail", A_AUTHOREMAIL, 1 },
	{ "author", A_AUTHOR, 1 },
	{ "taggerdate", A_TAGGERDATE, 1 },
	{ "taggername", A_TAGGERNAME, 1 },
	{ "taggeremail", A_TAGGEREMAIL, 1 },
	{ "tagger", A_TAGGER, 1 },
	{ "creatordate", A_CREATORDATE, 1 },
	{ "tree", A_TREE, 1 },
	{ "parent", A_PARENT, 1 },
	{ "type", A_TYPE, 1 },
	{ "object", A_OBJECT, 1 },
	{ "tag", A_TAG, 1 },
	{ "numparent", A_NUMPARENT, 1 },
	{ "creator", A_CREATOR, 1 },
	{ "raw", A_RAW, 1 },
	{ "deltabase", A_DELTABASE, 1 },
	{ "trailers", A_TRAILERS, 1 },
	{ "worktreepath", A_WORKTREEPATH, 0 },
	{ "flag", A_FLAG, 0 },
	{ "color", A_COLOR, 0 },
	{ "align", A_ALIGN, 0 },
	{ "if", A_IF, 0 },
	{ "then", A_THEN, 0 },
	{ "else", A_ELSE, 0 },
	{ "end", A_END, 0 },
	{ "rest", A_REST, 0 },
};

enum { T_LIT, T_ATOM };

struct atom {
	enum atom_id id;
	int deref;          /* "*name": the peeled object */
	int needs_obj;
	/* modifiers */
	int shorten;        /* :short */
	int abbrev;         /* :short=N */
	int lstrip, rstrip, has_lstrip, has_rstrip;
	int track, trackshort, nobracket, remotename, remoteref;
	int subject_only, body_only;
	char *mod;          /* an object atom's modifier, as written */
	char *text;         /* %(refname...) as written */
	char *arg;          /* colour escape (empty without colour), if:equals value */
	int reset_after;    /* %(color:...) other than reset */
	struct trailer_opts *trailers;  /* %(trailers), %(contents:trailers) */
	int if_cmp;         /* 0 plain, 1 equals, 2 notequals */
	unsigned align_width;
	int align_pos;      /* 0 left, 1 right, 2 middle */
};

struct token {
	int type;
	char *lit;
	size_t lit_len;
	struct atom atom;
};

struct ref_format {
	struct token *toks;
	size_t nr, alloc;
	int use_color;
	int needs_obj;
	int needs_deref;    /* a "*" atom: the object a tag points at too */
	int abbrevs;        /* %(objectname:short) */
	int quote;
	int reset_at_eol;   /* the last %(color:...) is not reset */
	int nesting_checked;
};

static void atom_release(struct atom *a)
{
	free(a->mod);
	free(a->arg);
	free(a->text);
	if (a->trailers) {
		trailer_opts_release(a->trailers);
		free(a->trailers);
	}
}

/* The options of %(trailers:...), or dies with git's message. */
static void parse_trailers(struct atom *a, const char *opts)
{
	struct strbuf err = STRBUF_INIT;

	a->trailers = xcalloc(1, sizeof(*a->trailers));
	if (trailer_opts_parse(a->trailers, opts, &err) < 0)
		die("%s", err.buf);
	strbuf_release(&err);
}

static NORETURN void bad_atom(const char *name, size_t len)
{
	die("unknown field name: %.*s", (int)len, name);
}

/* A width of %(align): decimal, no sign but '+', fitting an unsigned int. */
static int parse_width(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;
	if (strchr(s, '-'))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > UINT_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int align_position(const char *s)
{
	return !strcmp(s, "left") ? 0 : !strcmp(s, "right") ? 1 : !strcmp(s, "middle") ? 2 : -1;
}

static int parse_int_arg(const char *s, int *out)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v != (int)v)
		return -1;
	*out = (int)v;
	return 0;
}

/* The modifier of %(refname), %(symref), and of %(upstream) and %(push)
 * where an item is not one of theirs: git reads the whole modifier as one
 * option, so "short,lstrip=1" is refused. */
static void parse_name_mod(struct atom *a, const char *mod, const char *full)
{
	const char *v;
	a->shorten = a->has_lstrip = a->has_rstrip = 0;
	if (!strcmp(mod, "short"))
		a->shorten = 1;
	else if (skip_prefix(mod, "lstrip=", &v) || skip_prefix(mod, "strip=", &v)) {
		if (parse_int_arg(v, &a->lstrip))
			die("Integer value expected refname:lstrip=%s", v);
		a->has_lstrip = 1;
	} else if (skip_prefix(mod, "rstrip=", &v)) {
		if (parse_int_arg(v, &a->rstrip))
			die("Integer value expected refname:rstrip=%s", v);
		a->has_rstrip = 1;
	} else
		die("unrecognized %%(%s) argument: %s", full, mod);
}

/* An atom that takes no modifier, or one of ok1 and ok2 (kept in
 * a->mod); anything else dies with git's message. */
static void keep_mod(struct atom *a, const char *mod, const char *atom, const char *ok1,
		     const char *ok2)
{
	if (!mod)
		return;
	if (!ok1)
		die("%%(%s) does not take arguments", atom);
	if (strcmp(mod, ok1) && (!ok2 || strcmp(mod, ok2))) {
		if (!strcmp(atom, "email"))
			die("unrecognized email option: %s", mod);
		die("unrecognized %%(%s) argument: %s", atom, mod);
	}
	a->mod = xstrdup(mod);
}

static int is_date_atom(enum atom_id id)
{
	return id == A_COMMITTERDATE || id == A_AUTHORDATE || id == A_TAGGERDATE ||
	       id == A_CREATORDATE;
}

static int is_person_atom(enum atom_id id)
{
	return id == A_COMMITTERNAME || id == A_AUTHORNAME || id == A_TAGGERNAME ||
	       id == A_COMMITTER || id == A_AUTHOR || id == A_TAGGER;
}

static void parse_atom(struct atom *a, const char *s, size_t len, int use_color)
{
	const char *colon, *mod = NULL;
	size_t nlen;
	char *arg, *full;
	memset(a, 0, sizeof(*a));
	if (len && *s == '*') {
		a->deref = 1;
		s++;
		len--;
	}
	if (!len)
		die("malformed field name: %.*s", (int)a->deref, s - a->deref);
	colon = memchr(s, ':', len);
	/* the name with any "*", for messages */
	full = xstrndup(s - a->deref, len + a->deref);
	nlen = colon ? (size_t)(colon - s) : len;
	for (size_t i = 0; i < ARRAY_SIZE(atom_table); i++)
		if (strlen(atom_table[i].name) == nlen && !memcmp(atom_table[i].name, s, nlen)) {
			a->id = atom_table[i].id;
			a->needs_obj = atom_table[i].needs_obj || a->deref;
			goto found;
		}
	free(full);
	bad_atom(s - a->deref, len + a->deref);
found:
	arg = colon ? xstrndup(colon + 1, len - nlen - 1) : NULL;
	/* "%(atom:)" is "%(atom)", but for atoms git reads the modifier
	 * of from the name itself */
	if (arg && !*arg && !is_date_atom(a->id) && !is_person_atom(a->id)) {
		free(arg);
		arg = NULL;
	}
	mod = arg;
	switch (a->id) {
	case A_REFNAME:
	case A_SYMREF:
		if (mod)
			parse_name_mod(a, mod, full);
		break;
	case A_UPSTREAM:
	case A_PUSH: {
		const char *opt = mod;
		if (!mod)
			break;
		/* comma-separated; of track, trackshort, remotename, remoteref
		 * and a name option the last one given counts */
		while (opt) {
			const char *comma = strchr(opt, ',');
			size_t n = comma ? (size_t)(comma - opt) : strlen(opt);
			int *set = NULL;
			if (n == 9 && !memcmp(opt, "nobracket", n)) {
				a->nobracket = 1;
			} else {
				if (n == 5 && !memcmp(opt, "track", n))
					set = &a->track;
				else if (n == 10 && !memcmp(opt, "trackshort", n))
					set = &a->trackshort;
				else if (n == 10 && !memcmp(opt, "remotename", n))
					set = &a->remotename;
				else if (n == 9 && !memcmp(opt, "remoteref", n))
					set = &a->remoteref;
				a->track = a->trackshort = a->remotename = a->remoteref = 0;
				if (set)
					*set = 1;
				else
					parse_name_mod(a, mod, full);
			}
			opt = comma ? comma + 1 : NULL;
		}
		break;
	}
	case A_OBJECTNAME: case A_TREE: case A_PARENT:
		if (!mod)
			break;
		if (!strcmp(mod, "short"))
			a->shorten = 1;
		else if (skip_prefix(mod, "short=", &mod)) {
			if (parse_int_arg(mod, &a->abbrev) || a->abbrev <= 0)
				die("positive value expected '%s' in %%(%s)", mod, full);
			a->shorten = 1;
			if (a->abbrev < 4)
				a->abbrev = 4;
		} else
			die("unrecognized %%(%s) argument: %s", full, mod);
		break;
	case A_CONTENTS: {
		const char *v;
		if (mod && !strcmp(mod, "subject"))
			a->subject_only = 1;
		else if (mod && !strcmp(mod, "body"))
			a->body_only = 1;
		else if (mod && (!strcmp(mod, "signature") || !strcmp(mod, "size")))
			a->mod = xstrdup(mod);
		else if (mod && skip_prefix(mod, "trailers", &v) && (!*v || *v == ':'))
			parse_trailers(a, *v ? v + 1 : NULL);
		else if (mod && skip_prefix(mod, "lines=", &v)) {
			char *end;
			errno = 0;
			if (!*v || !isdigit((unsigned char)*v) || (strtoul(v, &end, 10), *end) || errno)
				die("positive value expected contents:lines=%s", v);
			a->mod = xstrdup(mod);
		} else if (mod)
			die("unrecognized %%(contents) argument: %s", mod);
		break;
	}
	case A_SUBJECT:
		keep_mod(a, mod, "subject", "sanitize", NULL);
		break;
	case A_BODY:
		keep_mod(a, mod, "body", NULL, NULL);
		break;
	case A_OBJECTTYPE:
		keep_mod(a, mod, "objecttype", NULL, NULL);
		break;
	case A_OBJECTSIZE:
		keep_mod(a, mod, "objectsize", "disk", NULL);
		break;
	case A_RAW:
		keep_mod(a, mod, "raw", "size", NULL);
		break;
	case A_COMMITTEREMAIL: case A_AUTHOREMAIL: case A_TAGGEREMAIL:
		keep_mod(a, mod, "email", "trim", "localpart");
		break;
	case A_REST:
		if (mod)
			die("%%(rest) does not take arguments");
		die("this command reject atom %%(%s)", full);
	case A_COMMITTERDATE: case A_AUTHORDATE: case A_TAGGERDATE: case A_CREATORDATE:
		/* checked when a date is formatted, as git does: with no ref
		 * to show, a format git does not know is no error */
		if (mod)
			a->mod = xstrdup(mod);
		break;
	case A_COMMITTERNAME: case A_AUTHORNAME: case A_TAGGERNAME: case A_COMMITTER:
	case A_AUTHOR: case A_TAGGER:
		/* git knows no modifier here and shows nothing */
		if (mod)
			a->mod = xstrdup(mod);
		break;
	case A_DELTABASE:
		keep_mod(a, mod, "deltabase", NULL, NULL);
		break;
	case A_TRAILERS:
		parse_trailers(a, mod);
		break;
	case A_COLOR: {
		struct strbuf esc = STRBUF_INIT;
		if (!mod || !*mod)
			die("expected format: %%(color:<color>)");
		if (color_parse(mod, &esc) < 0)
			die("unrecognized color: %%(color:%s)", mod);
		/* without colour the atom is there, and empty */
		a->reset_after = strcmp(mod, "reset") != 0;
		if (!use_color)
			strbuf_reset(&esc);
		a->arg = strbuf_detach(&esc, NULL);
		break;
	}
	case A_ALIGN: {
		const char *opt = arg;
		if (!mod)
			die("expected format: %%(align:<width>,<position>)");
		a->align_width = UINT_MAX;
		/* comma-separated; an empty item is an unknown one */
		for (;;) {
			char *comma = strchr(opt, ',');
			const char *v;
			int pos;
			if (comma)
				*comma = 0;
			if (skip_prefix(opt, "position=", &v)) {
				if ((pos = align_position(v)) < 0)
					die("unrecognized position:%s", v);
				a->align_pos = pos;
			} else if (skip_prefix(opt, "width=", &v)) {
				if (parse_width(v, &a->align_width) < 0)
					die("unrecognized width:%s", v);
			} else if ((pos = align_position(opt)) >= 0) {
				a->align_pos = pos;
			} else if (parse_width(opt, &a->align_width) < 0) {
				die("unrecognized %%(align) argument: %s", opt);
			}
			if (!comma)
				break;
			opt = comma + 1;
		}
		/* as in git, the largest width stands for none given */
		if (a->align_width == UINT_MAX)
			die("positive width expected with the %%(align) atom");
		break;
	}
	case A_IF:
		if (mod && skip_prefix(mod, "equals=", &mod)) {
			a->if_cmp = 1;
			a->arg = xstrdup(mod);
		} else if (mod && skip_prefix(mod, "notequals=", &mod)) {
			a->if_cmp = 2;
			a->arg = xstrdup(mod);
		} else if (mod)
			die("unrecognized %%(if) argument: %s", mod);
		break;
	default:
		break;
	}
	free(arg);
	if (a->id == A_REFNAME)
		a->text = full;
	else
		free(full);
}

static void add_lit(struct ref_format *f, const char *s, size_t n)
{
	struct token *t;
	struct strbuf sb = STRBUF_INIT;
	/* %xx escapes and %% */
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%' && i + 1 < n && s[i + 1] == '%') {
			strbuf_addch(&sb, '%');
			i++;
		} else if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
			strbuf_addch(&sb, hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
			i += 2;
		} else
			strbuf_addch(&sb, s[i]);
	}
	if (!sb.len)
		return;
	ALLOC_GROW(f->toks, f->nr + 1, f->alloc);
	t = &f->toks[f->nr++];
	memset(t, 0, sizeof(*t));
	t->type = T_LIT;
	t->lit_len = sb.len;
	t->lit = strbuf_detach(&sb, NULL);
}

static void check_nesting(struct ref_format *f)
{
	/* each %(if) needs a %(then), optional %(else), and %(end) */
	int stack[64], state[64], depth = 0;
	for (size_t i = 0; i < f->nr; i++) {
		struct token *t = &f->toks[i];
		if (t->type != T_ATOM)
			continue;
		switch (t->atom.id) {
		case A_IF:
		case A_ALIGN:
			if (depth >= 64)
				die("format: too deeply nested");
			stack[depth] = t->atom.id;
			state[depth++] = 0;
			break;
		case A_THEN:
			if (!depth || stack[depth - 1] != A_IF)
				die("format: %%(then) atom used without a %%(if) atom");
			if (state[depth - 1] == 1)
				die("format: %%(then) atom used more than once");
			if (state[depth - 1] == 2)
				die("format: %%(then) atom used after %%(else)");
			state[depth - 1] = 1;
			break;
		case A_ELSE:
			if (!depth || stack[depth - 1] != A_IF)
				die("format: %%(else) atom used without a %%(if) atom");
			if (state[depth - 1] == 0)
				die("format: %%(else) atom used without a %%(then) atom");
			if (state[depth - 1] == 2)
				die("format: %%(else) atom used more than once");
			state[depth - 1] = 2;
			break;
		case A_END:
			if (!depth)
				die("format: %%(end) atom used without corresponding atom");
			if (stack[depth - 1] == A_IF && state[depth - 1] == 0)
				die("format: %%(if) atom used without a %%(then) atom");
			depth--;
			break;
		default:
			break;
		}
	}
	if (depth)
		die("format: %%(end) atom missing");
}

struct ref_format *ref_format_parse(const char *fmt, int use_color, int quote)
{
	struct ref_format *f = xcalloc(1, sizeof(*f));
	const char *p = fmt;
	f->use_color = use_color;
	f->quote = quote;
	while (*p) {
		const char *open = strstr(p, "%(");
		const char *close;
		struct token *t;
		if (!open) {
			add_lit(f, p, strlen(p));
			break;
		}
		/* "%%(" is a literal "%(" */
		if (open > p && open[-1] == '%') {
			size_t run = 0;
			for (const char *q = open - 1; q >= p && *q == '%'; q--)
				run++;
			if (run & 1) {
				add_lit(f, p, open - p);
				add_lit(f, "(", 1);
				p = open + 2;
				continue;
			}
		}
		add_lit(f, p, open - p);
		close = strchr(open, ')');
		if (!close) {
			error("malformed format string %s", open);
			ref_format_free(f);
			return NULL;
		}
		ALLOC_GROW(f->toks, f->nr + 1, f->alloc);
		t = &f->toks[f->nr++];
		memset(t, 0, sizeof(*t));
		t->type = T_ATOM;
		parse_atom(&t->atom, open + 2, close - open - 2, use_color);
		/* git cannot quote raw bytes for these, and says so at the atom */
		if (t->atom.id == A_RAW && !t->atom.mod && (quote & (QUOTE_SHELL | QUOTE_PYTHON | QUOTE_TCL)))
			die("--format=%sraw cannot be used with --python, --shell, --tcl",
			    t->atom.deref ? "*" : "");
		if (t->atom.needs_obj)
			f->needs_obj = 1;
		if (t->atom.deref)
			f->needs_deref = 1;
		if (t->atom.id == A_OBJECTNAME && t->atom.shorten && !t->atom.deref)
			f->abbrevs = 1;
		if (t->atom.id == A_COLOR)
			f->reset_at_eol = use_color && t->atom.reset_after;
		p = close + 1;
	}
	return f;
}

void ref_format_free(struct ref_format *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++) {
		free(f->toks[i].lit);
		if (f->toks[i].type == T_ATOM)
			atom_release(&f->toks[i].atom);
	}
	free(f->toks);
	free(f);
}

int ref_format_needs_object(const struct ref_format *f)
{
	return f->needs_obj;
}

/* --- values --- */

static const char *head_ref;
static int head_loaded;

const char *ref_filter_head(void)
{
	if (!head_loaded) {
		struct object_id oid;
		unsigned flags;
		const char *r = refs_resolve("HEAD", &oid, &flags);
		head_loaded = 1;
		if (r && (flags & REF_ISSYMREF))
			head_ref = xstrdup(r);
	}
	return head_ref;
}

static void strip_refname(struct strbuf *out, const char *name, int lstrip, int rstrip,
			  int has_l, int has_r)
{
	const char *s = name;
	size_t len;
	int comps = 1;
	for (const char *p = name; *p; p++)
		if (*p == '/')
			comps++;
	if (has_l) {
		int n = lstrip < 0 ? comps + lstrip : lstrip;
		if (n < 0)
			n = 0;
		while (n-- > 0) {
			const char *sl = strchr(s, '/');
			if (!sl) {
				s = s + strlen(s);
				break;
			}
			s = sl + 1;
		}
	}
	len = strlen(s);
	if (has_r) {
		int left = 1;
		for (size_t i = 0; i < len; i++)
			if (s[i] == '/')
				left++;
		int n = rstrip < 0 ? left + rstrip : rstrip;
		if (n < 0)
			n = 0;
		while (n-- > 0) {
			const char *sl = memrchr(s, '/', len);
			if (!sl) {
				len = 0;
				break;
			}
			len = sl - s;
		}
	}
	strbuf_add(out, s, len);
}

static void format_name(struct strbuf *out, const char *name, const struct atom *a)
{
	if (a->shorten)
		strbuf_addstr(out, refs_shorten(name, config_get_bool("core.warnambiguousrefs", 1)));
	else if (a->has_lstrip || a->has_rstrip)
		strip_refname(out, name, a->lstrip, a->rstrip, a->has_lstrip, a->has_rstrip);
	else
		strbuf_addstr(out, name);
}

/* Upstream of a local branch, from branch.<name>.remote/merge and the
 * remote's fetch refspecs. */
static int map_refspec(const char *spec, const char *src, struct strbuf *dst)
{
	const char *colon, *lstar, *rstar;
	if (*spec == '+')
		spec++;
	colon = strchr(spec, ':');
	if (!colon || *spec == '^')
		return 0;
	lstar = memchr(spec, '*', colon - spec);
	rstar = strchr(colon + 1, '*');
	if (!lstar) {
		if ((size_t)(colon - spec) != strlen(src) || strncmp(spec, src, colon - spec))
			return 0;
		strbuf_addstr(dst, colon + 1);
		return 1;
	}
	if (!rstar)
		return 0;
	{
		size_t pre = lstar - spec, post = colon - lstar - 1, slen = strlen(src);
		if (slen < pre + post || strncmp(src, spec, pre) ||
		    strncmp(src + slen - post, lstar + 1, post))
			return 0;
		strbuf_add(dst, colon + 1, rstar - colon - 1);
		strbuf_add(dst, src + pre, slen - pre - post);
		strbuf_addstr(dst, rstar + 1);
	}
	return 1;
}

/* The remote-tracking ref the fetch refspecs of remote map ref to. */
static int tracking_ref(const char *remote, const char *ref, struct strbuf *out)
{
	struct strbuf key = STRBUF_INIT;
	const char **fetch;
	size_t n;
	int found = 0;

	strbuf_addf(&key, "remote.%s.fetch", remote);
	n = config_get_all(key.buf, &fetch);
	for (size_t i = 0; i < n && !found; i++)
		if (fetch[i])
			found = map_refspec(fetch[i], ref, out);
	free(fetch);
	strbuf_release(&key);
	return found;
}

/*
 * The branch whose config a branch's short name reads: its own, but
 * for a branch named HEAD, as in git, the one HEAD is on (NULL when
 * HEAD is detached or not on a branch).
 */
static const char *config_branch(const char *b)
{
	const char *h;
	if (strcmp(b, "HEAD"))
		return b;
	h = ref_filter_head();
	return h && skip_prefix(h, "refs/heads/", &h) ? h : NULL;
}

const char *branch_upstream(const char *branch, const char **remote, const char **merge)
{
	static struct strbuf out = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT;
	const char *r = NULL, *m = NULL, **fetch, **merges;
	size_t n;
	int found = 0;
	if (!(branch = config_branch(branch))) {
		if (remote)
			*remote = NULL;
		if (merge)
			*merge = NULL;
		return NULL;
	}
	remote_config_check();
	strbuf_addf(&key, "branch.%s.remote", branch);
	config_get(key.buf, &r);
	strbuf_reset(&key);
	/* git's upstream is the first branch.<name>.merge */
	strbuf_addf(&key, "branch.%s.merge", branch);
	if (config_get_all(key.buf, &merges))
		m = merges[0];
	free(merges);
	if (remote)
		*remote = r;
	if (merge)
		*merge = m;
	strbuf_reset(&out);
	if (!r || !m) {
		strbuf_release(&key);
		return NULL;
	}
	remote_looked_up(r);    /* git reads the remote of a branch with a merge */
	if (!strcmp(r, ".")) {
		strbuf_release(&key);
		strbuf_addstr(&out, m);
		return out.buf;
	}
	strbuf_reset(&key);
	strbuf_addf(&key, "remote.%s.fetch", r);
	n = config_get_all(key.buf, &fetch);
	for (size_t i = 0; i < n && !found; i++)
		if (fetch[i])
			found = map_refspec(fetch[i], m, &out);
	free(fetch);
	strbuf_release(&key);
	return found ? out.buf : NULL;
}

struct ref_item_remote {
	char *upstream;         /* full name of the upstream's tracking ref, or NULL */
	int upstream_state;
	int ahead, behind, track_state; /* track_state: 0 unknown, 1 counted, 2 gone */
	int push_state, push_explicit;  /* where a push goes, worked out once */
	char *push, *push_remote, *push_dst;
};

static struct ref_item_remote *remote_of(struct ref_item *it)
{
	if (!it->remote)
		it->remote = xcalloc(1, sizeof(*it->remote));
	return it->remote;
}

static void load_upstream(struct ref_item *it)
{
	struct ref_item_remote *r = remote_of(it);
	const char *b, *u;
	if (r->upstream_state)
		return;
	r->upstream_state = 1;
	if (!skip_prefix(it->refname, "refs/heads/", &b))
		return;
	u = branch_upstream(b, NULL, NULL);
	if (u)
		r->upstream = xstrdup(u);
}

/*
 * Where a branch's ahead and behind counts start: at the branch, but
 * for one named HEAD at the branch whose config it reads, as in git;
 * -1 when that has no commit.
 */
static int track_base(const struct ref_item *it, struct object_id *oid)
{
	struct strbuf ref = STRBUF_INIT;
	const char *b;
	int r;
	if (strcmp(it->refname, "refs/heads/HEAD")) {
		oidcpy(oid, &it->oid);
		return 0;
	}
	if (!(b = config_branch("HEAD")))
		return -1;
	strbuf_addf(&ref, "refs/heads/%s", b);
	r = refs_read(ref.buf, oid) ? -1 : 0;
	strbuf_release(&ref);
	return r;
}

static void load_track(struct ref_item *it)
{
	struct ref_item_remote *r = remote_of(it);
	struct object_id up, base;
	size_t ahead = 0, behind = 0;
	if (r->track_state)
		return;
	load_upstream(it);
	if (!r->upstream || refs_read(r->upstream, &up) || track_base(it, &base)) {
		r->track_state = 2;
		return;
	}
	r->track_state = 1;
	if (ref_object_ahead_behind(&base, &up, &ahead, &behind) < 0)
		ahead = behind = 0;
	r->ahead = ahead;
	r->behind = behind;
}

/* :track and :trackshort of %(upstream) and %(push). */
static void format_track(struct strbuf *out, const struct atom *a, int gone, int ahead, int behind)
{
	if (a->trackshort) {
		if (gone)
			return;
		if (!ahead && !behind)
			strbuf_addch(out, '=');
		else if (!behind)
			strbuf_addch(out, '>');
		else if (!ahead)
			strbuf_addch(out, '<');
		else
			strbuf_addstr(out, "<>");
		return;
	}
	if (gone)
		strbuf_addstr(out, a->nobracket ? "gone" : "[gone]");
	else if (ahead || behind) {
		if (!a->nobracket)
			strbuf_addch(out, '[');
		if (ahead && behind)
			strbuf_addf(out, "ahead %d, behind %d", ahead, behind);
		else if (ahead)
			strbuf_addf(out, "ahead %d", ahead);
		else
			strbuf_addf(out, "behind %d", behind);
		if (!a->nobracket)
			strbuf_addch(out, ']');
	}
}

static void format_upstream(struct strbuf *out, struct ref_item *it, const struct atom *a)
{
	struct ref_item_remote *rem = remote_of(it);
	const char *b;
	load_upstream(it);
	if (!rem->upstream)
		return;
	if (a->remotename || a->remoteref) {
		const char *r, *m;
		if (!skip_prefix(it->refname, "refs/heads/", &b))
			return;
		branch_upstream(b, &r, &m);
		strbuf_addstr(out, a->remotename ? r : m);
		return;
	}
	if (a->track || a->trackshort) {
		load_track(it);
		format_track(out, a, rem->track_state == 2, rem->ahead, rem->behind);
		return;
	}
	format_name(out, rem->upstream, a);
}

/* The remote-tracking ref of a push destination, or NULL and why. */
static const char *push_tracking(const char *remote, const char *dst, struct strbuf *out,
				 struct strbuf *why)
{
	if (tracking_ref(remote, dst, out))
		return out->buf;
	strbuf_addf(why, "push destination '%s' on remote '%s' has no local tracking branch",
		    dst, remote);
	return NULL;
}

const char *upstream_or_why(const char *b, struct strbuf *why)
{
	const char *merge, *up = branch_upstream(b, NULL, &merge);
	struct strbuf ref = STRBUF_INIT;
	struct object_id oid;
	strbuf_addf(&ref, "refs/heads/%s", b);
	if (!merge && refs_read(ref.buf, &oid))
		strbuf_addf(why, "no such branch: '%s'", b);
	else if (!merge)
		strbuf_addf(why, "no upstream configured for branch '%s'", b);
	else if (!up)
		strbuf_addf(why, "upstream branch '%s' not stored as a remote-tracking branch", merge);
	strbuf_release(&ref);
	return up;
}

/*
 * The remote-tracking ref a push of branch b (short name) would
 * update, or NULL with git's reason in why (if not NULL). The push
 * remote is branch.<b>.pushRemote, else remote.pushDefault, else
 * branch.<b>.remote (*explicit set for these three), else the only
 * remote or origin (remote_default_name()); its
 * push refspecs decide the destination, else its mirror setting, else
 * push.default. *dst: the destination when a push
 * refspec named it (%(push:remoteref)).
 */
static const char *branch_push(const char *b, const char **remote, int *explicit,
			       struct strbuf *dst, struct strbuf *why)
{
	static struct strbuf out = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT, ref = STRBUF_INIT, scratch = STRBUF_INIT;
	const char *r = NULL, *mode = NULL, **specs, *ret = NULL;
	size_t n;
	int found = 0;

	if (!why)
		why = &scratch;
	remote_config_check();
	if (!(b = config_branch(b))) {
		*explicit = config_get("remote.pushdefault", &r) && r;
		*remote = *explicit ? r : remote_default_name();
		strbuf_addstr(why, "HEAD does not point to a branch");
		strbuf_release(&scratch);
		return NULL;
	}
	strbuf_addf(&key, "branch.%s.pushremote", b);
	if (!config_get(key.buf, &r) || !r) {
		r = NULL;
		if (!config_get("remote.pushdefault", &r) || !r) {
			strbuf_reset(&key);
			strbuf_addf(&key, "branch.%s.remote", b);
			if (!config_get(key.buf, &r))
				r = NULL;
		}
	}
	*explicit = r != NULL;
	*remote = r ? r : remote_default_name();
	strbuf_addf(&ref, "refs/heads/%s", b);
	strbuf_reset(&out);
	strbuf_reset(&key);
	strbuf_addf(&key, "remote.%s.push", *remote);
	n = config_get_all(key.buf, &specs);
	for (size_t i = 0; i < n && !found; i++) {
		/* a refspec without a destination names none here, as in git */
		if (specs[i])
			found = map_refspec(specs[i], ref.buf, dst);
	}
	free(specs);
	if (n) {
		if (!found)
			strbuf_addf(why, "push refspecs for '%s' do not include '%s'", *remote, b);
		else
			ret = push_tracking(*remote, dst->buf, &out, why);
		goto done;
	}
	strbuf_reset(&key);
	strbuf_addf(&key, "remote.%s.mirror", *remote);
	if (config_get_bool(key.buf, 0)) {
		ret = push_tracking(*remote, ref.buf, &out, why);
		goto done;
	}
	if (!config_get("push.default", &mode) || !mode)
		mode = "simple";
	if (!strcmp(mode, "nothing")) {
		strbuf_addstr(why, "push has no destination (push.default is 'nothing')");
	} else if (!strcmp(mode, "matching") || !strcmp(mode, "current")) {
		ret = push_tracking(*remote, ref.buf, &out, why);
	} else if (!strcmp(mode, "upstream") || !strcmp(mode, "tracking")) {
		const char *up = upstream_or_why(b, why);
		if (up) {
			strbuf_addstr(&out, up);
			ret = out.buf;
		}
	} else {
		/* simple: only where the upstream has the branch's own name */
		const char *up = upstream_or_why(b, why);
		char *upc = up ? xstrdup(up) : NULL;
		if (upc && push_tracking(*remote, ref.buf, &out, why)) {
			if (!strcmp(out.buf, upc))
				ret = out.buf;
			else
				strbuf_addstr(why, "cannot resolve 'simple' push to a single destination");
		}
		free(upc);
	}
done:
	strbuf_release(&key);
	strbuf_release(&ref);
	strbuf_release(&scratch);
	return ret;
}

const char *branch_push_tracking(const char *b, struct strbuf *why)
{
	struct strbuf dst = STRBUF_INIT;
	const char *remote;
	int explicit;
	const char *r = branch_push(b, &remote, &explicit, &dst, why);
	strbuf_release(&dst);
	remote_looked_up(remote);
	return r;
}

/*
 * A branch's push values, worked out once, when the sort first looks at
 * the branch (git's order): which remotes git knows of by then decides
 * the default one. note: the format asks for more than
 * %(push:remotename), so git looks the push remote up (and knows it).
 */
static void load_push(struct ref_item *it, int note)
{
	struct ref_item_remote *r = remote_of(it);
	struct strbuf dst = STRBUF_INIT;
	const char *b, *remote, *push;
	if (r->push_state)
		return;
	r->push_state = 1;
	if (!skip_prefix(it->refname, "refs/heads/", &b))
		return;
	push = branch_push(b, &remote, &r->push_explicit, &dst, NULL);
	r->push = push ? xstrdup(push) : NULL;
	r->push_remote = xstrdup(remote);
	r->push_dst = strbuf_detach(&dst, NULL);
	if (note)
		remote_looked_up(remote);
}

static void format_push(struct strbuf *out, struct ref_item *it, const struct atom *a)
{
	struct ref_item_remote *r = remote_of(it);
	const char *push;

	load_push(it, 1);
	if (!r->push_remote)
		return;
	push = r->push;
	if (a->remotename) {
		if (r->push_explicit)
			strbuf_addstr(out, r->push_remote);
	} else if (a->remoteref) {
		strbuf_addstr(out, r->push_dst);
	} else if (push && (a->track || a->trackshort)) {
		struct object_id oid, base;
		size_t ahead = 0, behind = 0;
		int gone = refs_read(push, &oid) || track_base(it, &base);
		if (!gone && ref_object_ahead_behind(&base, &oid, &ahead, &behind) < 0)
			ahead = behind = 0;
		format_track(out, a, gone, (int)ahead, (int)behind);
	} else if (push) {
		format_name(out, push, a);
	}
}

/* git's values are C strings, %(raw)'s apart: a NUL in a message (or
 * a trailer separator of %x00) ends the value there. */
static void end_at_nul(struct strbuf *out, size_t start)
{
	strbuf_setlen(out, start + strnlen(out->buf + start, out->len - start));
}

static void append_value(struct strbuf *out, struct ref_item *it, const struct atom *a)
{
	size_t start = out->len;

	switch (a->id) {
	case A_REFNAME:
		if (it->kind & FILTER_REFS_DETACHED_HEAD)
			strbuf_addstr(out, it->refname);
		else
			format_name(out, it->refname, a);
		if (a->deref)
			strbuf_addstr(out, "^{}");  /* git's "*" on a name, tag or not */
		return;
	case A_OBJECTNAME:
		if (a->deref) {
			ref_object_value(out, it, "objectname", a->shorten ? (a->abbrev ? a->abbrev : -1) : 0, 1, NULL);
			return;
		}
		if (a->shorten)
			ref_object_abbrev(out, &it->oid, a->abbrev);
		else
			strbuf_addstr(out, oid_to_hex(&it->oid));
		return;
	case A_UPSTREAM:
		format_upstream(out, it, a);
		return;
	case A_PUSH:
		format_push(out, it, a);
		return;
	case A_HEAD:
		if (it->kind & FILTER_REFS_DETACHED_HEAD)
			strbuf_addch(out, '*');
		else {
			const char *h = ref_filter_head();
			strbuf_addch(out, h && !strcmp(h, it->refname) ? '*' : ' ');
		}
		return;
	case A_SYMREF:
		if (it->symref)
			format_name(out, it->symref, a);
		if (a->deref)
			strbuf_addstr(out, "^{}");
		return;
	case A_FLAG:
		/* git's flags of how the ref was read, comma-separated */
		if (it->flags & REF_ISSYMREF)
			strbuf_addstr(out, "symref");
		if (it->flags & REF_ISPACKED)
			strbuf_addstr(out, it->flags & REF_ISSYMREF ? ",packed" : "packed");
		return;
	case A_WORKTREEPATH: {
		/* the last work tree on the branch wins, as in git's map */
		struct worktree **wt = refs_worktrees();
		size_t n = 0;
		while (wt[n])
			n++;
		while (n-- > 0)
			if (wt[n]->head_ref && !strcmp(wt[n]->head_ref, it->refname)) {
				strbuf_addstr(out, worktree_path(wt[n]));
				break;
			}
		return;
	}
	case A_COLOR:
		strbuf_addstr(out, a->arg);
		return;
	case A_TRAILERS:
		ref_object_trailers(out, it, a->deref, a->trailers);
		end_at_nul(out, start);
		return;
	case A_TREE: case A_PARENT:
		ref_object_value(out, it, a->id == A_TREE ? "tree" : "parent",
				 a->shorten ? (a->abbrev ? a->abbrev : -1) : 0, a->deref, NULL);
		return;
	default: {
		const char *name = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(atom_table); i++)
			if (atom_table[i].id == a->id)
				name = atom_table[i].name;
		if (a->id == A_CONTENTS && a->trailers) {
			ref_object_trailers(out, it, a->deref, a->trailers);
			end_at_nul(out, start);
			return;
		}
		if (a->id == A_CONTENTS && a->subject_only)
			name = "subject";
		else if (a->id == A_CONTENTS && a->body_only)
			name = "contents:body";
		ref_object_value(out, it, name, 0, a->deref, a->mod);
		if (a->id != A_RAW)
			end_at_nul(out, start);
		return;
	}
	}
}

static int is_blank(const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if (!git_isspace((unsigned char)sb->buf[i]))
			return 0;
	return 1;
}

/* Quote one atom's value for --shell and friends. */
static void quote_value(struct strbuf *out, const char *v, size_t n, int style)
{
	switch (style) {
	case QUOTE_SHELL:
		sq_quote_buf(out, v, n);
		break;
	case QUOTE_PERL:
		strbuf_addch(out, '\'');
		for (size_t i = 0; i < n; i++) {
			if (v[i] == '\'' || v[i] == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, v[i]);
		}
		strbuf_addch(out, '\'');
		break;
	case QUOTE_PYTHON:
		strbuf_addch(out, '\'');
		for (size_t i = 0; i < n; i++) {
			if (v[i] == '\n') {
				strbuf_addstr(out, "\\n");
				continue;
			}
			if (v[i] == '\'' || v[i] == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, v[i]);
		}
		strbuf_addch(out, '\'');
		break;
	case QUOTE_TCL:
		strbuf_addch(out, '"');
		for (size_t i = 0; i < n; i++) {
			switch (v[i]) {
			case '[': case ']': case '{': case '}': case '$': case '\\': case '"':
				strbuf_addch(out, '\\');
				strbuf_addch(out, v[i]);
				break;
			case '\f': strbuf_addstr(out, "\\f"); break;
			case '\r': strbuf_addstr(out, "\\r"); break;
			case '\n': strbuf_addstr(out, "\\n"); break;
			case '\t': strbuf_addstr(out, "\\t"); break;
			case '\v': strbuf_addstr(out, "\\v"); break;
			default: strbuf_addch(out, v[i]);
			}
		}
		strbuf_addch(out, '"');
		break;
	default:
		strbuf_add(out, v, n);
	}
}

/* Index of the token closing the block opened at i (its %(end)); for an
 * %(if), *then_at and *else_at are set too. */
static size_t block_end(struct ref_format *f, size_t i, size_t *then_at, size_t *else_at)
{
	int depth = 0;
	*then_at = *else_at = 0;
	for (size_t j = i + 1; j < f->nr; j++) {
		struct token *t = &f->toks[j];
		if (t->type != T_ATOM)
			continue;
		if (t->atom.id == A_IF || t->atom.id == A_ALIGN)
			depth++;
		else if (t->atom.id == A_END) {
			if (!depth)
				return j;
			depth--;
		} else if (!depth && t->atom.id == A_THEN)
			*then_at = j;
		else if (!depth && t->atom.id == A_ELSE)
			*else_at = j;
	}
	return f->nr;
}

/* An %(if) or %(align) block's whole output: quoted as one value, as git
 * quotes it when the block is not inside another. The block is released. */
static void add_block(struct strbuf *out, struct strbuf *block, int quote)
{
	if (quote)
		quote_value(out, block->buf, block->len, quote);
	else
		strbuf_addbuf(out, block);
	strbuf_release(block);
}

static void eval(struct strbuf *out, struct ref_item *it, struct ref_format *f,
		 size_t from, size_t to, int quote)
{
	for (size_t i = from; i < to; i++) {
		struct token *t = &f->toks[i];
		size_t then_at, else_at, end;
		if (t->type == T_LIT) {
			strbuf_add(out, t->lit, t->lit_len);
			continue;
		}
		if (t->atom.id == A_IF) {
			struct strbuf cond = STRBUF_INIT, block = STRBUF_INIT;
			int yes;
			end = block_end(f, i, &then_at, &else_at);
			eval(&cond, it, f, i + 1, then_at, 0);
			if (t->atom.if_cmp == 1)
				yes = !strcmp(cond.buf, t->atom.arg);
			else if (t->atom.if_cmp == 2)
				yes = strcmp(cond.buf, t->atom.arg) != 0;
			else
				yes = !is_blank(&cond);
			strbuf_release(&cond);
			if (yes)
				eval(&block, it, f, then_at + 1, else_at ? else_at : end, 0);
			else if (else_at)
				eval(&block, it, f, else_at + 1, end, 0);
			add_block(out, &block, quote);
			i = end;
			continue;
		}
		if (t->atom.id == A_ALIGN) {
			struct strbuf inner = STRBUF_INIT, block = STRBUF_INIT;
			size_t w;
			end = block_end(f, i, &then_at, &else_at);
			eval(&inner, it, f, i + 1, end, 0);
			/* git aligns the block as a C string: a NUL (%00)
			 * ends it, and what follows is dropped. */
			strbuf_setlen(&inner, strlen(inner.buf));
			w = utf8_width(inner.buf, inner.len, 0);
			if (w < (size_t)t->atom.align_width) {
				size_t pad = t->atom.align_width - w;
				if (t->atom.align_pos == 0) {
					strbuf_addbuf(&block, &inner);
					strbuf_addchars(&block, ' ', pad);
				} else if (t->atom.align_pos == 1) {
					strbuf_addchars(&block, ' ', pad);
					strbuf_addbuf(&block, &inner);
				} else {
					strbuf_addchars(&block, ' ', pad / 2);
					strbuf_addbuf(&block, &inner);
					strbuf_addchars(&block, ' ', pad - pad / 2);
				}
			} else
				strbuf_addbuf(&block, &inner);
			add_block(out, &block, quote);
			strbuf_release(&inner);
			i = end;
			continue;
		}
		if (quote) {
			struct strbuf v = STRBUF_INIT;
			append_value(&v, it, &t->atom);
			quote_value(out, v.buf, v.len, quote);
			strbuf_release(&v);
		} else
			append_value(out, it, &t->atom);
	}
}

int ref_format_item(struct strbuf *out, struct ref_item *it, struct ref_format *f)
{
	/* as in git, %(if), %(then), %(else), %(align) and %(end) are
	 * matched up as the first ref is written: with no ref to write, a
	 * format that leaves them unmatched is no error */
	if (!f->nesting_checked) {
		check_nesting(f);
		f->nesting_checked = 1;
	}
	eval(out, it, f, 0, f->nr, f->quote);
	/* a colour left on is ended with the line, quoted like a value */
	if (f->reset_at_eol) {
		if (f->quote)
			quote_value(out, COLOR_RESET, strlen(COLOR_RESET), f->quote);
		else
			strbuf_addstr(out, COLOR_RESET);
	}
	return 0;
}

/* --- sorting --- */

struct ref_sorting {
	struct ref_sorting *next;
	struct atom atom;
	int reverse;
	int detached_first;
	int numeric;
	int version;        /* version:<key> or v:<key> */
	int icase;
};

void ref_sorting_add(struct ref_sorting **s, const char *key)
{
	struct ref_sorting *n = xcalloc(1, sizeof(*n));
	if (*key == '-') {
		n->reverse = 1;
		key++;
	}
	if (skip_prefix(key, "version:", &key) || skip_prefix(key, "v:", &key))
		n->version = 1;
	parse_atom(&n->atom, key, strlen(key), 0);
	switch (n->atom.id) {
	case A_COMMITTERDATE: case A_AUTHORDATE: case A_TAGGERDATE: case A_CREATORDATE:
	case A_OBJECTSIZE: case A_NUMPARENT:
		/* version order compares the values as shown, as git does */
		n->numeric = !n->version;
		break;
	default:
		break;
	}
	n->next = *s;
	*s = n;
}

void ref_sorting_free(struct ref_sorting *s)
{
	while (s) {
		struct ref_sorting *next = s->next;
		atom_release(&s->atom);
		free(s);
		s = next;
	}
}

/*
 * How many different %(refname...) atoms, as written, the format and the
 * sort keys hold together: git works out a detached HEAD's description
 * once for each.
 */
size_t ref_refname_atoms(const struct ref_format *f, const struct ref_sorting *sorting)
{
	const struct atom **seen = NULL;
	size_t n = 0, alloc = 0, i;
	const struct ref_sorting *s = sorting;

	for (i = 0;; i++) {
		const struct atom *a;
		size_t j;
		if (i < f->nr) {
			if (f->toks[i].type != T_ATOM)
				continue;
			a = &f->toks[i].atom;
		} else if (s) {
			a = &s->atom;
			s = s->next;
		} else
			break;
		if (a->id != A_REFNAME)
			continue;
		for (j = 0; j < n && strcmp(seen[j]->text, a->text); j++)
			;
		if (j == n) {
			ALLOC_GROW(seen, n + 1, alloc);
			seen[n++] = a;
		}
	}
	free(seen);
	return n;
}

void ref_sorting_detached_first(struct ref_sorting *s)
{
	for (; s; s = s->next)
		s->detached_first = 1;
}

void ref_sorting_ignore_case(struct ref_sorting *s)
{
	for (; s; s = s->next)
		s->icase = 1;
}

int ref_sorting_needs_object(const struct ref_sorting *s)
{
	for (; s; s = s->next)
		if (s->atom.needs_obj)
			return 1;
	return 0;
}

/* What populating an item takes, as ref_array_populate() found it. */
static struct {
	const struct atom **order;  /* every atom, in the order git read them */
	size_t nr_order;
	const struct atom **dates;  /* the date atoms with a format, in that order */
	size_t nr_dates;
	int obj, deref;
	int upstream;           /* an %(upstream...) or %(push...) atom */
	int push;               /* a %(push...) atom; 2: not only :remotename */
	int deref_push;         /* a %(*push...) atom, which git has no value for */
	size_t head_lookups;    /* warnings the detached HEAD's description gives */
} need;

static int deref_push(const struct atom *a)
{
	return a->id == A_PUSH && a->deref;
}

static void need_remote_atoms(const struct atom *a)
{
	if (a->deref || (a->id != A_UPSTREAM && a->id != A_PUSH))
		return;
	need.upstream = 1;
	if (a->id == A_PUSH && need.push < 2)
		need.push = a->remotename ? 1 : 2;
}

/*
 * The atoms of the format and the sort keys in the order git read them:
 * branch reads its sort keys first, for-each-ref its format; git keeps
 * the sort keys last one first.
 */
static void read_order(const struct ref_format *f, const struct ref_sorting *s, int sort_first)
{
	size_t n = 0, keys = 0;
	for (const struct ref_sorting *p = s; p; p = p->next)
		keys++;
	need.order = xmalloc(st_mult(f->nr + keys + 1, sizeof(*need.order)));
	for (int pass = 0; pass < 2; pass++) {
		if (pass == !!sort_first) {
			for (size_t i = 0; i < f->nr; i++)
				if (f->toks[i].type == T_ATOM)
					need.order[n++] = &f->toks[i].atom;
			continue;
		}
		n += keys;
		for (const struct ref_sorting *p = s; p; p = p->next)
			need.order[--n] = &p->atom;
		n += keys;
	}
	need.nr_order = n;
}

/*
 * git keeps one list of trailer keys and one of each separator for all
 * the %(trailers) atoms of a command: an atom with key= shows the keys
 * that every atom names, and one with a separator shows the last one
 * given, in the order git read them.
 */
static void share_trailer_opts(void)
{
	struct trailer_opts **all = NULL, *sep = NULL, *kv = NULL;
	size_t n = 0, alloc = 0, nkeys = 0, i, k;
	char **keys = NULL;

	for (i = 0; i < need.nr_order; i++)
		if (need.order[i]->trailers) {
			ALLOC_GROW(all, n + 1, alloc);
			all[n++] = need.order[i]->trailers;
		}
	for (i = 0; i < n; i++) {
		for (k = 0; k < all[i]->nkeys; k++) {
			keys = xrealloc(keys, (nkeys + 1) * sizeof(*keys));
			keys[nkeys++] = all[i]->keys[k];
		}
		if (all[i]->separator)
			sep = all[i];
		if (all[i]->kv_separator)
			kv = all[i];
	}
	for (i = 0; i < n; i++) {
		struct trailer_opts *t = all[i];
		if (t->nkeys) {
			char **mine = xmalloc(nkeys * sizeof(*mine));
			for (k = 0; k < nkeys; k++)
				mine[k] = xstrdup(keys[k]);
			/* its own strings are in keys[], freed below */
			free(t->keys);
			t->keys = mine;
			t->nkeys = nkeys;
		}
	}
	for (k = 0; k < nkeys; k++)
		free(keys[k]);
	free(keys);
	for (i = 0; i < n; i++) {
		if (all[i]->separator && all[i] != sep) {
			strbuf_reset(&all[i]->sep_buf);
			strbuf_addbuf(&all[i]->sep_buf, &sep->sep_buf);
		}
		if (all[i]->kv_separator && all[i] != kv) {
			strbuf_reset(&all[i]->kv_buf);
			strbuf_addbuf(&all[i]->kv_buf, &kv->kv_buf);
		}
	}
	free(all);
}

void ref_array_populate(const struct ref_format *f, const struct ref_sorting *s,
			size_t head_lookups, int sort_read_first)
{
	free(need.order);
	free(need.dates);
	memset(&need, 0, sizeof(need));
	read_order(f, s, sort_read_first);
	share_trailer_opts();
	need.obj = f->needs_obj;
	need.deref = f->needs_deref;
	need.head_lookups = head_lookups;
	for (; s; s = s->next) {
		need.obj |= s->atom.needs_obj;
		need.deref |= s->atom.deref;
	}
	need.dates = xmalloc(st_mult(need.nr_order + 1, sizeof(*need.dates)));
	for (size_t i = 0; i < need.nr_order; i++) {
		const struct atom *a = need.order[i];
		need.deref_push |= deref_push(a);
		need_remote_atoms(a);
		if (is_date_atom(a->id) && a->mod)
			need.dates[need.nr_dates++] = a;
	}
}

static struct ref_sorting *sort_keys;
static size_t sort_nkeys;

/* Formats every date of one kind that has a format given, in the order
 * git read them: a date format git does not know dies here. */
static void check_date_kind(struct ref_item *it, enum atom_id id, int deref)
{
	struct strbuf scratch = STRBUF_INIT;
	for (size_t i = 0; i < need.nr_dates; i++)
		if (need.dates[i]->id == id && need.dates[i]->deref == deref) {
			append_value(&scratch, it, need.dates[i]);
			strbuf_reset(&scratch);
		}
	strbuf_release(&scratch);
}

/*
 * git reads all of an item's values as it is first sorted, so an unknown
 * date format dies before anything is shown, in git's order: the ref's
 * object before the one its tag points at, and for each, a tag's tagger
 * and a commit's author then committer date before the creator date.
 */
static void check_dates(struct ref_item *it)
{
	if (!need.nr_dates)
		return;
	for (int deref = 0; deref < 2; deref++) {
		int type = ref_object_type(it, deref);
		if (deref && (!need.deref || ref_object_type(it, 0) != OBJ_TAG))
			break;
		if (type == OBJ_TAG) {
			check_date_kind(it, A_TAGGERDATE, deref);
		} else if (type == OBJ_COMMIT) {
			check_date_kind(it, A_AUTHORDATE, deref);
			check_date_kind(it, A_COMMITTERDATE, deref);
		} else
			continue;
		check_date_kind(it, A_CREATORDATE, deref);
	}
}

/*
 * An item's values, worked out when the sort first looks at it, as git
 * does: the detached HEAD's description (with its warnings), the check
 * that every atom has a value, the object, then the sort keys. A failure
 * names the first item the sort looked at, as in git.
 */
/* A refname atom whose value is the name as stored. */
static int is_plain_name(const struct atom *a)
{
	return a->id == A_REFNAME && !a->deref && !a->shorten && !a->has_lstrip &&
	       !a->has_rstrip;
}

static void populate(struct ref_item *it)
{
	size_t j = 0;
	if (it->populated)
		return;
	it->populated = 1;
	if (it->kind & FILTER_REFS_DETACHED_HEAD)
		for (size_t i = 0; i < need.head_lookups; i++)
			warning("refname 'HEAD' is ambiguous.");
	if (need.deref_push)
		die("missing object %s for %s", oid_to_hex(&it->oid), ref_item_name(it));
	if (need.upstream)
		load_upstream(it);
	if (need.push)
		load_push(it, need.push == 2);
	if (need.obj) {
		ref_object_load(it, need.deref);
		check_dates(it);
	}
	it->sort_vals = xcalloc(sort_nkeys ? sort_nkeys : 1, sizeof(char *));
	it->nsort = sort_nkeys;
	for (struct ref_sorting *p = sort_keys; p; p = p->next, j++) {
		struct strbuf v = STRBUF_INIT;
		if (is_plain_name(&p->atom)) {
			/* the name itself: no copy (ref_item_free knows) */
			it->sort_vals[j] = it->refname;
			continue;
		}
		if (p->numeric && p->atom.id != A_OBJECTSIZE && p->atom.id != A_NUMPARENT) {
			/* a date, as a number (a format given was checked
			 * with the others, in check_dates()) */
			struct atom num = p->atom;
			num.mod = "unix";
			append_value(&v, it, &num);
		} else
			append_value(&v, it, &p->atom);
		it->sort_vals[j] = strbuf_detach(&v, NULL);
	}
}

static int cmp_items(const void *pa, const void *pb)
{
	struct ref_item *a = *(struct ref_item **)pa, *b = *(struct ref_item **)pb;
	size_t k = 0;
	populate(a);
	populate(b);
	for (struct ref_sorting *s = sort_keys; s; s = s->next, k++) {
		int c;
		if (s->detached_first) {
			if (a->kind & FILTER_REFS_DETACHED_HEAD)
				return -1;
			if (b->kind & FILTER_REFS_DETACHED_HEAD)
				return 1;
		}
		if (s->numeric) {
			unsigned long long x = strtoull(a->sort_vals[k], NULL, 10);
			unsigned long long y = strtoull(b->sort_vals[k], NULL, 10);
			c = x < y ? -1 : x > y;
		} else if (s->version)
			c = versioncmp(a->sort_vals[k], b->sort_vals[k]);
		else if (s->icase)
			c = strcasecmp(a->sort_vals[k], b->sort_vals[k]);
		else
			c = strcmp(a->sort_vals[k], b->sort_vals[k]);
		if (c)
			return s->reverse ? -c : c;
	}
	/* names equal but for case keep the order they were listed in,
	 * which is byte order */
	if (sort_keys && sort_keys->icase) {
		int c = strcasecmp(a->refname, b->refname);
		if (c)
			return c;
	}
	return strcmp(a->refname, b->refname);
}

void ref_array_sort(struct ref_sorting *s, struct ref_array *a)
{
	size_t k = 0;
	int version = 0;
	for (struct ref_sorting *p = s; p; p = p->next)
		k++;
	sort_keys = s;
	sort_nkeys = k;
	/* git's order, also where version order with suffixes is no
	 * strict order; the other keys are orders, and the names break
	 * their ties, so that refs listed in order are sorted already. */
	for (struct ref_sorting *p = s; p; p = p->next)
		version |= p->version;
	(version ? msort : msort_ordered)(a->items, a->nr, sizeof(*a->items), cmp_items);
	/* one item: git works its values out when it prints it */
	for (size_t i = 0; i < a->nr; i++)
		populate(a->items[i]);
}

/* --- filtering --- */

static int match_pattern(struct ref_filter *f, const char *name)
{
	unsigned fl = f->ignore_case ? WM_CASEFOLD : 0;
	if (!f->patterns || !*f->patterns)
		return 1;
	if (f->match_as_path) {
		size_t nlen = strlen(name);
		for (const char **p = f->patterns; *p; p++) {
			size_t plen = strlen(*p);
			if (plen <= nlen && !strncmp(name, *p, plen) &&
			    (plen == nlen || name[plen] == '/' || (*p)[plen - 1] == '/'))
				return 1;
			if (wildmatch(*p, name, fl | WM_PATHNAME))
				return 1;
		}
		return 0;
	}
	(void)(skip_prefix(name, "refs/tags/", &name) || skip_prefix(name, "refs/heads/", &name) ||
	       skip_prefix(name, "refs/remotes/", &name) || skip_prefix(name, "refs/", &name));
	for (const char **p = f->patterns; *p; p++)
		if (wildmatch(*p, name, fl))
			return 1;
	return 0;
}

static unsigned kind_of(const char *name)
{
	if (starts_with(name, "refs/heads/"))
		return FILTER_REFS_BRANCHES;
	if (starts_with(name, "refs/remotes/"))
		return FILTER_REFS_REMOTES;
	if (starts_with(name, "refs/tags/"))
		return FILTER_REFS_TAGS;
	return FILTER_REFS_OTHERS;
}

/* Where the listing reads, as git: the longest literal beginnings of
 * the patterns (up to a wildcard) that between them cover every pattern,
 * none the beginning of another, in order ("refs/heads" and "refs/tags/v"
 * for "refs/heads" and "refs/tags/v*"); git reads loose refs and
 * packed-refs from those places only, so it warns of a broken ref, or
 * dies of a dangerous record, only if one is there. Everything when case
 * is ignored. pats (sorted) share their first depth bytes. */
static void add_prefixes(const char **pats, size_t nr, size_t depth, char ***out, size_t *out_nr,
			 size_t *out_alloc)
{
	for (size_t i = 0; i < nr; i++)
		if (!pats[i][depth] || strchr("*?[\\", pats[i][depth])) {
			ALLOC_GROW(*out, *out_nr + 1, *out_alloc);
			(*out)[(*out_nr)++] = xstrndup(pats[0], depth);
			return;
		}
	for (size_t i = 0, end; i < nr; i = end) {
		for (end = i + 1; end < nr && pats[end][depth] == pats[i][depth]; end++)
			;
		add_prefixes(pats + i, end - i, depth + 1, out, out_nr, out_alloc);
	}
}

static int for_each_listed(struct ref_filter *f, ref_cb fn, void *data)
{
	const char **pats;
	char **prefixes = NULL;
	size_t nr = 0, np = 0, alloc = 0;
	int ret = 0;

	if (!f->match_as_path || !f->patterns || !*f->patterns || f->ignore_case)
		return refs_for_each("", REFS_INCLUDE_BROKEN, fn, data);
	while (f->patterns[nr])
		nr++;
	pats = xmalloc(st_mult(nr, sizeof(*pats)));
	memcpy(pats, f->patterns, nr * sizeof(*pats));
	qsort(pats, nr, sizeof(*pats), cmp_strings);
	add_prefixes(pats, nr, 0, &prefixes, &np, &alloc);
	for (size_t i = 0; i < np; i++) {
		if (!ret)
			ret = refs_for_each(prefixes[i], REFS_INCLUDE_BROKEN, fn, data);
		free(prefixes[i]);
	}
	free(prefixes);
	free(pats);
	return ret;
}

struct collect {
	struct ref_array *a;
	struct ref_filter *f;
};

static struct ref_item *new_item(struct ref_array *a, const char *name, const struct object_id *oid)
{
	size_t len = strlen(name);
	struct ref_item *it = xcalloc(1, st_add(st_add(sizeof(*it), len), 1));
	memcpy(it->refname, name, len);
	oidcpy(&it->oid, oid);
	ALLOC_GROW(a->items, a->nr + 1, a->alloc);
	a->items[a->nr++] = it;
	return it;
}

static int collect_one(const struct ref_entry *e, void *data)
{
	struct collect *c = data;
	struct ref_item *it;
	unsigned kind = kind_of(e->name);
	if (e->flags & REF_BAD_NAME) {
		warning("ignoring ref with broken name %s", e->name);
		return 0;
	}
	if (e->flags & REF_ISBROKEN) {
		warning("ignoring broken ref %s", e->name);
		return 0;
	}
	if (!(kind & c->f->kind))
		return 0;
	if (!match_pattern(c->f, e->name))
		return 0;
	if (c->f->points_at_nr && !ref_object_points_at(c->f, e))
		return 0;
	it = new_item(c->a, e->name, &e->oid);
	it->flags = e->flags;
	it->kind = kind;
	if (e->symref_target)
		it->symref = xstrdup(e->symref_target);
	if (e->flags & REF_KNOWS_PEELED) {
		it->peel_state = 1;
		oidcpy(&it->peeled, &e->peeled);
	}
	return 0;
}

int filter_refs(struct ref_array *a, struct ref_filter *f)
{
	struct collect c = { a, f };
	int ret = 0;
	if (!f->kind)
		die("filter_refs: invalid type");   /* git's words: branch --no-all */
	/* one kind: only its directory; several (branch -a, or branches
	 * beside a detached HEAD), as git, everything */
	if (f->kind == FILTER_REFS_BRANCHES)
		ret = refs_for_each("refs/heads/", REFS_INCLUDE_BROKEN, collect_one, &c);
	else if (f->kind == FILTER_REFS_REMOTES)
		ret = refs_for_each("refs/remotes/", REFS_INCLUDE_BROKEN, collect_one, &c);
	else if (f->kind == FILTER_REFS_TAGS)
		ret = refs_for_each("refs/tags/", REFS_INCLUDE_BROKEN, collect_one, &c);
	else
		ret = for_each_listed(f, collect_one, &c);
	/* HEAD after the branches, as git lists it: the sort meets the
	 * refs in this order */
	if (!ret && f->kind & FILTER_REFS_DETACHED_HEAD && f->head_desc) {
		struct object_id oid;
		unsigned flags;
		/* like any ref, HEAD is listed only if the patterns match "HEAD" */
		if (refs_resolve("HEAD", &oid, &flags) && !(flags & REF_ISSYMREF) &&
		    match_pattern(f, "HEAD")) {
			struct ref_item *it = new_item(a, f->head_desc, &oid);
			it->kind = FILTER_REFS_DETACHED_HEAD;
			if (f->points_at_nr) {
				struct ref_entry e = { .name = "HEAD", .oid = oid };
				if (!ref_object_points_at(f, &e)) {
					free(it);
					a->nr--;
				}
			}
		}
	}
	if (!ret)
		ret = ref_object_filter_commits(a, f);
	return ret;
}

const char *ref_item_name(const struct ref_item *it)
{
	return it->kind & FILTER_REFS_DETACHED_HEAD ? "HEAD" : it->refname;
}

void ref_item_free(struct ref_item *it)
{
	free(it->symref);
	ref_object_unref(it);
	if (it->remote) {
		free(it->remote->upstream);
		free(it->remote->push);
		free(it->remote->push_remote);
		free(it->remote->push_dst);
		free(it->remote);
	}
	for (size_t k = 0; k < it->nsort; k++)
		if (it->sort_vals[k] != it->refname)
			free(it->sort_vals[k]);
	free(it->sort_vals);
	free(it);
}

void ref_array_clear(struct ref_array *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		ref_item_free(a->items[i]);
	}
	free(a->items);
	a->items = NULL;
	a->nr = a->alloc = 0;
}

/* --- options shared by branch and for-each-ref --- */

void ref_filter_release(struct ref_filter *f)
{
	free(f->points_at);
	free(f->with_commit);
	free(f->no_commit);
	free(f->merged);
	free(f->no_merged);
	f->points_at = f->with_commit = f->no_commit = f->merged = f->no_merged = NULL;
	f->points_at_nr = f->with_commit_nr = f->no_commit_nr = f->merged_nr = f->no_merged_nr = 0;
}

static void oids_push(struct object_id **v, size_t *nr, size_t *alloc, const struct object_id *oid)
{
	ALLOC_GROW(*v, *nr + 1, *alloc);
	oidcpy(&(*v)[(*nr)++], oid);
}

/* git reads the commit as the option is parsed: a name that does not
 * resolve is fatal for --merged but a usage error for --contains, and
 * either fails on an object that is not a commit. */
int ref_filter_opt_commit(const struct option *o, const char *arg, int unset)
{
	/* which list each option name fills (branch's hidden --with and
	 * --without are --contains and --no-contains) */
	static const struct { const char *name; int merge, neg; } kinds[] = {
		{ "contains", 0, 0 }, { "with", 0, 0 }, { "no-contains", 0, 1 },
		{ "without", 0, 1 }, { "merged", 1, 0 }, { "no-merged", 1, 1 },
	};
	struct ref_filter *f = o->value;
	int merge = 0, neg = 0;
	struct object_id oid, commit;
	enum object_type t;

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(o->long_name, kinds[i].name)) {
			merge = kinds[i].merge;
			neg = kinds[i].neg;
		}

	if (unset || !arg)
		return -1;
	if (get_oid(arg, &oid)) {
		if (merge)
			die("malformed object name %s", arg);
		return error("malformed object name %s", arg);
	}
	if (peel_to_non_tag(&oid, &commit, &t) < 0 ||
	    (t != OBJ_COMMIT && error("object %s is a %s, not a commit", oid_to_hex(&commit), type_name(t)))) {
		if (merge)
			return error("option `%s' must point to a commit", o->long_name);
		return error("no such commit %s", arg);
	}
	if (merge && neg)
		oids_push(&f->no_merged, &f->no_merged_nr, &f->no_merged_alloc, &commit);
	else if (merge)
		oids_push(&f->merged, &f->merged_nr, &f->merged_alloc, &commit);
	else if (neg)
		oids_push(&f->no_commit, &f->no_commit_nr, &f->no_commit_alloc, &commit);
	else
		oids_push(&f->with_commit, &f->with_commit_nr, &f->with_commit_alloc, &commit);
	return 0;
}

int ref_filter_opt_points_at(const struct option *o, const char *arg, int unset)
{
	struct ref_filter *f = o->value;
	struct object_id oid;
	if (unset) {
		f->points_at_nr = 0;
		return 0;
	}
	if (get_oid(arg, &oid))
		return error("malformed object name '%s'", arg);
	oids_push(&f->points_at, &f->points_at_nr, &f->points_at_alloc, &oid);
	return 0;
}

int ref_filter_opt_sort(const struct option *o, const char *arg, int unset)
{
	struct ref_sort_keys *k = o->value;
	if (unset) {
		k->nr = 0;
		k->cleared = 1;
		return 0;
	}
	ALLOC_GROW(k->v, k->nr + 1, k->alloc);
	k->v[k->nr++] = arg;
	return 0;
}

struct ref_sorting *ref_sorting_from_keys(const struct ref_sort_keys *k,
					  const char **conf, size_t conf_nr)
{
	struct ref_sorting *s = NULL;
	for (size_t i = 0; !k->cleared && i < conf_nr; i++)
		if (conf[i])
			ref_sorting_add(&s, conf[i]);
	for (size_t i = 0; i < k->nr; i++)
		ref_sorting_add(&s, k->v[i]);
	if (!s)
		ref_sorting_add(&s, "refname");
	return s;
}

/* git's "auto": stdout is a terminal, or a pager git started is (with
 * color.pager on), and TERM is neither unset nor "dumb". TERM is looked
 * at first: where it rules colour out, no ioctl() is needed. */
static int auto_color(void)
{
	const char *term = getenv("TERM");
	if (!term || !strcmp(term, "dumb"))
		return 0;
	if (isatty(1))
		return 1;
	return env_bool("GIT_PAGER_IN_USE", 0) && config_get_bool("color.pager", 1);
}

/* 1, 0, or -1 for a word --color does not know. */
static int color_word(const char *when)
{
	if (!strcasecmp(when, "always"))
		return 1;
	if (!strcasecmp(when, "never"))
		return 0;
	if (!strcasecmp(when, "auto"))
		return auto_color();
	return -1;
}

int ref_filter_opt_color(const struct option *o, const char *arg, int unset)
{
	const char **when = o->value;
	*when = unset ? "never" : arg ? arg : "always";
	if (color_word(*when) < 0)
		return error("option `color' expects \"always\", \"auto\", or \"never\"");
	return 0;
}

int ref_filter_use_color(const char *when, const char *config_key)
{
	const char *v, *key = config_key;
	int b;
	if (when)
		return color_word(when) > 0;
	if (!key || (!config_get(key, &v) && !config_get(key = "color.ui", &v)))
		return auto_color();
	b = config_parse_colorbool(key, v);
	return b == COLORBOOL_AUTO ? auto_color() : b == COLORBOOL_ALWAYS;
}

/* Calls fn with the formatted line of each of the first n refs, or of
 * those whose line is not empty with skip_empty. */
static void each_line(struct ref_array *a, size_t n, struct ref_format *f, int skip_empty,
		      void (*fn)(struct strbuf *line, void *data), void *data)
{
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; f->abbrevs && i < n && i < a->nr; i++)
		odb_abbrev_expect(&a->items[i]->oid);
	for (size_t i = 0; i < n && i < a->nr; i++) {
		strbuf_reset(&out);
		ref_format_item(&out, a->items[i], f);
		if (out.len || !skip_empty)
			fn(&out, data);
	}
	strbuf_release(&out);
}

static void print_line(struct strbuf *line, void *data)
{
	(void)data;
	strbuf_addch(line, '\n');
	fwrite(line->buf, 1, line->len, stdout);
}

void ref_array_print(struct ref_array *a, size_t n, struct ref_format *f, int skip_empty)
{
	each_line(a, n, f, skip_empty, print_line, NULL);
}

struct lines {
	char **v;
	size_t nr, alloc;
};

static void keep_line(struct strbuf *line, void *data)
{
	struct lines *l = data;
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrdup(line->buf);
}

char **ref_array_lines(struct ref_array *a, struct ref_format *f, int skip_empty, size_t *nr)
{
	struct lines l = { NULL, 0, 0 };
	each_line(a, a->nr, f, skip_empty, keep_line, &l);
	*nr = l.nr;
	return l.v;
}
