/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debug suites' fault injection: the n-th slab allocation or user copy
 * of the calling thread fails (/proc/thread-self/fail-nth; the kernel needs
 * CONFIG_FAULT_INJECTION, FAILSLAB and FAULT_INJECTION_USERCOPY).
 */
#ifndef FAULT_INJECT_H
#define FAULT_INJECT_H

#include <stdbool.h>

#define FI_FAIL_NTH	"/proc/thread-self/fail-nth"

/* GFP_KERNEL allocations fail too, and no stack trace per fault. Asserts. */
void fi_setup(void);
/* The calling thread's @n-th fault site from now on fails. Asserts. */
void fi_arm(unsigned int n);
/*
 * Disarms. Did the armed fault fire? When @left is not NULL, it gets how
 * many sites were still to go (0 once it fired).
 */
bool fi_disarm(unsigned int *left);
/* An errno a failed allocation or user copy may give a caller. */
bool fi_clean_errno(int err);

#endif
