// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpidfd_waitid(): waitid(P_PIDFD) for children. The kernel's where it
 * has it (5.4), with a module pidfd converted; otherwise, and with the
 * module backend, through the number the pidfd proves: a child cannot be
 * reaped behind our back (only we reap it), so if the pidfd's process
 * holds the number before and after a WNOWAIT wait on it, that wait saw
 * the pidfd's process, and the reap that follows takes it. A pidfd with
 * O_NONBLOCK gives EAGAIN rather than blocking, as the kernel's call.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>

#include "libpidfd.h"
#include "internal.h"

static int waitid_by_number(int pidfd, siginfo_t *info, int options)
{
	int kind = libpidfd_pidfd_backend(pidfd);
	bool nonblock;
	pid_t nr;

	if (kind < 0)
		return -1;
	/* As the kernel's: a non-blocking pidfd says EAGAIN, not blocks. */
	nonblock = (fcntl(pidfd, F_GETFL) & O_NONBLOCK) && !(options & WNOHANG);
	if (nonblock)
		options |= WNOHANG;
	nr = libpidfd_getpid(pidfd);
	if (nr < 0) {
		/* Reaped already: no such child any more, as waitid says. */
		if (errno == ESRCH)
			errno = ECHILD;
		return -1;
	}
	memset(info, 0, sizeof(*info));
	if (waitid(P_PID, (id_t)nr, info, options | WNOWAIT) < 0)
		return -1;
	if (!libpidfd_priv_still_holds(pidfd, kind, nr)) {
		errno = ECHILD;
		return -1;
	}
	if (!info->si_pid && nonblock) {
		errno = EAGAIN;
		return -1;
	}
	/* Nothing to report (WNOHANG), or only looking: done. */
	if (!info->si_pid || (options & WNOWAIT))
		return 0;
	return waitid(P_PID, (id_t)nr, info, options);
}

/*
 * libpidfd_waitid() past its first try: @tried if waitid(P_PIDFD) was
 * made on the fd and refused (errno says how).
 */
static int __attribute__((noinline))
waitid_rest(int pidfd, siginfo_t *info, int options, bool tried)
{
	const struct libpidfd_native native = libpidfd_priv_kernel();
	int backend = libpidfd_get_backend();
	struct libpidfd_held held;
	int ret;

	if (backend < 0)
		return -1;
	if (tried && errno == EINVAL) {
		/* The kernel's answer, unless it has no P_PIDFD. */
		if (native.waitid)
			return -1;
		return waitid_by_number(pidfd, info, options);
	}
	if (!tried) {
		if (!info) {
			errno = EFAULT;
			return -1;
		}
		if (libpidfd_priv_is_self(pidfd)) {
			/* We are nobody's child of our own. */
			errno = ECHILD;
			return -1;
		}
		if (pidfd < 0) {
			/* As waitid(P_PIDFD) says to a negative id. */
			errno = EINVAL;
			return -1;
		}
		if (backend == LIBPIDFD_BACKEND_MODULE || !native.waitid)
			return waitid_by_number(pidfd, info, options);
		/* The kernel's call on the fd as it is. */
		ret = waitid(LIBPIDFD_P_PIDFD, (id_t)pidfd, info, options);
		if (ret == 0 || errno != EBADF)
			return ret;
	}
	/* EBADF: a module pidfd (converted), or no pidfd at all. */
	if (libpidfd_priv_hold(pidfd, LIBPIDFD_BACKEND_NATIVE, &held) < 0) {
		if (errno == ESRCH)
			errno = ECHILD;
		return -1;
	}
	ret = waitid(LIBPIDFD_P_PIDFD, (id_t)held.fd, info, options);
	libpidfd_priv_release(&held);
	return ret;
}

int libpidfd_waitid(int pidfd, siginfo_t *info, int options)
{
	int backend = libpidfd_priv_backend();
	int ret;

	/* The steady state: the kernel's call on the fd as it is. */
	if (info && pidfd >= 0 && backend >= 0 &&
	    backend != LIBPIDFD_BACKEND_MODULE) {
		ret = waitid(LIBPIDFD_P_PIDFD, (id_t)pidfd, info, options);
		if (ret == 0 || (errno != EBADF && errno != EINVAL))
			return ret;
		return waitid_rest(pidfd, info, options, true);
	}
	return waitid_rest(pidfd, info, options, false);
}
