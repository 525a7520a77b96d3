/* object-type.c: object type names. */
#include "odb/odb.h"

static const char *const names[] = {
	[OBJ_COMMIT] = "commit",
	[OBJ_TREE] = "tree",
	[OBJ_BLOB] = "blob",
	[OBJ_TAG] = "tag",
};

const char *type_name(enum object_type t)
{
	if (t < OBJ_COMMIT || t > OBJ_TAG)
		return NULL;
	return names[t];
}

enum object_type type_from_string(const char *s, size_t len)
{
	for (int t = OBJ_COMMIT; t <= OBJ_TAG; t++)
		if (strlen(names[t]) == len && !memcmp(s, names[t], len))
			return (enum object_type)t;
	return OBJ_BAD;
}
