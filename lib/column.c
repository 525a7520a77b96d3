/* column.c: the layouts of column.h. */
#include "lib/util.h"
#include "lib/column.h"
#include "lib/config.h"
#include "lib/utf8-width.h"
#include <sys/ioctl.h>

static const struct {
	const char *name;
	unsigned value, mask;   /* mask 0: a flag, "no<name>" clears it */
} words[] = {
	{ "always", COL_ENABLED, COL_ENABLE_MASK }, { "never", COL_DISABLED, COL_ENABLE_MASK },
	{ "auto", COL_AUTO, COL_ENABLE_MASK }, { "plain", COL_PLAIN, COL_LAYOUT_MASK },
	{ "column", COL_COLUMN, COL_LAYOUT_MASK }, { "row", COL_ROW, COL_LAYOUT_MASK },
	{ "dense", COL_DENSE, 0 },
};

/* One word, s[0..n); *set gains the masks it touched. */
static int parse_word(const char *s, size_t n, unsigned *colopts, unsigned *set)
{
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		const char *w = s;
		size_t len = n;
		int on = 1;
		if (!words[i].mask && len > 2 && !strncmp(w, "no", 2)) {
			w += 2;
			len -= 2;
			on = 0;
		}
		if (len != strlen(words[i].name) || strncmp(w, words[i].name, len))
			continue;
		*set |= words[i].mask;
		if (words[i].mask)
			*colopts = (*colopts & ~words[i].mask) | words[i].value;
		else if (on)
			*colopts |= words[i].value;
		else
			*colopts &= ~words[i].value;
		return 0;
	}
	/* git names the rest of the value from this word on */
	return error("unsupported option '%s'", s);
}

int column_parse(unsigned *colopts, const char *value)
{
	unsigned set = 0;

	while (*value) {
		size_t n = strcspn(value, " ,");
		if (n && parse_word(value, n, colopts, &set))
			return -1;
		value += n;
		value += strspn(value, " ,");
	}
	if ((set & COL_LAYOUT_MASK) && !(set & COL_ENABLE_MASK))
		*colopts = (*colopts & ~COL_ENABLE_MASK) | COL_ENABLED;
	return 0;
}

void column_config(const char *key, const char *value, const char *command, unsigned *colopts)
{
	const char *it;

	if (!skip_prefix(key, "column.", &it) || (strcmp(it, "ui") && strcmp(it, command)))
		return;
	if (!value)
		config_die_missing_value(key);
	if (column_parse(colopts, value)) {
		error("invalid column.%s mode %s", it, value);
		config_die_bad_variable();
	}
}

int column_option(unsigned *colopts, const char *arg, int unset)
{
	*colopts = (*colopts & ~COL_ENABLE_MASK) | COL_PARSEOPT;
	if (unset)
		return 0;
	*colopts |= COL_ENABLED;
	return arg ? column_parse(colopts, arg) : 0;
}

void column_finalize(unsigned *colopts)
{
	if ((*colopts & COL_ENABLE_MASK) != COL_AUTO)
		return;
	*colopts &= ~COL_ENABLE_MASK;
	if (isatty(1) || env_bool("GIT_PAGER_IN_USE", 0))
		*colopts |= COL_ENABLED;
}

static int term_width(void)
{
	const char *e = getenv("COLUMNS");
	struct winsize ws;
	int n;

	if (e && (n = atoi(e)) > 0)
		return n;
	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

struct table {
	const char *const *items;
	int *len, *widest;      /* widest: per column, the index of its widest item (dense) */
	size_t nr;
	int rows, cols, by_row, width, padding;
};

static size_t at(const struct table *t, int x, int y)
{
	return t->by_row ? (size_t)y * t->cols + x : (size_t)x * t->rows + y;
}

static void find_widest(struct table *t)
{
	for (int x = 0; x < t->cols; x++) {
		t->widest[x] = (int)at(t, x, 0);
		for (int y = 0; y < t->rows; y++) {
			size_t i = at(t, x, y);
			if (i < t->nr && t->len[t->widest[x]] < t->len[i])
				t->widest[x] = (int)i;
		}
	}
}

/* Dense: one row fewer at a time while the columns, each as wide as its
 * widest item, still fit. */
static void shrink(struct table *t)
{
	t->widest = xcalloc(t->nr, sizeof(*t->widest));
	while (t->rows > 1) {
		int rows = t->rows, cols = t->cols, total = 0;
		t->rows--;
		t->cols = (int)((t->nr + t->rows - 1) / t->rows);
		find_widest(t);
		for (int x = 0; x < t->cols; x++)
			total += t->len[t->widest[x]] + t->padding;
		if (total > t->width) {
			t->rows = rows;
			t->cols = cols;
			break;
		}
	}
	find_widest(t);
}

void column_print(const char *const *items, size_t nr, unsigned colopts)
{
	struct table t = { items, NULL, NULL, nr, 0, 0, 0, 0, 1 };
	struct strbuf out = STRBUF_INIT;
	int cell = 0;

	if (!nr)
		return;
	if (!column_active(colopts) || (colopts & COL_LAYOUT_MASK) == COL_PLAIN) {
		for (size_t i = 0; i < nr; i++)
			printf("%s\n", items[i]);
		return;
	}
	t.by_row = (colopts & COL_LAYOUT_MASK) == COL_ROW;
	t.width = term_width() - 1;
	t.len = xcalloc(nr, sizeof(*t.len));
	for (size_t i = 0; i < nr; i++) {
		t.len[i] = (int)utf8_width(items[i], strlen(items[i]), UTF8_WIDTH_SKIP_ANSI);
		if (cell < t.len[i])
			cell = t.len[i];
	}
	cell += t.padding;
	t.cols = t.width / cell;
	if (t.cols < 1)
		t.cols = 1;
	t.rows = (int)((nr + t.cols - 1) / t.cols);
	if (colopts & COL_DENSE)
		shrink(&t);
	for (int y = 0; y < t.rows; y++)
		for (int x = 0; x < t.cols; x++) {
			size_t i = at(&t, x, y);
			int len = t.len[i < nr ? i : 0], last;
			if (i >= nr)
				break;
			/* dense: padded to its column's widest, plus padding */
			if (t.widest && t.len[t.widest[x]] < cell)
				len += cell - t.len[t.widest[x]] - t.padding;
			last = t.by_row ? x == t.cols - 1 || i == nr - 1 : i + t.rows >= nr;
			strbuf_addstr(&out, items[i]);
			if (last)
				strbuf_addch(&out, '\n');
			else
				strbuf_addchars(&out, ' ', cell > len ? (size_t)(cell - len) : 0);
		}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	free(t.len);
	free(t.widest);
}
