// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's own wrappers of the pidfd calls (2.36: pidfd_open,
 * pidfd_send_signal, pidfd_getfd; setns and waitid always): the program's
 * call to the next definition (libc's, or the system call where this libc
 * has none), then pidfd.c. Declared here, not from <sys/pidfd.h>, which
 * glibc 2.31 does not have.
 */
#include <errno.h>
#include <sched.h>
#include <sys/wait.h>

#include "libpidfd.h"
#include "preload.h"

int pidfd_open(pid_t pid, unsigned int flags);
int pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
		      unsigned int flags);
int pidfd_getfd(int pidfd, int targetfd, unsigned int flags);

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

PRELOAD_EXPORT int pidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	int ret = preload_next_pidfd_getfd(pidfd, targetfd, flags);

	if (ret >= 0)
		return ret;
	return preload_after_getfd(ret, pidfd, targetfd, flags);
}

PRELOAD_EXPORT int setns(int fd, int nstype)
{
	int ret = preload_next_setns(fd, nstype);

	if (ret == 0)
		return 0;
	return preload_after_setns(ret, fd, nstype);
}

PRELOAD_EXPORT int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	int ret = preload_next_waitid(idtype, id, info, options);

	if (ret == 0 || idtype != PRELOAD_P_PIDFD)
		return ret;
	return preload_after_waitid(ret, idtype, id, info, options, NULL);
}
