/* object.h: parsing commits, tags and trees from an object's bytes.
 * Parsers never read past len and never allocate for a field the caller
 * did not ask for; strings point into the caller's buffer. */
#ifndef ODB_OBJECT_H
#define ODB_OBJECT_H

#include "odb/odb.h"

typedef uint64_t timestamp_t;

struct ident {
	const char *name;     size_t name_len;   /* "A U Thor" */
	const char *email;    size_t email_len;  /* without the <> */
	timestamp_t date;                        /* 0 when too large */
	int date_overflow;                       /* ... and then this is set */
	const char *tz;       size_t tz_len;     /* "-0700" */
};

struct commit_info {
	struct object_id tree;
	struct object_id *parents;  /* malloc'ed; free with commit_info_release */
	size_t nr_parents;
	const char *author;  size_t author_len;    /* whole line after "author " */
	const char *committer; size_t committer_len;
	timestamp_t author_date, committer_date;
	const char *message;  /* after the blank line; may be at buf+len */
	size_t message_len;
};

/* 0 on success, -1 (with an error()) if the commit is malformed. */
int parse_commit_buffer(const char *buf, size_t len, struct commit_info *out);
void commit_info_release(struct commit_info *ci);

struct tag_info {
	struct object_id object;
	enum object_type type;
	const char *tag;    size_t tag_len;
	const char *tagger; size_t tagger_len; /* NULL if absent */
	timestamp_t tagger_date;
	const char *message; size_t message_len;
};
int parse_tag_buffer(const char *buf, size_t len, struct tag_info *out);

/* "Name <email> 1234567890 -0700" */
int parse_ident(const char *line, size_t len, struct ident *out);

/* The subject: the first paragraph of the message, lines joined by spaces
 * (what %(subject) and branch -v print). Appended to sb. */
void message_subject(const char *msg, size_t len, struct strbuf *sb);

/* Trees: mode SP name NUL 20-byte-id, repeated. */
struct tree_iter {
	const unsigned char *p, *end;
};
struct tree_entry {
	const char *name;
	size_t name_len;
	unsigned mode;
	const struct object_id *oid; /* points into the tree buffer */
};
void tree_iter_init(struct tree_iter *it, const void *buf, size_t len);
/* 1 and *e filled; 0 at the end; -1 on a malformed entry. */
int tree_iter_next(struct tree_iter *it, struct tree_entry *e);

/* Follow tags until an object that is not a tag: *type gets its type.
 * Returns 0, or -1 if an object in the chain is missing. */
int peel_to_non_tag(const struct object_id *oid, struct object_id *out, enum object_type *type);

#endif
