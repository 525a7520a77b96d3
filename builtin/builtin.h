/* builtin.h: every command is int cmd_<name>(int argc, const char **argv),
 * argv[0] being the command name. The table in mini-git.c is generated
 * from the file names in builtin/. */
#ifndef BUILTIN_BUILTIN_H
#define BUILTIN_BUILTIN_H

#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/parse-options.h"

#define CMD(name, fn) int fn(int argc, const char **argv);
#include "builtins.h"
#undef CMD

#endif
