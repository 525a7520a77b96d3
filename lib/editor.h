/* editor.h: the user's editor, as git chooses and starts it. */
#ifndef LIB_EDITOR_H
#define LIB_EDITOR_H

#include "lib/strbuf.h"

/* Opens path in the editor (GIT_EDITOR, core.editor, VISUAL unless the
 * terminal is dumb, EDITOR, else vi; ":" opens nothing), waits, then
 * reads the file into out. 0, or -1 after git's error message. */
int launch_editor(const char *path, struct strbuf *out);

/* git's stripspace: lines without trailing white space, '#' lines
 * dropped (with skip_comments), runs of empty lines made one, none at
 * the start or the end, each line ending in a newline. */
void strbuf_stripspace(struct strbuf *sb, int skip_comments);

#endif
