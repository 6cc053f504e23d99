// SPDX-License-Identifier: GPL-2.0
/*
 * The debug suites' fault injection (fault_inject.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "fault_inject.h"
#include "lsm_test.h"
#include "pidfd_test.h"

#define DEBUGFS		"/sys/kernel/debug"

void fi_setup(void)
{
	static const char *const knobs[][2] = {
		/* GFP_KERNEL allocations too, and no stack trace per fault. */
		{ DEBUGFS "/failslab/ignore-gfp-wait", "N" },
		{ DEBUGFS "/failslab/verbose", "0" },
		{ DEBUGFS "/fail_usercopy/verbose", "0" },
	};
	unsigned int i;

	if (access(DEBUGFS "/failslab", F_OK) < 0)
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		ck_assert_msg(lt_write_file(knobs[i][0], knobs[i][1]) == 0,
			      "%s: %s (not a fault-injection kernel?)",
			      knobs[i][0], strerror(errno));
	ck_assert_msg(access(FI_FAIL_NTH, W_OK) == 0, "%s: %s", FI_FAIL_NTH,
		      strerror(errno));
}

/*
 * /proc/thread-self/fail-nth, open for the whole test: opening it while a
 * fault is armed would take the fault itself.
 */
static int fail_nth_fd = -1;

void fi_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (fail_nth_fd < 0)
		fail_nth_fd = open(FI_FAIL_NTH, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fail_nth_fd >= 0, "%s: %s", FI_FAIL_NTH,
		      strerror(errno));
	/* The value is read from the buffer before it takes effect. */
	ck_assert_msg(pwrite(fail_nth_fd, buf, (size_t)len, 0) == len,
		      "%s: %s", FI_FAIL_NTH, strerror(errno));
}

/*
 * fail-nth reads 0 once the fault fired. The read's own copy to user
 * memory is a fault site too: if the fault fires there (EFAULT), the
 * operation did not reach it. The kernel formats the value before that
 * copy, so a read that works shows the count as the operation left it.
 */
bool fi_disarm(unsigned int *left)
{
	char buf[16] = "";
	unsigned int val = 0;
	ssize_t n;

	n = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);
	ck_assert_msg(n > 0 || errno == EFAULT, "%s: %s", FI_FAIL_NTH,
		      strerror(errno));
	if (n > 0)
		val = (unsigned int)strtoul(buf, NULL, 10);
	if (pwrite(fail_nth_fd, "0", 1, 0) != 1)
		ck_assert_msg(errno == EFAULT, "%s: %s", FI_FAIL_NTH,
			      strerror(errno));
	if (left)
		*left = val;
	return n > 0 && val == 0;
}

bool fi_clean_errno(int err)
{
	return err == ENOMEM || err == EFAULT || err == ENFILE ||
	       err == EMFILE || err == EAGAIN;
}
