// SPDX-License-Identifier: GPL-2.0
/*
 * escape_test.c - JSON and XML escaping, UTF-8 validation.
 */
#include <stdlib.h>
#include <string.h>
#include "emu_test.h"
#include "escape.h"

/* run fn on s, return what it wrote (malloc'd) */
static char *run(int (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

#define ESCAPES(fn, in, want) do {		\
	char *__o = run(fn, in);		\
	ASSERT_STREQ(want, __o);		\
	free(__o);				\
} while (0)

TEST(utf8_sequences)
{
	ASSERT_EQ(1, utf8_seq_len((const unsigned char *)"a"));
	ASSERT_EQ(2, utf8_seq_len((const unsigned char *)"\xc2\xb5"));
	ASSERT_EQ(3, utf8_seq_len((const unsigned char *)"\xe2\x82\xac"));
	ASSERT_EQ(4, utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80"));
	ASSERT_EQ(0, utf8_seq_len((const unsigned char *)"\xff"));
	ASSERT_EQ(0, utf8_seq_len((const unsigned char *)"\xc0\xaf"));	/* overlong */
	ASSERT_EQ(0, utf8_seq_len((const unsigned char *)"\xe0\x80\xaf"));	/* overlong */
	ASSERT_EQ(0, utf8_seq_len((const unsigned char *)"\xed\xa0\x80"));	/* surrogate */
	ASSERT_EQ(0, utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80"));	/* > U+10FFFF */
	ASSERT_EQ(0, utf8_seq_len((const unsigned char *)"\xe2\x82"));	/* cut short */
}

TEST(json_strings)
{
	ESCAPES(escape_json, "plain", "\"plain\"");
	ESCAPES(escape_json, NULL, "\"\"");
	ESCAPES(escape_json, "a\"b\\c", "\"a\\\"b\\\\c\"");
	ESCAPES(escape_json, "\n\x01", "\"\\u000a\\u0001\"");
	ESCAPES(escape_json, "\xc2\xb5s \xff", "\"\xc2\xb5s ?\"");
}

TEST_HARNESS_MAIN
