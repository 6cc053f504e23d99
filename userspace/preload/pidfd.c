// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What follows the kernel's answer to a pidfd call: it stands, except
 * where the kernel refused for want of a feature that the module has.
 *
 * Which pidfd pidfd_open() gives: the kernel's, unless the kernel keeps
 * no exit status after the reap (before 6.15; libpidfd's probe: 7.x says
 * so in its supported mask) and the module is loaded; then a module pidfd
 * of the same process takes the kernel's one's place (same number), so
 * that PIDFD_GET_INFO reports the exit of a non-child after its reap, as
 * on 6.15+. Every other call accepts both kinds: the kernel refuses a
 * module pidfd (EBADF from its pidfd calls, EINVAL from setns), and the
 * call is then served by the module, or by the kernel on a kernel pidfd
 * made for the same process (libpidfd_to_native(): proved, no PID-reuse
 * window), whichever is exact.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"
#include "preload.h"

#define OPEN_FLAGS	(PIDFD_NONBLOCK | PIDFD_THREAD)
#define SIGNAL_SCOPES	(PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP | \
			 PIDFD_SIGNAL_PROCESS_GROUP)

/* Is @fd one of the module's pidfds? False without the module. */
static bool module_pidfd(int fd)
{
	int saved = errno;
	bool is = libpidfd_priv_control_ioctl(PIDFD_DEV_IS_PIDFD,
					      (unsigned long)fd) == 1;

	errno = saved;
	return is;
}

/* -1 with @err. */
static int fail(int err)
{
	errno = err;
	return -1;
}

/* The kernel pidfd @fd's process is not reaped (signal 0 is answered). */
static bool kernel_pidfd_alive(int fd)
{
	return preload_next_pidfd_send_signal(fd, 0, NULL, 0) == 0 ||
	       errno == EPERM || errno == EACCES;
}

/*
 * A module pidfd in place of the kernel's @fd, for @pid: opened by
 * number, it names the kernel pidfd's process if that process still holds
 * the number afterwards (not reaped: convert.c's proof). Anything that
 * fails leaves the kernel's pidfd, which is a correct answer too.
 */
static int keep_exit(int fd, pid_t pid, unsigned int flags)
{
	int saved = errno, m;

	if (libpidfd_priv_open_kind(flags) != LIBPIDFD_BACKEND_MODULE)
		goto out;
	m = libpidfd_priv_module_open(pid, flags);
	if (m < 0)
		goto out;
	if (kernel_pidfd_alive(fd))
		dup3(m, fd, O_CLOEXEC);
	close(m);
out:
	errno = saved;
	return fd;
}

/* struct clone_args as of 5.3 (CLONE_ARGS_SIZE_VER0): the fields used. */
struct clone_args_ver0 {
	__u64 flags, pidfd, child_tid, parent_tid, exit_signal;
	__u64 stack, stack_size, tls;
};

/*
 * The parent only: the child returns 0 (a child on a stack of its own
 * cannot return through syscall() at all). A thread (CLONE_THREAD) keeps
 * the kernel's pidfd, which the module's thread pidfds would change.
 */
long preload_after_clone3(long ret, const void *args, unsigned long size)
{
	const struct clone_args_ver0 *ca = args;
	int *pidfd;

	if (ret <= 0 || size < sizeof(*ca) || !(ca->flags & CLONE_PIDFD) ||
	    (ca->flags & CLONE_THREAD))
		return ret;
	pidfd = (int *)(uintptr_t)ca->pidfd;
	preload_after_child(*pidfd, (pid_t)ret);
	return ret;
}

void preload_after_child(int fd, pid_t pid)
{
	keep_exit(fd, pid, 0);
}

int preload_after_open(int ret, pid_t pid, unsigned int flags)
{
	int err = errno, m;

	if (ret >= 0)
		return keep_exit(ret, pid, flags);
	/*
	 * PIDFD_THREAD before 6.9: the module's, unless its policy refuses
	 * the thread-directed signals such a pidfd is for; then the
	 * kernel's EINVAL, and the program falls back as it does today.
	 */
	if (err != EINVAL || !(flags & PIDFD_THREAD) || (flags & ~OPEN_FLAGS) ||
	    libpidfd_priv_kernel().thread || preload_policy_refuses() ||
	    libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE)
		return fail(err);
	m = libpidfd_priv_module_open(pid, flags);
	if (m < 0 && errno == ENOPKG)
		return fail(err);
	return m;
}

/* The module refused for want of what the kernel alone could do. */
static bool module_cannot(int err)
{
	return err == EOPNOTSUPP || (err == EACCES && preload_policy_refuses());
}

/*
 * The kernel's own pidfd_send_signal() on a kernel pidfd for the process
 * of @pidfd (of either kind): exact where the module's paths are not.
 */
static int kernel_signal(int pidfd, int sig, const siginfo_t *info,
			 unsigned int flags)
{
	struct libpidfd_held held;
	int ret;

	if (libpidfd_priv_hold(pidfd, LIBPIDFD_BACKEND_NATIVE, &held) < 0)
		return -1;
	ret = preload_next_pidfd_send_signal(held.fd, sig,
					     (siginfo_t *)info, flags);
	libpidfd_priv_release(&held);
	return ret;
}

