// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a test whose precondition fails while the probe says
 * the kernel has the feature. Such a skip would hide a test that can run:
 * PT_SKIP_UNLESS must fail it, and the run with it.
 */
#include "../lib/check_glue.h"

START_TEST(skip_of_present_feature)
{
	PT_SKIP_UNLESS(0, 1, "the harness's pretend feature");
}
END_TEST

PT_SUITE_MAIN("skip_present", skip_of_present_feature)
