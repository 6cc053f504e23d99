// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a suite with one test that runs and one that cannot.
 * The run passes, and vm/run and vm/check must count and show the skip.
 */
#include "../lib/check_glue.h"

START_TEST(runs)
{
	ck_assert_int_eq(1 + 1, 2);
}
END_TEST

START_TEST(skipped_case)
{
	PT_SKIP("harness self-test: this skip is deliberate");
	ck_abort_msg("PT_SKIP did not return");
}
END_TEST

PT_SUITE_MAIN("skip", runs, skipped_case)
