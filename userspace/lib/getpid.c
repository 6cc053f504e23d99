// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpidfd_getpid(): glibc's pidfd_getpid(3) for both kinds of pidfd. A
 * module pidfd says its number itself (PIDFD_GET_INFO), which needs no
 * /proc and works after the caller dropped privileges. A kernel pidfd's
 * comes from the "Pid:" line of its fdinfo as glibc reads it (in the
 * calling thread's fd table: /proc/thread-self), and from
 * the kernel's PIDFD_GET_INFO (6.13) where /proc cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/* ESRCH once reaped; EREMOTE outside our pid namespace (module, 7.2). */
static pid_t pid_from_info(int pidfd)
{
	struct pidfd_dev_info info;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_PID;
	if (ioctl(pidfd, PIDFD_DEV_GET_INFO, &info) < 0)
		return -1;
	return (pid_t)info.pid;
}

pid_t libpidfd_getpid(int pidfd)
{
	pid_t nr;
	int kind;

	if (pidfd == PIDFD_SELF_THREAD)
		return gettid();
	if (pidfd == PIDFD_SELF_THREAD_GROUP)
		return getpid();
	kind = libpidfd_pidfd_backend(pidfd);
	if (kind < 0)
		return -1;
	if (kind == LIBPIDFD_BACKEND_MODULE)
		return pid_from_info(pidfd);

	if (libpidfd_priv_fdinfo_pid(pidfd, &nr) < 0) {
		/* No /proc, or not dumpable (5.10 reads fdinfo as ptrace). */
		if ((errno == ENOENT || errno == EACCES) &&
		    libpidfd_priv_kernel()->info)
			return pid_from_info(pidfd);
		if (errno == ENOENT && fcntl(pidfd, F_GETFD) < 0)
			errno = EBADF;	/* closed meanwhile */
		return -1;
	}
	if (nr == 0) {
		/* Not visible in the pid namespace of this /proc. */
		errno = EREMOTE;
		return -1;
	}
	if (nr == -1) {
		/* Exited and reaped: no task attached any more. */
		errno = ESRCH;
		return -1;
	}
	return nr;
}
