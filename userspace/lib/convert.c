// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Turning a pidfd of one kind into one of the other, without a window in
 * which a recycled pid number could hand us another process.
 *
 * Neither side can make or recognise the other's pidfds, so the two meet
 * at the pid number, and the proof is the one PIDFD_GET_PROCFD uses:
 *
 *   1. nr = the number of the source's process (libpidfd_getpid());
 *   2. open a pidfd of the other kind for nr;
 *   3. the new pidfd says nr too (skipped for a module source, whose
 *      number is already in the caller's pid namespace);
 *   4. the source's process still holds nr and has not been reaped.
 *
 * A process keeps its number from fork until it is reaped and never gets
 * it back, and a number belongs to one process at a time. Step 4 shows
 * the source's process held nr all the way from step 1 to step 4, so it
 * is the one that held nr when step 2 opened it. Step 3 catches a /proc
 * of another pid namespace than the caller's (the numbers of step 1 and
 * step 2 would then not be in the same namespace).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/* Open flags that carry over: PIDFD_THREAD, PIDFD_NONBLOCK. */
static unsigned int open_flags_of(int pidfd)
{
	int fl = fcntl(pidfd, F_GETFL);

	if (fl < 0)
		return 0;
	return (unsigned int)fl & (PIDFD_THREAD | PIDFD_NONBLOCK);
}

static int open_kind(int kind, pid_t nr, unsigned int flags)
{
	if (kind == LIBPIDFD_BACKEND_NATIVE)
		return libpidfd_priv_sys_pidfd_open(nr, flags);
	return libpidfd_priv_module_open(nr, flags);
}

/* Step 4: @pidfd's process still holds @nr and is not reaped. */
bool libpidfd_priv_still_holds(int pidfd, int kind, pid_t nr)
{
	if (libpidfd_getpid(pidfd) != nr)
		return false;
	if (kind == LIBPIDFD_BACKEND_MODULE)
		return true;	/* the module prints -1 once reaped */
	/*
	 * Old kernels print a reaped process's number in fdinfo: ask the
	 * kernel whether a task is attached (ESRCH if not; a refusal
	 * means there is one).
	 */
	return libpidfd_priv_sys_send_signal(pidfd, 0, NULL, 0) == 0 ||
	       errno == EPERM || errno == EACCES;
}

static int convert(int pidfd, int from, int to)
{
	pid_t nr, check;
	int fd, saved;

	nr = libpidfd_getpid(pidfd);
	if (nr < 0)
		return -1;
	fd = open_kind(to, nr, open_flags_of(pidfd));
	if (fd < 0) {
		/*
		 * Reaped meanwhile: pidfd_open(2) may say EINVAL for a
		 * process it found but whose task left as it looked.
		 */
		saved = errno;
		if (!libpidfd_priv_still_holds(pidfd, from, nr))
			saved = ESRCH;
		errno = saved;
		return -1;
	}
	/*
	 * A module pidfd's number comes from the module in the caller's own
	 * pid namespace, the one pidfd_open(2) counts in: nothing to catch,
	 * and no /proc needed.
	 */
	check = from == LIBPIDFD_BACKEND_MODULE ? nr : libpidfd_getpid(fd);
	if (check != nr) {
		saved = check < 0 ? errno : EREMOTE;
		goto fail;
	}
	if (!libpidfd_priv_still_holds(pidfd, from, nr)) {
		saved = ESRCH;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	errno = saved;
	return -1;
}

static int open_self(int self, int kind)
{
	bool thread = self == PIDFD_SELF_THREAD;

	return open_kind(kind, thread ? gettid() : getpid(),
			 thread ? PIDFD_THREAD : 0);
}

/* The kind @pidfd is; a sentinel is opened as whatever a call needs. */
static int kind_of(int pidfd)
{
	if (libpidfd_priv_is_self(pidfd))
		return LIBPIDFD_BACKEND_NATIVE;
	return libpidfd_pidfd_backend(pidfd);
}

/* @pidfd, which is of kind @have, as a pidfd of @kind. */
static int hold_as(int pidfd, int have, int kind, struct libpidfd_held *held)
{
	held->temporary = true;
	if (libpidfd_priv_is_self(pidfd)) {
		/* We are alive: opening by our own number cannot miss. */
		held->fd = open_self(pidfd, kind);
	} else if (have == kind) {
		held->fd = pidfd;
		held->temporary = false;
	} else {
		held->fd = convert(pidfd, have, kind);
	}
	return held->fd < 0 ? -1 : 0;
}

int libpidfd_priv_hold(int pidfd, int kind, struct libpidfd_held *held)
{
	int have = kind_of(pidfd);

	if (have < 0)
		return -1;
	return hold_as(pidfd, have, kind, held);
}

void libpidfd_priv_release(struct libpidfd_held *held)
{
	int saved = errno;

	if (held->temporary && held->fd >= 0)
		close(held->fd);
	held->fd = -1;
	errno = saved;
}

/* Which kind a call on @pidfd (of kind @have) should act through. */
static int route(int pidfd, int have, bool native_can)
{
	int backend = libpidfd_get_backend();

	if (backend < 0)
		return -1;
	if (pidfd == PIDFD_SELF_THREAD && !libpidfd_priv_kernel().thread)
		native_can = false;
	/* A module pidfd is served by the module that made it. */
	if (have == LIBPIDFD_BACKEND_MODULE)
		return have;
	if (backend == LIBPIDFD_BACKEND_MODULE)
		return LIBPIDFD_BACKEND_MODULE;
	if (native_can || backend == LIBPIDFD_BACKEND_NATIVE)
		return LIBPIDFD_BACKEND_NATIVE;
	return LIBPIDFD_BACKEND_MODULE;
}

int libpidfd_priv_take(int pidfd, bool native_can, struct libpidfd_held *held)
{
	int have = kind_of(pidfd);
	int kind;

	if (have < 0)
		return -1;
	kind = route(pidfd, have, native_can);
	if (kind < 0 || hold_as(pidfd, have, kind, held) < 0)
		return -1;
	return kind;
}

static int to_kind(int pidfd, int kind)
{
	struct libpidfd_held held;

	if (libpidfd_get_backend() < 0)
		return -1;
	if (libpidfd_priv_hold(pidfd, kind, &held) < 0)
		return -1;
	if (held.temporary)
		return held.fd;
	return fcntl(held.fd, F_DUPFD_CLOEXEC, 0);
}

int libpidfd_to_native(int pidfd)
{
	if (!libpidfd_priv_kernel().open) {
		errno = ENOSYS;
		return -1;
	}
	return to_kind(pidfd, LIBPIDFD_BACKEND_NATIVE);
}

int libpidfd_to_module(int pidfd)
{
	return to_kind(pidfd, LIBPIDFD_BACKEND_MODULE);
}
