// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ioctl(): pidfs's own commands (type 0xFF) on a kernel pidfd where the
 * kernel lacks them: the namespace ioctls before 6.11, PIDFD_GET_INFO
 * before 6.13. The module answers the same commands on its own pidfds, so
 * those never need us; a kernel pidfd is converted to a module one for
 * the call. Every other request goes straight on, decided by its type
 * byte before anything else.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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

/* ioctl_rest() where a pointer to the next ioctl() would be. */
static int ioctl_first(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return ioctl_rest(fd, req, arg);
}

/*
 * Where ioctl() passes a request that is not pidfs's: the next ioctl()
 * from our constructor on, ioctl_first() before it (another object's
 * constructor), or for ever where there is no next one. Never NULL, so
 * the path passed through tests nothing but the request.
 */
static ioctl_fn *pass_to = ioctl_first;

__attribute__((constructor)) static void resolve_pass_to(void)
{
	ioctl_fn *next = (ioctl_fn *)preload_next(NEXT_IOCTL);

	if (next)
		__atomic_store_n(&pass_to, next, __ATOMIC_RELAXED);
}

/*
 * The type is the second byte: 0xff exactly where the low 16 bits are at
 * least 0xff00, one comparison.
 */
static_assert(_IOC_NRSHIFT == 0 && _IOC_TYPESHIFT == 8 && _IOC_TYPEBITS == 8,
	      "the request's type is its second byte");

/*
 * glibc declares ioctl(int, unsigned long, ...); every request takes at
 * most one argument, which a variadic caller passes where this
 * definition reads it (the third integer register, x86-64 and arm64).
 * Defined so, without <sys/ioctl.h>, a passed-through request costs a
 * load, one comparison and a jump (bench/bench_interpose.c).
 */
PRELOAD_EXPORT int ioctl(int fd, unsigned long req, void *arg);

PRELOAD_EXPORT int ioctl(int fd, unsigned long req, void *arg)
{
	ioctl_fn *next = __atomic_load_n(&pass_to, __ATOMIC_RELAXED);

	if (__builtin_expect((uint16_t)req < PIDFS_IOCTL_MAGIC << 8, 1))
		return next(fd, req, arg);
	return ioctl_rest(fd, req, arg);
}
