// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * getsockopt(SOL_SOCKET, SO_PEERPIDFD) before 6.5, where the kernel says
 * ENOPROTOOPT: the module's PIDFD_DEV_OPEN_PEER, from the socket's own
 * record of its peer (never from a number), written back as the kernel's
 * option does (6.5's sock_getsockopt(): at most an int, *optlen the bytes
 * written). Where the module refuses (EACCES: an LSM or a cgroup-BPF
 * program it cannot ask, docs/security.md) or is not loaded, the kernel's
 * ENOPROTOOPT stands, and the program falls back as it does today.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"
#include "preload.h"

static int module_peer(int sockfd)
{
	struct pidfd_open_peer_args args = { .sockfd = sockfd, .flags = 0 };

	return libpidfd_priv_control_ioctl(PIDFD_DEV_OPEN_PEER,
					   (unsigned long)&args);
}

static int after_peerpidfd(int fd, void *val, socklen_t *lenp)
{
	socklen_t len, probe_len;
	int pidfd, type;

	if (libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE ||
	    !libpidfd_priv_module_known()) {
		errno = ENOPROTOOPT;
		return -1;
	}
	pidfd = module_peer(fd);
	if (pidfd < 0) {
		if (errno == EACCES || errno == ENOPKG)
			errno = ENOPROTOOPT;
		return -1;
	}
	/*
	 * The kernel read *optlen (EFAULT otherwise) and found it
	 * non-negative (EINVAL) before it looked at the option; 6.5's
	 * writes min(len, 4) bytes to optval once it has the pidfd, and
	 * EFAULT then drops the pidfd. SO_TYPE writes as many bytes: the
	 * kernel says whether they can be written, without a fault here
	 * (what it writes is overwritten at once).
	 */
	len = *lenp < sizeof(int) ? *lenp : sizeof(int);
	probe_len = len;
	if (preload_next_getsockopt(fd, SOL_SOCKET, SO_TYPE, val,
				    &probe_len) < 0) {
		int err = errno;

		close(pidfd);
		errno = err;
		return -1;
	}
	type = pidfd;
	memcpy(val, &type, len);
	*lenp = len;
	return 0;
}

typedef int getsockopt_fn(int, int, int, void *, socklen_t *);

static int __attribute__((noinline))
getsockopt_rest(int fd, int level, int name, void *val, socklen_t *len)
{
	getsockopt_fn *next = (getsockopt_fn *)preload_next(NEXT_GETSOCKOPT);
	int ret;

	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	ret = next(fd, level, name, val, len);
	if (ret == 0 || errno != ENOPROTOOPT ||
	    name != PRELOAD_SO_PEERPIDFD || level != SOL_SOCKET)
		return ret;
	return after_peerpidfd(fd, val, len);
}

PRELOAD_EXPORT int getsockopt(int fd, int level, int name,
			      void *restrict val, socklen_t *restrict len)
{
	getsockopt_fn *next =
		(getsockopt_fn *)preload_next_resolved(NEXT_GETSOCKOPT);

	if (__builtin_expect(next && (name != PRELOAD_SO_PEERPIDFD ||
				      level != SOL_SOCKET), 1))
		return next(fd, level, name, val, len);
	return getsockopt_rest(fd, level, name, val, len);
}
