// SPDX-License-Identifier: GPL-2.0
/* The module's ioctls, raw: see pt_ioctl.h. */
#include "pt_ioctl.h"

#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int dev_fd = -1;

int pt_dev(void)
{
	/* A forked child shares the parent's fd; that is fine. */
	if (dev_fd >= 0)
		return dev_fd;
	dev_fd = open(PT_DEV_PATH, O_RDWR | O_CLOEXEC);
	return dev_fd;
}

void pt_dev_close(void)
{
	if (dev_fd >= 0)
		close(dev_fd);
	dev_fd = -1;
}

/* An ioctl of /dev/pidfd's: -1/errno if the device cannot be opened. */
static int dev_ioctl(unsigned long cmd, void *arg)
{
	int dev = pt_dev();

	return dev < 0 ? -1 : ioctl(dev, cmd, arg);
}

int pt_open(pid_t pid, unsigned int flags)
{
	struct pidfd_open_args args = { .pid = pid, .flags = flags };

	return dev_ioctl(PIDFD_DEV_OPEN, &args);
}

int pt_send_signal(int pidfd, int sig, const siginfo_t *info,
		   unsigned int flags)
{
	struct pidfd_signal_args args = {
		.sig = sig,
		.flags = flags,
		.info = (__u64)(uintptr_t)info,
	};

	return ioctl(pidfd, PIDFD_DEV_SEND_SIGNAL, &args);
}

int pt_get_info(int pidfd, struct pidfd_dev_info *info, uint64_t mask)
{
	memset(info, 0, sizeof(*info));
	info->mask = mask;
	return ioctl(pidfd, PIDFD_DEV_GET_INFO, info);
}

int pt_get_procfd(int pidfd, int procfd)
{
	return ioctl(pidfd, PIDFD_GET_PROCFD, procfd);
}

int pt_open_procdir(int dirfd, unsigned int flags)
{
	struct pidfd_open_procdir_args args = {
		.procdir = dirfd,
		.flags = flags,
	};
	return dev_ioctl(PIDFD_DEV_OPEN_PROCDIR, &args);
}

int pt_open_peer(int sockfd, unsigned int flags)
{
	struct pidfd_open_peer_args args = {
		.sockfd = sockfd,
		.flags = flags,
	};
	return dev_ioctl(PIDFD_DEV_OPEN_PEER, &args);
}
