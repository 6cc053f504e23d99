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

int main(void)
{
	Suite *s = suite_create("harness-fail");
	TCase *tc = pt_tcase(s, "deliberate");

	tcase_add_test(tc, test_passes);
	tcase_add_test(tc, test_fails_on_purpose);
	return pt_main(s);
}
