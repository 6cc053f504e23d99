/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Check glue every suite shares, host and guest alike: a tcase with
 * the standard timeout, its tests added from a list, and main()'s run of
 * a suite. Header-only, so that
 * the host's unit tests and the harness's own programs take it without
 * linking the guest helpers.
 */
#ifndef CHECK_GLUE_H
#define CHECK_GLUE_H

#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pt_process.h"	/* pt_errname() */

/* Generous per-tcase timeout: the guest runs under TCG, ~10x slower. */
#define PT_TIMEOUT		60

/* A tcase with the standard timeout, added to @s. */
static inline TCase *pt_tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, PT_TIMEOUT);
	suite_add_tcase(s, tc);
	return tc;
}

/*
 * Adds the tests listed to @tc and returns it:
 * pt_add_tests(pt_tcase(s, "open"), test_a, test_b).
 */
#define pt_add_tests(tc, ...) \
	pt_add_test_list((tc), (const TTest *const[]){ __VA_ARGS__, NULL })

static inline TCase *pt_add_test_list(TCase *tc, const TTest *const *tests)
{
	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	return tc;
}

/* Asserts that @expr returned -1 with errno @err. */
#define ck_assert_errno(expr, err) do { \
	errno = 0; \
	long __r = (long)(expr); \
	int __e = errno; \
	ck_assert_msg(__r == -1 && __e == (err), \
		      "%s: expected -1/%s, got %ld/%s", #expr, \
		      pt_errname(err), __r, \
		      __r == -1 ? pt_errname(__e) : "-"); \
} while (0)

/* Asserts that @expr returned >= 0, reporting errno otherwise. */
#define ck_assert_ok(expr) ({ \
	errno = 0; \
	long __r = (long)(expr); \
	int __e = errno; \
	ck_assert_msg(__r >= 0, "%s failed: %ld/%s", #expr, __r, \
		      pt_errname(__e)); \
	__r; \
})

/*
 * A test that cannot run here says so: one line "SKIP <test>: <reason>" on
 * stdout, which vm/run counts and vm/check shows per kernel (a silent
 * return would count as a pass). One write(2), so that lines of tests
 * running at once never interleave.
 */
static inline void __attribute__((format(printf, 2, 3)))
pt_skip_line(const char *test, const char *fmt, ...)
{
	char line[512];
	size_t len = strlen(test);
	int n;
	va_list ap;

	/* START_TEST(name) defines name_fn(): report the test's own name. */
	if (len > 3 && !strcmp(test + len - 3, "_fn"))
		len -= 3;
	/* A name that long would leave no room: keep the line's shape. */
	if (len > 128)
		len = 128;
	n = snprintf(line, sizeof(line), "SKIP %.*s: ", (int)len, test);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	fflush(stdout);
	if (write(STDOUT_FILENO, line, n) != n)
		ck_abort_msg("cannot report the skip: %m");
}

/* Skips the running test (a return from it) with a reason. */
#define PT_SKIP(...) do { \
	pt_skip_line(__func__, __VA_ARGS__); \
	return; \
} while (0)

/*
 * Skips the test for want of @what when @cond, the test's own
 * precondition, does not hold. If the run-time probe @has (the one the
 * library uses, never a version number) says this kernel has @what, the
 * test fails instead: that skip would hide a test that can run here.
 */
#define PT_SKIP_UNLESS(cond, has, what) do { \
	if (!(cond)) { \
		ck_assert_msg(!(has), "%s: skipped, but this kernel has it", \
			      (what)); \
		PT_SKIP("this kernel has no %s", (what)); \
	} \
} while (0)

/* The usual main(): runs @s in fork mode, exit status 0 if all passed. */
static inline int pt_main(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	/* Each test in its own process, whatever CK_FORK says. */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * main() of a suite with one tcase of the same name, @timeout seconds
 * long, run by @run (pt_main() or a suite's own):
 * PT_SUITE_MAIN_WITH(pt_main, PT_TIMEOUT, "peer", test_a, test_b).
 */
#define PT_SUITE_MAIN_WITH(run, timeout, name, ...)			\
int main(void)								\
{									\
	Suite *s = suite_create(name);					\
	TCase *tc = pt_tcase(s, name);					\
									\
	tcase_set_timeout(tc, (timeout));				\
	pt_add_tests(tc, __VA_ARGS__);					\
	return run(s);							\
}

/* The same with the standard timeout, run by pt_main(). */
#define PT_SUITE_MAIN(name, ...) \
	PT_SUITE_MAIN_WITH(pt_main, PT_TIMEOUT, name, __VA_ARGS__)

#endif
