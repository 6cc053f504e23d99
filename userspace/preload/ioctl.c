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
#include <stdarg.h>
#include <sys/ioctl.h>

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
	const struct libpidfd_native native = libpidfd_priv_kernel();
	struct libpidfd_held held;
	int err = errno;
	bool info = _IOC_NR(req) == _IOC_NR(PIDFD_DEV_GET_INFO);

	/*
	 * ENOTTY from a kernel without the command; EINVAL from 6.11 and
	 * 6.12's pidfs for any command with an argument (GET_INFO).
	 */
	if (ret >= 0 || (err != ENOTTY && err != EINVAL) ||
	    !preload_pidfs_ioctl(req) ||
	    (info ? native.info : native.namespaces) ||
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

PRELOAD_EXPORT int ioctl(int fd, unsigned long req, ...)
{
	ioctl_fn *next = (ioctl_fn *)preload_next(NEXT_IOCTL);
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (__builtin_expect(!next, 0)) {
		errno = ENOSYS;
		return -1;
	}
	/* Not pidfs's: passed on, and nothing more (a tail call). */
	if (__builtin_expect(_IOC_TYPE(req) != PIDFS_IOCTL_MAGIC, 1))
		return next(fd, req, arg);
	ret = next(fd, req, arg);
	if (ret >= 0)
		return ret;
	return preload_after_pidfs_ioctl(ret, fd, req, arg);
}
