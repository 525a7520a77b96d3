/* transport.h: talking to a remote repository through a remote helper
 * (mini-git-remote-http for http and https URLs), protocol v2 when the
 * server speaks it, else v0 over the same channel (see remote-http.c). */
#ifndef REMOTE_TRANSPORT_H
#define REMOTE_TRANSPORT_H

#include "lib/url.h"
#include "lib/hex.h"
#include "lib/strbuf.h"
#include "lib/run-command.h"
#include "remote/pkt-line.h"

struct remote_ref {
	char *name;
	struct object_id oid;     /* null for an unborn symref */
	struct object_id peeled;
	int has_peeled;
	int unborn;
	char *symref;             /* target, or NULL */
};

struct transport {
	char *url;                /* as given (may hold credentials) */
	char *anon_url;           /* for messages */
	struct child_process helper;
	int to_helper;
	struct pkt_reader *rd;
	int version;              /* 0 or 2 */
	struct strbuf caps;       /* v0: the capability string; v2: lines */
	struct remote_ref *refs;  /* v0: the advertisement; v2: after ls-refs */
	size_t nr_refs, alloc_refs;
	int quiet, progress;
	struct strbuf remote_line; /* a server message line not yet ended */
};

/* "http", "https": the scheme a helper serves, else NULL. */
const char *url_helper_scheme(const char *url);
/* The URL with any "user:password@" removed (malloc'ed). */
/* The directory name git clone picks for a URL ("x" for .../x.git/). */
char *url_guess_dir(const char *url, int bare);

/* Starts the helper and reads the server's advertisement. Dies like git
 * (the helper prints the reason) when the remote cannot be reached.
 * progress: 1 shows the server's progress (and tells callers to show
 * theirs), 0 never, -1 when not quiet and stderr is a terminal (git's
 * --progress / --no-progress / neither). */
struct transport *transport_open(const char *url, int quiet, int progress);
/* Whether progress was asked for (see transport_open). */
int transport_progress(const struct transport *t);
/* Whether git would show index-pack's meters ("Receiving objects",
 * "Resolving deltas") for the pack received into pack_path: progress is
 * on (and, over v2, -q is not), and git keeps the pack whole, which it does for a v2 clone (keep)
 * and for a pack of at least fetch.unpackLimit / transfer.unpackLimit
 * objects (100); smaller packs go to git's unpack-objects, which shows
 * its meter only on a terminal. */
int transport_pack_meters(const struct transport *t, const char *pack_path, int keep);
/* Lists refs: v2 sends ls-refs (with peel, symrefs, unborn and these
 * ref-prefixes; none means all); v0 uses the advertisement. */
void transport_list_refs(struct transport *t, const char **prefixes, size_t nr_prefixes);
/*
 * Asks for the wanted objects (haves: what we already have) and writes
 * the pack the server sends to pack_fd. Side-band progress goes to stderr
 * ("remote: ..."), a side-band error dies ("remote error: ..."). Returns
 * the number of pack bytes written (0 when nothing was sent).
 */
uint64_t transport_fetch_pack(struct transport *t, const struct object_id *wants, size_t nr_wants,
			      const struct object_id *haves, size_t nr_haves, int include_tag,
			      int pack_fd);
/* Ends the helper; returns its exit code. */
int transport_close(struct transport *t);
/* Free what the transport holds, without touching the helper process
 * (transport_close() waits for it first). */
void transport_free(struct transport *t);

/* v0 capability lookup: 1 if present, *value set for "name=value". */
int transport_server_has(struct transport *t, const char *name, const char **value);

#endif
