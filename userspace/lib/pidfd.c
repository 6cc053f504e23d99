// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pidfd operations: each is one ioctl (or poll) on the module's
 * pidfd, with the module's errno passed through unchanged.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

int libpidfd_open(pid_t pid, unsigned int flags)
{
	struct pidfd_open_args args = { .pid = pid, .flags = flags };
	int ctl = libpidfd_priv_control_fd();

	if (ctl < 0)
		return -1;
	return ioctl(ctl, PIDFD_DEV_OPEN, &args);
}

int libpidfd_from_procdir(int dirfd, unsigned int flags)
{
	struct pidfd_open_procdir_args args = {
		.procdir = dirfd,
		.flags = flags,
	};
	int ctl = libpidfd_priv_control_fd();

	if (ctl < 0)
		return -1;
	return ioctl(ctl, PIDFD_DEV_OPEN_PROCDIR, &args);
}

int libpidfd_send_signal(int pidfd, int sig, const siginfo_t *info,
			 unsigned int flags)
{
	struct pidfd_signal_args args = {
		.sig = (__u32)sig,
		.flags = flags,
		.info = (__u64)(uintptr_t)info,
	};

	/*
	 * A negative signal would become a huge __u32 the module rejects
	 * with EINVAL anyway; say so here, as the syscall does.
	 */
	if (sig < 0) {
		errno = EINVAL;
		return -1;
	}
	return ioctl(pidfd, PIDFD_DEV_SEND_SIGNAL, &args);
}

int libpidfd_get_procfd(int pidfd, int procfd)
{
	return ioctl(pidfd, PIDFD_GET_PROCFD, procfd);
}

int libpidfd_open_procdir(int pidfd)
{
	int procfd, dirfd, saved;

	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -1;
	dirfd = libpidfd_get_procfd(pidfd, procfd);
	saved = errno;
	close(procfd);
	errno = saved;
	return dirfd;
}

int libpidfd_get_namespace(int pidfd, unsigned int cmd)
{
	/* _IO(0xFF, 1..10): refused here, never sent as another command. */
	if (_IOC_DIR(cmd) != _IOC_NONE || _IOC_SIZE(cmd) ||
	    _IOC_TYPE(cmd) != _IOC_TYPE(PIDFD_GET_UTS_NAMESPACE) ||
	    _IOC_NR(cmd) < _IOC_NR(PIDFD_GET_CGROUP_NAMESPACE) ||
	    _IOC_NR(cmd) > _IOC_NR(PIDFD_GET_UTS_NAMESPACE)) {
		errno = EINVAL;
		return -1;
	}
	return ioctl(pidfd, cmd, 0);
}

/* The ioctl's size field is 14 bits wide. */
#define IOC_SIZE_MAX ((1U << _IOC_SIZEBITS) - 1)

int libpidfd_get_info(int pidfd, struct pidfd_info *info, size_t size)
{
	if (size > IOC_SIZE_MAX) {
		errno = E2BIG;
		return -1;
	}
	/*
	 * PIDFD_GET_INFO with the caller's size in the command number: the
	 * module copies in and out that many bytes (any size from 64).
	 */
	return ioctl(pidfd, _IOC(_IOC_READ | _IOC_WRITE, _IOC_TYPE(PIDFD_GET_INFO),
				 _IOC_NR(PIDFD_GET_INFO), size), info);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int libpidfd_wait_exit(int pidfd, int timeout_ms)
{
	int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int left = timeout_ms;

	for (;;) {
		int ret = poll(&pfd, 1, left);

		if (ret > 0) {
			if (pfd.revents & POLLNVAL) {
				errno = EBADF;
				return -1;
			}
			if (pfd.revents & (POLLIN | POLLHUP))
				return 0;
			/* POLLERR alone: not a pidfd the module made. */
			errno = EINVAL;
			return -1;
		}
		if (ret == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (errno != EINTR)
			return -1;
		if (deadline >= 0) {
			int64_t rest = deadline - now_ms();

			left = rest > 0 ? (int)rest : 0;
		}
	}
}

int libpidfd_exit_status(int pidfd, int *status)
{
	struct pidfd_info info;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	if (libpidfd_get_info(pidfd, &info, sizeof(info)) < 0)
		return -1;
	if (!(info.mask & PIDFD_INFO_EXIT)) {
		/* Alive, or a zombie its parent has not reaped yet. */
		errno = EAGAIN;
		return -1;
	}
	if (status)
		*status = info.exit_code;
	return 0;
}
