// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscall(3) for the pidfd system calls, as Python's os.pidfd_open() and
 * signal.pidfd_send_signal() make them (and process_madvise,
 * process_mrelease), and for waitid, setns, ioctl and clone3 (the child's
 * pidfd):
 * the call made as the program made it, then what pidfd.c and ioctl.c do
 * after it. Any other number is passed on at once.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <linux/ioctl.h>
#include <sys/syscall.h>

#include "libpidfd.h"
#include "preload.h"

typedef long syscall_fn(long, ...);

static long after(long ret, long nr, const long a[6])
{
	switch (nr) {
	case PRELOAD_SYS_pidfd_open:
		return preload_after_open((int)ret, (pid_t)a[0],
					  (unsigned int)a[1]);
	case PRELOAD_SYS_pidfd_send_signal:
		return preload_after_send_signal((int)ret, (int)a[0],
						 (int)a[1],
						 (const siginfo_t *)a[2],
						 (unsigned int)a[3]);
	case PRELOAD_SYS_pidfd_getfd:
	case PRELOAD_SYS_process_madvise:
	case PRELOAD_SYS_process_mrelease:
		return preload_after_kernel_only(ret, nr, a, EBADF);
	case SYS_setns:
		return preload_after_kernel_only(ret, nr, a, EINVAL);
	case PRELOAD_SYS_clone3:
		return preload_after_clone3(ret, (const void *)a[0],
					    (unsigned long)a[1]);
	case SYS_waitid:
		return preload_after_waitid((int)ret, (idtype_t)a[0],
					    (id_t)a[1], (siginfo_t *)a[2],
					    (int)a[3], (struct rusage *)a[4]);
	case SYS_ioctl:
		return preload_after_pidfs_ioctl((int)ret, (int)a[0],
						 (unsigned long)a[1],
						 (void *)a[2]);
	}
	return ret;
}

/* The numbers after() looks at, as bits of a map: all below 512. */
#define BIT(nr) (UINT64_C(1) << ((nr) & 63))
static const uint64_t interposed[8] = {
	[SYS_ioctl >> 6] = BIT(SYS_ioctl),
	[SYS_waitid >> 6] = BIT(SYS_waitid),
	[SYS_setns >> 6] = BIT(SYS_setns),
	[PRELOAD_SYS_pidfd_open >> 6] =
		BIT(PRELOAD_SYS_pidfd_send_signal) | BIT(PRELOAD_SYS_pidfd_open) |
		BIT(PRELOAD_SYS_clone3) | BIT(PRELOAD_SYS_pidfd_getfd) |
		BIT(PRELOAD_SYS_process_madvise),
	[PRELOAD_SYS_process_mrelease >> 6] = BIT(PRELOAD_SYS_process_mrelease),
};

/* Each word above holds the numbers it names, and no two share one. */
static_assert(PRELOAD_SYS_pidfd_send_signal >> 6 == PRELOAD_SYS_pidfd_open >> 6 &&
	      PRELOAD_SYS_pidfd_getfd >> 6 == PRELOAD_SYS_pidfd_open >> 6 &&
	      PRELOAD_SYS_clone3 >> 6 == PRELOAD_SYS_pidfd_open >> 6 &&
	      PRELOAD_SYS_process_madvise >> 6 == PRELOAD_SYS_pidfd_open >> 6 &&
	      PRELOAD_SYS_process_mrelease >> 6 == 7 &&
	      PRELOAD_SYS_pidfd_open >> 6 == 6 && SYS_ioctl >> 6 < 6 &&
	      SYS_waitid >> 6 < 6 && SYS_setns >> 6 < 6 &&
	      SYS_ioctl >> 6 != SYS_waitid >> 6 && SYS_waitid >> 6 != SYS_setns >> 6 &&
	      SYS_ioctl >> 6 != SYS_setns >> 6,
	      "one word of the map per group of numbers");

static long __attribute__((noinline))
syscall_rest(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	syscall_fn *next = (syscall_fn *)preload_next(NEXT_SYSCALL);
	const long a[6] = { a0, a1, a2, a3, a4, a5 };
	long ret;

	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	ret = next(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if ((ret >= 0 && nr != PRELOAD_SYS_pidfd_open &&
	     nr != PRELOAD_SYS_clone3) ||
	    (nr == SYS_ioctl &&
	     _IOC_TYPE((unsigned long)a[1]) != PIDFS_IOCTL_MAGIC))
		return ret;
	return after(ret, nr, a);
}

/*
 * glibc declares syscall(long, ...), and its own reads six arguments
 * after the number whatever the call takes, from the registers and the
 * stack where a variadic caller puts them: so does this definition, which
 * is not variadic so that a passed-through call costs a load, a look in a
 * map and a jump. Its C name is another, as <unistd.h> (which <signal.h>
 * brings in) declares syscall() variadic; its symbol is syscall.
 */
PRELOAD_EXPORT long preload_syscall(long nr, long a0, long a1, long a2,
				    long a3, long a4, long a5)
	__asm__("syscall");

PRELOAD_EXPORT long preload_syscall(long nr, long a0, long a1, long a2,
				    long a3, long a4, long a5)
{
	syscall_fn *next = (syscall_fn *)preload_next_resolved(NEXT_SYSCALL);

	if (__builtin_expect(next && ((unsigned long)nr >= 512 ||
				      !(interposed[nr >> 6] & BIT(nr))), 1))
		return next(nr, a0, a1, a2, a3, a4, a5);
	return syscall_rest(nr, a0, a1, a2, a3, a4, a5);
}
