// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module whose only job is to trigger WARN_ON(1) when
 * it is loaded. A VM run that loads it must fail on the kernel log check,
 * even though every test program passes.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init harness_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit harness_warn_exit(void)
{
}

module_init(harness_warn_init);
module_exit(harness_warn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pidfd-dkms harness self-test: WARN_ON(1) at load");
