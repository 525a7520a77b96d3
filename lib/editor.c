/* editor.c: starting the editor as git does. */
#include "lib/util.h"
#include "lib/editor.h"
#include "lib/config.h"
#include "lib/run-command.h"
#include <ctype.h>
#include <signal.h>

static int terminal_is_dumb(void)
{
	const char *t = getenv("TERM");
	return !t || !strcmp(t, "dumb");
}

static const char *editor_program(void)
{
	const char *e = getenv("GIT_EDITOR"), *v;
	int dumb = terminal_is_dumb();

	if (!e && config_get("core.editor", &v) && v)
		e = v;
	if (!e && !dumb)
		e = getenv("VISUAL");
	if (!e)
		e = getenv("EDITOR");
	if (!e && dumb)
		return NULL;
	return e ? e : "vi";
}

int launch_editor(const char *path, struct strbuf *out)
{
	const char *editor = editor_program();
	struct strbuf real = STRBUF_INIT, script = STRBUF_INIT;
	struct child_process cp = { 0 };
	const char *argv[6];
	int hint, ret;
	void (*old_int)(int), (*old_quit)(int);

	if (!editor)
		return error("Terminal is dumb, but EDITOR unset");
	if (!strcmp(editor, ":"))
		goto read;
	{
		/* git hands the editor the file's real, absolute path */
		char *rp = realpath(path, NULL);
		strbuf_addstr(&real, rp ? rp : path);
		free(rp);
	}
	/* As git: through the shell when the command needs one. */
	if (editor[strcspn(editor, "|&;<>()$`\\\"' \t\n*?[#~=%")]) {
		strbuf_addf(&script, "%s \"$@\"", editor);
		argv[0] = "/bin/sh";
		argv[1] = "-c";
		argv[2] = script.buf;
		argv[3] = editor;
		argv[4] = real.buf;
		argv[5] = NULL;
	} else {
		argv[0] = editor;
		argv[1] = real.buf;
		argv[2] = NULL;
	}
	cp.argv = argv;
	cp.search_path = 1;
	cp.in = 0;
	cp.out = 1;
	hint = isatty(2) && config_get_bool("advice.waitingforeditor", 1);
	if (hint) {
		fprintf(stderr, "hint: Waiting for your editor to close the file...%c",
			terminal_is_dumb() ? '\n' : ' ');
		fflush(stderr);
	}
	if (start_command(&cp)) {
		error_errno("cannot run %s", editor);
		strbuf_release(&real);
		strbuf_release(&script);
		return error("unable to start editor '%s'", editor);
	}
	/* Like git, leave ^C and ^\ to the editor while it runs. */
	old_int = signal(SIGINT, SIG_IGN);
	old_quit = signal(SIGQUIT, SIG_IGN);
	ret = finish_command(&cp);
	signal(SIGINT, old_int);
	signal(SIGQUIT, old_quit);
	strbuf_release(&real);
	strbuf_release(&script);
	if (ret)
		return error("There was a problem with the editor '%s'.", editor);
	if (hint && !terminal_is_dumb())
		fputs("\r\033[K", stderr);
read:
	if (strbuf_read_file(out, path, 0) < 0)
		return error_errno("could not read file '%s'", path);
	return 0;
}

void strbuf_stripspace(struct strbuf *sb, int skip_comments)
{
	size_t i = 0, j = 0, empties = 0;

	while (i < sb->len) {
		const char *eol = memchr(sb->buf + i, '\n', sb->len - i);
		size_t len = eol ? (size_t)(eol - (sb->buf + i)) + 1 : sb->len - i, n = len;
		if (skip_comments && sb->buf[i] == '#') {
			i += len;
			continue;
		}
		while (n && git_isspace((unsigned char)sb->buf[i + n - 1]))
			n--;
		if (n) {
			if (empties && j)
				sb->buf[j++] = '\n';
			empties = 0;
			memmove(sb->buf + j, sb->buf + i, n);
			j += n;
			sb->buf[j++] = '\n';
		} else {
			empties++;
		}
		i += len;
	}
	strbuf_setlen(sb, j);
}
