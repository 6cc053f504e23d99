// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ioctl(): pidfs's own commands (type 0xFF) on a kernel pidfd where the
 * kernel lacks them: the namespace ioctls before 6.11, PIDFD_GET_INFO
 * before 6.13. The module answers the same commands on its own pidfds, so
 * those never need us; a kernel pidfd is converted to a module one for
 * the call. Every other request goes straight on, decided by its type
 * byte before anything else.
 */
#include <errno.h>
#include <linux/ioctl.h>

#include "libpidfd.h"
#include "internal.h"
#include "preload.h"

bool preload_pidfs_ioctl(unsigned long req)
{
	if (_IOC_TYPE(req) != PIDFS_IOCTL_MAGIC)
		return false;
	/* PIDFD_GET_INFO, with the caller's struct size. */
	if (_IOC_NR(req) == _IOC_NR(PIDFD_DEV_GET_INFO))
		return _IOC_DIR(req) == (_IOC_READ | _IOC_WRITE);
	return _IOC_DIR(req) == _IOC_NONE && !_IOC_SIZE(req) &&
	       _IOC_NR(req) >= _IOC_NR(PIDFD_GET_CGROUP_NAMESPACE) &&
	       _IOC_NR(req) <= _IOC_NR(PIDFD_GET_UTS_NAMESPACE);
}

int preload_after_pidfs_ioctl(int ret, int fd, unsigned long req, void *arg)
{
	bool info = _IOC_NR(req) == _IOC_NR(PIDFD_DEV_GET_INFO);
	struct libpidfd_held held;
	int err = errno;

	/*
	 * ENOTTY from a kernel without the command; EINVAL from 6.11 and
	 * 6.12's pidfs for any command with an argument (GET_INFO).
	 */
	if (ret >= 0 || (err != ENOTTY && err != EINVAL) ||
	    !preload_pidfs_ioctl(req) ||
	    (info ? libpidfd_priv_kernel().info :
		    libpidfd_priv_kernel().namespaces) ||
	    libpidfd_priv_kernel_pidfd(fd) != 1 ||
	    !libpidfd_priv_module_known()) {
		errno = err;
		return ret;
	}
	if (libpidfd_priv_hold(fd, LIBPIDFD_BACKEND_MODULE, &held) < 0)
		return -1;	/* ESRCH: reaped; nothing recorded its exit */
	ret = preload_next_ioctl(held.fd, req, arg);
	libpidfd_priv_release(&held);
	return ret;
}

typedef int ioctl_fn(int, unsigned long, ...);

static int __attribute__((noinline))
ioctl_rest(int fd, unsigned long req, void *arg)
{
	ioctl_fn *next = (ioctl_fn *)preload_next(NEXT_IOCTL);
	int ret;

	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	ret = next(fd, req, arg);
	if (ret >= 0 || _IOC_TYPE(req) != PIDFS_IOCTL_MAGIC)
		return ret;
	return preload_after_pidfs_ioctl(ret, fd, req, arg);
}

/*
 * glibc declares ioctl(int, unsigned long, ...); every request takes at
 * most one argument, which a variadic caller passes where this
 * definition reads it (the third integer register, x86-64 and arm64).
 * Defined so, without <sys/ioctl.h>, a passed-through request costs a
 * load, two comparisons and a jump (bench/bench_interpose.c).
 */
PRELOAD_EXPORT int ioctl(int fd, unsigned long req, void *arg);

PRELOAD_EXPORT int ioctl(int fd, unsigned long req, void *arg)
{
	ioctl_fn *next = (ioctl_fn *)preload_next_resolved(NEXT_IOCTL);

	if (__builtin_expect(next && _IOC_TYPE(req) != PIDFS_IOCTL_MAGIC, 1))
		return next(fd, req, arg);
	return ioctl_rest(fd, req, arg);
}
