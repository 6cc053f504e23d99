/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the differential suites (check_differential_*.c) share: the
 * documented differences each may assert, a pidfd of each backend for the
 * same process, and their main(). The backends themselves are
 * diff_backend.h's.
 */
#ifndef DIFFERENTIAL_H
#define DIFFERENTIAL_H

#include <check.h>
#include <errno.h>

#include "diff_backend.h"
#include "pidfd_test.h"

#define TIMEOUT 120		/* per tcase; TCG is ~10x slower */
#define WAIT_MS 10000

/* The running kernel's native features (set by diff_main()). */
extern const struct db_features *diff_feat;

/* The documented differences (docs/differences.md), each asserted. */
enum diff_id {
	D_SIGCONT_SESSION,
	D_PROCESS_SIGINFO_QUEUE,
	D_POLLHUP,
	D_THREAD_POLL,
	D_FILE_TYPE,
	D_WAITID,
	D_SIGNAL_POLICY,
	D_NR
};

/* Says in the output that difference @d was asserted, and how. */
void diff_asserted(enum diff_id d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* -1/errno -> errno, >= 0 -> 0 */
static inline int diff_res(long ret, int err)
{
	return ret < 0 ? err : 0;
}

#define CALL(expr) ({ errno = 0; long __r = (long)(expr); diff_res(__r, errno); })

/* Both backends' pidfds for @pid, @flags. */
struct pair {
	int fd[2];	/* [DB_NATIVE], [DB_MODULE] */
	int err[2];
};

struct pair open_pair(pid_t pid, unsigned int flags);
void close_pair(struct pair *p);

/*
 * An ioctl the kernel's pidfd does not know: ENOTTY, except on 6.11 and
 * 6.12, whose pidfs ioctl handler (namespace ioctls only) refuses a
 * non-zero argument with EINVAL before looking at the command.
 */
int native_unknown_ioctl_errno(void);

/* A target process with credentials @c (in a session of its own). */
void start_target(struct db_target *t, const struct db_creds *c, bool setsid);

/* Runs @s with the module as libpidfd's side; the exit status. */
int diff_main(Suite *s);
/* pt_tcase() with the differential suites' longer timeout. */
TCase *diff_tcase(Suite *s, const char *name);

#endif
