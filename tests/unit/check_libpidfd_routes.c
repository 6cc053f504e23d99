// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The route table of docs/libpidfd.md is the one the VM suites run
 * (tests/guest/lib/libpidfd_routes.h): rendered here and compared, so the
 * document cannot drift from what is tested. On a mismatch the test prints
 * the table to paste.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../guest/lib/libpidfd_routes.h"
#include "../lib/check_glue.h"

#define DOC "docs/libpidfd.md"
#define BEGIN "<!-- routes: generated from tests/guest/lib/libpidfd_routes.h -->\n"
#define END "<!-- routes: end -->\n"

static void since_text(char *buf, size_t len, int major, int minor)
{
	if (major == 0)
		snprintf(buf, len, "every kernel (5.10+)");
	else if (major == 99)
		snprintf(buf, len, "never: only the module");
	else
		snprintf(buf, len, "%d.%d", major, minor);
}

static char *render(void)
{
	static char out[8192];
	char since[64];
	size_t used;

	used = (size_t)snprintf(out, sizeof(out), "%s%s", BEGIN,
				"| call | without the module, from | before that | route |\n"
				"|---|---|---|---|\n");
#define ROUTE_LINE(id, call, major, minor, before, route) \
	since_text(since, sizeof(since), major, minor); \
	used += (size_t)snprintf(out + used, sizeof(out) - used, \
				 "| `%s` | %s | `%s` | %s |\n", call, since, \
				 #before, route);
	LIBPIDFD_ROUTES(ROUTE_LINE)
#undef ROUTE_LINE
	snprintf(out + used, sizeof(out) - used, "%s", END);
	return out;
}

static char *read_doc(void)
{
	static char text[65536];
	FILE *f = fopen(DOC, "r");
	size_t n;

	ck_assert_msg(f, "%s: run from the top of the tree", DOC);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

START_TEST(doc_table_is_the_tested_one)
{
	char *doc = read_doc(), *want = render();
	char *begin = strstr(doc, BEGIN), *end;

	ck_assert_msg(begin, "%s has no \"%.*s\" marker", DOC,
		      (int)strlen(BEGIN) - 1, BEGIN);
	end = strstr(begin, END);
	ck_assert_msg(end, "%s: no end marker", DOC);
	end += strlen(END);
	ck_assert_msg((size_t)(end - begin) == strlen(want) &&
		      !strncmp(begin, want, strlen(want)),
		      "%s's route table differs from the tested one; it "
		      "should read:\n%s", DOC, want);
}
END_TEST

PT_SUITE_MAIN("libpidfd_routes", doc_table_is_the_tested_one)