static int module_signal_ioctl(int m, int sig, const siginfo_t *info,
			       unsigned int flags)
{
	struct pidfd_signal_args args = {
		.sig = sig,
		.flags = flags,
		.info = (__u64)(uintptr_t)info,
	};

	return preload_next_ioctl(m, PIDFD_DEV_SEND_SIGNAL, &args);
}

/*
 * A signal that the kernel's call could not take on this pidfd (a module
 * one) or with these flags (before 6.9). The module's process and
 * process-group paths without a siginfo, and SIGKILL, are the kernel's
 * own kill(2) check (differences.md): those go to the module. The others
 * (thread scope, a caller's siginfo) go to the kernel where it can take
 * them on a kernel pidfd, else to the module, whose policy may refuse:
 * then EINVAL, a kernel's answer to flags it does not have.
 */
static int signal_other_way(int pidfd, int sig, const siginfo_t *info,
			    unsigned int flags)
{
	const struct libpidfd_native native = libpidfd_priv_kernel();
	struct libpidfd_held held;
	bool thread, exact, kernel_can;
	int ret, err;

	if (libpidfd_priv_is_self(pidfd))
		thread = pidfd == PIDFD_SELF_THREAD;
	else
		thread = fcntl(pidfd, F_GETFL) & PIDFD_THREAD;
	exact = sig == SIGKILL ||
		(!info && (flags == PIDFD_SIGNAL_THREAD_GROUP ||
			   flags == PIDFD_SIGNAL_PROCESS_GROUP ||
			   (!flags && !thread)));
	kernel_can = native.open && (!flags || native.signal_scope) &&
		     (!thread || native.thread);
	if (kernel_can && !exact)
		return kernel_signal(pidfd, sig, info, flags);

	if (libpidfd_priv_hold(pidfd, LIBPIDFD_BACKEND_MODULE, &held) < 0) {
		if (errno != ENOPKG)
			return -1;
		return kernel_can ? kernel_signal(pidfd, sig, info, flags) :
				    fail(EINVAL);
	}
	ret = module_signal_ioctl(held.fd, sig, info, flags);
	err = errno;
	libpidfd_priv_release(&held);
	if (ret == 0 || !module_cannot(err))
		return ret < 0 ? fail(err) : ret;
	return kernel_can ? kernel_signal(pidfd, sig, info, flags) :
			    fail(EINVAL);
}

int preload_after_send_signal(int ret, int pidfd, int sig,
			      const siginfo_t *info, unsigned int flags)
{
	int err = errno;

	if (ret == 0)
		return 0;
	if (err == EBADF && (module_pidfd(pidfd) ||
			     (libpidfd_priv_is_self(pidfd) &&
			      libpidfd_priv_module_known())))
		return signal_other_way(pidfd, sig, info, flags);
	/* Scope flags before 6.9 (EINVAL for any flag): the module has them. */
	if (err == EINVAL && flags && !(flags & ~SIGNAL_SCOPES) &&
	    !(flags & (flags - 1)) && !libpidfd_priv_kernel().signal_scope &&
	    libpidfd_priv_module_known()) {
		/* Not a pidfd: EBADF (libpidfd_priv_hold()), as 6.9's. */
		return signal_other_way(pidfd, sig, info, flags);
	}
	return fail(err);
}

/*
 * The calls only the kernel makes, which take only its own pidfds:
 * pidfd_getfd(), process_madvise() and process_mrelease() (EBADF for a
 * module pidfd), setns() (EINVAL). A module pidfd goes to them again, the
 * same call, as a kernel pidfd for the same process; waitid(P_PIDFD)
 * below too.
 */
long preload_after_kernel_only(long ret, long nr, const long a[6],
			       int refusal)
{
	struct libpidfd_held held;

	if (ret >= 0 || errno != refusal || !module_pidfd((int)a[0]))
		return ret;
	if (libpidfd_priv_hold((int)a[0], LIBPIDFD_BACKEND_NATIVE, &held) < 0)
		return -1;
	ret = preload_next_syscall(nr, held.fd, a[1], a[2], a[3], a[4], a[5]);
	libpidfd_priv_release(&held);
	return ret;
}

int preload_after_waitid(int ret, idtype_t idtype, id_t id, siginfo_t *info,
			 int options, struct rusage *ru)
{
	struct libpidfd_held held;

	if (ret == 0 || idtype != PRELOAD_P_PIDFD || errno != EBADF ||
	    !module_pidfd((int)id))
		return ret;
	if (libpidfd_priv_hold((int)id, LIBPIDFD_BACKEND_NATIVE, &held) < 0) {
		/* Reaped: no such child any more, as the kernel says. */
		return errno == ESRCH ? fail(ECHILD) : -1;
	}
	ret = (int)preload_next_syscall(SYS_waitid, PRELOAD_P_PIDFD, held.fd,
					info, options, ru);
	libpidfd_priv_release(&held);
	return ret;
}
