/* ident.h: who and when, for reflog entries: "Name <email> 1234567890 +0000". */
#ifndef REMOTE_IDENT_H
#define REMOTE_IDENT_H

#include "lib/strbuf.h"

/* GIT_COMMITTER_NAME/EMAIL/DATE, else user.name/user.email, else the
 * passwd entry and user@host; the time now in the local zone. */
void ident_committer(struct strbuf *sb);

#endif
