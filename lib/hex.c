/* hex.c: conversions between raw object ids and hexadecimal. */
#include "lib/hex.h"

static const signed char hexval_table[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The table stores value + 1 so that 0 means "not a digit". */
int hexval(int c)
{
	return hexval_table[(unsigned char)c] - 1;
}

char *oid_to_hex_r(char *buf, const struct object_id *oid)
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < RAW_SZ; i++) {
		buf[2 * i] = digits[oid->hash[i] >> 4];
		buf[2 * i + 1] = digits[oid->hash[i] & 15];
	}
	buf[HEX_SZ] = 0;
	return buf;
}

const char *oid_to_hex(const struct object_id *oid)
{
	static char bufs[4][HEX_SZ + 1];
	static int n;
	n = (n + 1) & 3;
	return oid_to_hex_r(bufs[n], oid);
}

int get_oid_hex(const char *hex, struct object_id *oid)
{
	for (int i = 0; i < RAW_SZ; i++) {
		int hi = hexval(hex[2 * i]), lo;
		if (hi < 0)
			return -1;
		lo = hexval(hex[2 * i + 1]);
		if (lo < 0)
			return -1;
		oid->hash[i] = (hi << 4) | lo;
	}
	return 0;
}

int parse_oid_hex(const char *hex, struct object_id *oid, const char **end)
{
	if (get_oid_hex(hex, oid))
		return -1;
	*end = hex + HEX_SZ;
	return 0;
}
