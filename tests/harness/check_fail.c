// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a Check suite with one failing test. The VM run that
 * includes it must fail, and say that this suite failed.
 */
#include <check.h>
#include <stdlib.h>
#include "../lib/check_glue.h"

START_TEST(test_passes)
{
	ck_assert_int_eq(1, 1);
}
END_TEST

START_TEST(test_fails_on_purpose)
{
	ck_assert_msg(0, "harness self-test: this failure is deliberate");
}
END_TEST

PT_SUITE_MAIN("harness-fail", test_passes, test_fails_on_purpose)
