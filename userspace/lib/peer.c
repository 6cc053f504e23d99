// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpidfd_peer_open(): the pidfd of a connected socket's peer. The
 * kernel's getsockopt(SO_PEERPIDFD) (6.5) where it has it, the module's
 * PIDFD_DEV_OPEN_PEER before; both make it from the peer the socket
 * recorded at connect time, never from a number.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/* asm-generic's value (x86, arm64 and most others). */
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

static int kernel_peer(int sockfd, unsigned int flags)
{
	socklen_t len = sizeof(int);
	int fd = -1;

	if (getsockopt(sockfd, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) < 0)
		return -1;
	/* The option has no flags: O_NONBLOCK set on the new file. */
	if ((flags & PIDFD_NONBLOCK) && fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

static int module_peer(int sockfd, unsigned int flags)
{
	struct pidfd_open_peer_args args = {
		.sockfd = sockfd,
		.flags = flags,
	};

	return libpidfd_priv_control_ioctl(PIDFD_DEV_OPEN_PEER,
					   (unsigned long)&args);
}

/* @fd as a pidfd of @kind: itself, or converted (and @fd closed). */
static int as_kind(int fd, int kind)
{
	int other, saved;

	if (fd < 0 || libpidfd_pidfd_backend(fd) == kind)
		return fd;
	other = kind == LIBPIDFD_BACKEND_MODULE ? libpidfd_to_module(fd) :
						  libpidfd_to_native(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return other;
}

/*
 * The kernel's option wherever it exists: it runs every check the
 * kernel has (LSMs, cgroup-BPF), which the module can only imitate, and
 * the module refuses there. Its pidfd is converted if the backend wants
 * the module's kind.
 */
int libpidfd_peer_open(int sockfd, unsigned int flags)
{
	int kind, fd;

	if (flags & ~PIDFD_NONBLOCK) {
		errno = EINVAL;
		return -1;
	}
	kind = libpidfd_priv_open_kind(flags);
	if (kind < 0)
		return -1;
	fd = kernel_peer(sockfd, flags);
	if (fd >= 0)
		return as_kind(fd, kind);
	/* ENOPROTOOPT: a kernel before SO_PEERPIDFD (6.5). */
	if (errno != ENOPROTOOPT ||
	    libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE)
		return -1;
	return as_kind(module_peer(sockfd, flags), kind);
}
