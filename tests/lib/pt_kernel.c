// SPDX-License-Identifier: GPL-2.0
/* Run-time probes of the kernel's features: see pt_kernel.h. */
#include "pt_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/pidfd_dev.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD			0x00001000
#endif
#ifndef P_PIDFD
#define P_PIDFD				3
#endif
#define PT_LANDLOCK_CREATE_RULESET_VERSION	(1U << 0)
#define PT_SO_PEERPIDFD				77

/* pidfd_open(2) of ourselves with @flags: the fd, or -1 and errno. */
static int self_pidfd(unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, getpid(), flags);
}

/* Closes @fd (if open) keeping errno; returns @ret. */
static bool close_keep(int fd, bool ret)
{
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
	return ret;
}

/* A raw call on our own pidfd: true unless it failed with @absent. */
static bool self_call_not(int absent, int (*call)(int fd, void *arg),
			  void *arg)
{
	int fd = self_pidfd(0), ret;

	if (fd < 0)
		return errno != ENOSYS;	/* no pidfds at all, or cannot tell */
	errno = 0;
	ret = call(fd, arg);
	return close_keep(fd, ret >= 0 || errno != absent);
}

bool pt_kernel_has_peerpidfd(void)
{
	socklen_t len = sizeof(int);
	int sv[2], fd = -1, ret, err;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return true;	/* cannot tell: let the test find out */
	ret = getsockopt(sv[0], SOL_SOCKET, PT_SO_PEERPIDFD, &fd, &len);
	err = errno;
	close(sv[0]);
	close(sv[1]);
	if (ret == 0)
		close(fd);
	return ret == 0 || err != ENOPROTOOPT;
}

bool pt_kernel_has_pidfd_open(void)
{
	int fd = self_pidfd(0);

	return close_keep(fd, fd >= 0 || errno != ENOSYS);
}

bool pt_kernel_has_pidfd_thread(void)
{
	int fd = (int)syscall(SYS_pidfd_open, (pid_t)syscall(SYS_gettid),
			      PIDFD_THREAD);

	return close_keep(fd, fd >= 0 || (errno != EINVAL && errno != ENOSYS));
}

static int signal_group_0(int fd, void *arg)
{
	(void)arg;
	return (int)syscall(SYS_pidfd_send_signal, fd, 0, NULL,
			    PIDFD_SIGNAL_THREAD_GROUP);
}

bool pt_kernel_has_signal_scope(void)
{
	return self_call_not(EINVAL, signal_group_0, NULL);
}

static int get_uts_ns(int fd, void *arg)
{
	int ns = ioctl(fd, PIDFD_GET_UTS_NAMESPACE, 0);

	(void)arg;
	close_keep(ns, true);
	return ns;
}

bool pt_kernel_has_ns_ioctls(void)
{
	return self_call_not(ENOTTY, get_uts_ns, NULL);
}

static int get_info(int fd, void *arg)
{
	struct pidfd_dev_info *info = arg;

	return ioctl(fd, PIDFD_DEV_GET_INFO, info);
}

/*
 * ENOTTY where the kernel's pidfds take no ioctls, or other ones; EINVAL
 * on 6.11 and 6.12, whose pidfs refuses any ioctl with an argument before
 * it looks at the command.
 */
static int get_info_absent(int fd, void *arg)
{
	int ret = get_info(fd, arg);

	if (ret < 0 && errno == EINVAL)
		errno = ENOTTY;
	return ret;
}

bool pt_kernel_has_get_info(void)
{
	struct pidfd_dev_info info;

	memset(&info, 0, sizeof(info));
	return self_call_not(ENOTTY, get_info_absent, &info);
}

bool pt_kernel_has_info_exit(void)
{
	struct pidfd_dev_info info;
	int pidfd = -1;
	siginfo_t si;
	bool kept;
	long pid;

	if (!pt_kernel_has_get_info())
		return false;
	/* No exit signal: only __WCLONE waits for it; it runs only exit. */
	pid = syscall(SYS_clone, CLONE_PIDFD, NULL, &pidfd, NULL, NULL);
	if (pid == 0)
		syscall(SYS_exit, 0);
	if (pid < 0)
		return true;	/* cannot tell: let the test find out */
	memset(&si, 0, sizeof(si));
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &si, WEXITED | __WCLONE) < 0)
		kept = true;	/* cannot tell */
	else if (ioctl(pidfd, PIDFD_DEV_GET_INFO, &info) == 0)
		kept = info.mask & PIDFD_INFO_EXIT;
	else
		kept = errno != ESRCH;	/* reaped, nothing kept */
	return close_keep(pidfd, kept);
}

bool pt_kernel_has_info_coredump(void)
{
	struct pidfd_dev_info info;
	int fd = self_pidfd(0);
	bool has;

	if (fd < 0)
		return errno != ENOSYS;
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_COREDUMP;
	if (get_info_absent(fd, &info) == 0)
		has = info.mask & PIDFD_INFO_COREDUMP;
	else
		has = errno != ENOTTY;
	return close_keep(fd, has);
}

int pt_landlock_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0,
			 PT_LANDLOCK_CREATE_RULESET_VERSION);

	return v < 0 ? 0 : (int)v;
}

bool pt_kernel_has_landlock(void)
{
	return pt_landlock_abi() > 0 ||
	       (errno != ENOSYS && errno != EOPNOTSUPP);
}

char *pt_klog_read(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}
