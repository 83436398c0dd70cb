// SPDX-License-Identifier: GPL-2.0
/*
 * escape.c - JSON and XML text escaping with UTF-8 validation.
 */
#include "escape.h"

static int cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

int utf8_seq_len(const unsigned char *s)
{
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return cont(s[1]) ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if (!cont(s[1]) || !cont(s[2]))
			return 0;
		cp = (s[0] & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		/* no overlong forms, no UTF-16 surrogates */
		return cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff) ? 3 : 0;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if (!cont(s[1]) || !cont(s[2]) || !cont(s[3]))
			return 0;
		cp = (s[0] & 0x07) << 18 | (s[1] & 0x3f) << 12 |
		     (s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		return cp >= 0x10000 && cp <= 0x10ffff ? 4 : 0;
	}
	return 0;
}

/* s[0] is >= 0x80: copy its sequence or write '?'; returns bytes used */
static int put_utf8(FILE *f, const unsigned char *s, int *err)
{
	int n = utf8_seq_len(s);

	if (!n) {
		*err |= fputc('?', f) == EOF;
		return 1;
	}
	*err |= fwrite(s, 1, n, f) != (size_t)n;
	return n;
}

int escape_json(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	int err = fputc('"', f) == EOF;

	while (*s) {
		if (*s >= 0x80) {
			s += put_utf8(f, s, &err);
			continue;
		}
		if (*s == '"' || *s == '\\')
			err |= fprintf(f, "\\%c", *s) < 0;
		else if (*s < 0x20)
			err |= fprintf(f, "\\u%04x", *s) < 0;
		else
			err |= fputc(*s, f) == EOF;
		s++;
	}
	err |= fputc('"', f) == EOF;
	return err ? -1 : 0;
}
