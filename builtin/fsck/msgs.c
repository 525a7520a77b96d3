/* msgs.c: messages of one object, kept until they can be printed in
 * git's order, and the formatting helpers they use. */
#include "builtin/fsck/fsck.h"

/* oid_to_hex() with rotating buffers per thread: messages are formatted
 * on the pool's threads. The buffers are allocated by the thread that
 * first needs them (see xcalloc_thread), which keeps the thread-local
 * block small enough for musl's start-up to need no mapping for it. */
const char *thex(const struct object_id *oid)
{
	static __thread char (*buf)[HEX_SZ + 1];
	static __thread unsigned n;
	if (!buf)
		buf = xcalloc_thread(4, HEX_SZ + 1);
	return oid_to_hex_r(buf[n++ & 3], oid);
}
void msg_add(struct msgs *m, int to_err, const char *fmt, ...)
{
	va_list ap;
	struct strbuf *sb = to_err ? &m->err : &m->out;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	strbuf_addch(sb, '\n');
}

void msg_flush(struct msgs *m)
{
	if (m->out.len)
		fwrite(m->out.buf, 1, m->out.len, stdout);
	if (m->err.len) {
		fflush(stdout);
		fwrite(m->err.buf, 1, m->err.len, stderr);
	}
	strbuf_release(&m->out);
	strbuf_release(&m->err);
}

const char *printable_type(enum object_type t)
{
	const char *s = type_name(t);
	return s ? s : "unknown";
}
