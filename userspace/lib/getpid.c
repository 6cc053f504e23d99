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
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
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
		    libpidfd_priv_kernel().info)
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

/*
 * libpidfd_get_id(): the process's identity, what a pidfd's fstat() says
 * in st_ino where every process has an inode of its own: every module
 * pidfd, and the kernel's from 6.9 (pidfs, f_type PID_FS_MAGIC), where
 * the two kinds give the same number. A kernel pidfd on an older kernel
 * shares one anon inode with every other: the identity is then its
 * module twin's (converted as libpidfd_to_module() does, race-free).
 */
#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC	0x50494446
#endif

static int ino_of(int fd, uint64_t *id)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	*id = (uint64_t)st.st_ino;
	return 0;
}

/* Is @fd on pidfs? 1, 0, or -1 with errno. */
static int on_pidfs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return -1;
	return sfs.f_type == PID_FS_MAGIC;
}

int libpidfd_get_id(int pidfd, uint64_t *id)
{
	struct libpidfd_held held;
	int kind, pidfs, ret;

	if (!id) {
		errno = EINVAL;
		return -1;
	}
	kind = libpidfd_priv_is_self(pidfd) ? LIBPIDFD_BACKEND_NATIVE :
					       libpidfd_pidfd_backend(pidfd);
	if (kind < 0)
		return -1;
	if (kind == LIBPIDFD_BACKEND_MODULE)
		return ino_of(pidfd, id);

	if (libpidfd_priv_is_self(pidfd) && !libpidfd_priv_kernel().open)
		pidfs = 0;
	else if (libpidfd_priv_hold(pidfd, LIBPIDFD_BACKEND_NATIVE, &held) < 0)
		return -1;
	else {
		pidfs = on_pidfs(held.fd);
		ret = pidfs == 1 ? ino_of(held.fd, id) : pidfs;
		libpidfd_priv_release(&held);
		if (pidfs != 0)
			return ret;
	}
	/* A kernel without pidfs: the module's number, if it may be used. */
	if (libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (libpidfd_priv_hold(pidfd, LIBPIDFD_BACKEND_MODULE, &held) < 0)
		return -1;
	ret = ino_of(held.fd, id);
	libpidfd_priv_release(&held);
	return ret;
}
