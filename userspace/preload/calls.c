// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's own wrappers of the pidfd calls (2.36: pidfd_open,
 * pidfd_send_signal, pidfd_getfd, process_madvise, process_mrelease; setns
 * and waitid always): the program's
 * call to the next definition (libc's, or the system call where this libc
 * has none), then pidfd.c. Declared here, not from <sys/pidfd.h>, which
 * glibc 2.31 does not have.
 */
#include <errno.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "libpidfd.h"
#include "preload.h"

int pidfd_open(pid_t pid, unsigned int flags);
int pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
		      unsigned int flags);
int pidfd_getfd(int pidfd, int targetfd, unsigned int flags);
ssize_t process_madvise(int pidfd, const struct iovec *iov, size_t n,
			int advice, unsigned int flags);
int process_mrelease(int pidfd, unsigned int flags);

PRELOAD_EXPORT int pidfd_open(pid_t pid, unsigned int flags)
{
	int ret = preload_next_pidfd_open(pid, flags);

	return preload_after_open(ret, pid, flags);
}

PRELOAD_EXPORT int pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	int ret = preload_next_pidfd_send_signal(pidfd, sig, info, flags);

	if (ret == 0)
		return 0;
	return preload_after_send_signal(ret, pidfd, sig, info, flags);
}

/* The calls only the kernel makes: pidfd.c. */
static long kernel_only(int i, long nr, const long a[6], int refusal)
{
	long ret = preload_next_call(i, nr, a);

	if (ret >= 0)
		return ret;
	return preload_after_kernel_only(ret, nr, a, refusal);
}

PRELOAD_EXPORT int pidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	const long a[6] = { pidfd, targetfd, (long)flags };

	return (int)kernel_only(NEXT_PIDFD_GETFD, PRELOAD_SYS_pidfd_getfd, a,
				EBADF);
}

PRELOAD_EXPORT int setns(int fd, int nstype)
{
	const long a[6] = { fd, nstype };

	return (int)kernel_only(NEXT_SETNS, SYS_setns, a, EINVAL);
}

PRELOAD_EXPORT ssize_t process_madvise(int pidfd, const struct iovec *iov,
				       size_t n, int advice,
				       unsigned int flags)
{
	const long a[6] = { pidfd, (long)iov, (long)n, advice, (long)flags };

	return kernel_only(NEXT_PROCESS_MADVISE, PRELOAD_SYS_process_madvise,
			   a, EBADF);
}

PRELOAD_EXPORT int process_mrelease(int pidfd, unsigned int flags)
{
	const long a[6] = { pidfd, (long)flags };

	return (int)kernel_only(NEXT_PROCESS_MRELEASE,
				PRELOAD_SYS_process_mrelease, a, EBADF);
}

PRELOAD_EXPORT int waitid(idtype_t idtype, id_t id, siginfo_t *info,
			  int options)
{
	typedef int waitid_fn(idtype_t, id_t, siginfo_t *, int);
	waitid_fn *next = (waitid_fn *)preload_next_resolved(NEXT_WAITID);
	int ret;

	/* Not P_PIDFD: passed on, and nothing more. */
	if (__builtin_expect(next && idtype != PRELOAD_P_PIDFD, 1))
		return next(idtype, id, info, options);
	ret = preload_next_waitid(idtype, id, info, options);
	if (ret == 0 || idtype != PRELOAD_P_PIDFD)
		return ret;
	return preload_after_waitid(ret, idtype, id, info, options, NULL);
}
