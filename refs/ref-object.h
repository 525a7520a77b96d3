/* ref-object.h: the parts of ref-filter that read objects: object atoms,
 * --points-at, --contains/--merged and ahead/behind counts. Kept apart so
 * that the listing path visibly reaches none of it. */
#ifndef REFS_REF_OBJECT_H
#define REFS_REF_OBJECT_H

#include "refs/ref-filter.h"

/* Value of an object atom by name ("subject", "committerdate", ...). */
struct trailer_opts;
/* The trailers of the (peeled, with deref) object's message. */
void ref_object_trailers(struct strbuf *out, struct ref_item *it, int deref,
			 const struct trailer_opts *o);
void ref_object_value(struct strbuf *out, struct ref_item *it, const char *atom,
		      int abbrev, int deref, const char *mod);
/* Read the item's object (dying as git does when it is missing), and with
 * deref the one its tag points at. */
void ref_object_load(struct ref_item *it, int deref);
/* The type of the object read (with deref, of the one its tag points
 * at); OBJ_NONE if none was. */
int ref_object_type(const struct ref_item *it, int deref);
/* Drop the item's hold on the objects it read (before freeing it). */
void ref_object_unref(struct ref_item *it);
/* Unique abbreviation (len 0: git's default length). */
void ref_object_abbrev(struct strbuf *out, const struct object_id *oid, int len);
int ref_object_points_at(struct ref_filter *f, const struct ref_entry *e);
int ref_object_filter_commits(struct ref_array *a, struct ref_filter *f);
int ref_object_ahead_behind(const struct object_id *a, const struct object_id *b,
			    size_t *ahead, size_t *behind);
/* git's default date format and its variants (short, iso, raw, unix...). */
void format_date(struct strbuf *out, uint64_t t, int tz, const char *mode);

#endif
