// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscall(3) for the pidfd system calls, as Python's os.pidfd_open() and
 * signal.pidfd_send_signal() make them (and process_madvise,
 * process_mrelease), and for waitid, setns and ioctl:
 * the call made as the program made it, then what pidfd.c and ioctl.c do
 * after it. Any other number is passed on at once.
 */
#include <errno.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

PRELOAD_EXPORT long syscall(long nr, ...)
{
	syscall_fn *next = (syscall_fn *)preload_next(NEXT_SYSCALL);
	long a[6], ret;
	va_list ap;

	/* As syscall(3) itself: six arguments, whatever the call takes. */
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (__builtin_expect(!next, 0)) {
		errno = ENOSYS;
		return -1;
	}
	switch (nr) {
	case PRELOAD_SYS_pidfd_open:
	case PRELOAD_SYS_pidfd_send_signal:
	case PRELOAD_SYS_pidfd_getfd:
	case PRELOAD_SYS_process_madvise:
	case PRELOAD_SYS_process_mrelease:
	case SYS_setns:
	case SYS_waitid:
		break;
	case SYS_ioctl:
		if (_IOC_TYPE((unsigned long)a[1]) == PIDFS_IOCTL_MAGIC)
			break;
		/* fall through */
	default:
		return next(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	ret = next(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret >= 0 && nr != PRELOAD_SYS_pidfd_open)
		return ret;
	return after(ret, nr, a);
}
