// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pidfd operations. Each goes to the kernel's own call or to the
 * module's ioctl (libpidfd_priv_take() decides; the pidfd is converted
 * if it is of the other kind), with that side's errno unchanged.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/*
 * Which kind of pidfd libpidfd_open(@flags) makes. Auto takes the
 * kernel's where its pidfd_open(2) takes the flags and its pidfds keep
 * the exit status (PIDFD_INFO_EXIT, as the kernel's supported mask says:
 * 7.2), and the module's otherwise when the module is loaded: a pidfd can
 * be converted to the kernel's kind later, for a system call, but a record
 * of the exit cannot be made after it. A kernel that does not say what it
 * supports (before 6.19) is not asked with a child: the module's pidfds
 * keep the exit on every kernel.
 */
int libpidfd_priv_open_kind(unsigned int flags)
{
	const struct libpidfd_native native = libpidfd_priv_kernel();
	int backend = libpidfd_get_backend();

	if (backend < 0 || backend != LIBPIDFD_BACKEND_AUTO)
		return backend;
	/* Flags no one knows: the kernel's EINVAL, as pidfd_open(2). */
	if (!native.open || (flags & PIDFD_AUTOKILL) ||
	    ((flags & PIDFD_THREAD) && !native.thread))
		return LIBPIDFD_BACKEND_MODULE;
	if (!(native.info_mask & PIDFD_INFO_EXIT) &&
	    libpidfd_priv_module_known())
		return LIBPIDFD_BACKEND_MODULE;
	return LIBPIDFD_BACKEND_NATIVE;
}

int libpidfd_open(pid_t pid, unsigned int flags)
{
	/* What the kernel and the module refuse alike, module or no module. */
	if ((flags & ~(PIDFD_NONBLOCK | PIDFD_THREAD | PIDFD_AUTOKILL)) ||
	    pid <= 0) {
		errno = EINVAL;
		return -1;
	}
	switch (libpidfd_priv_open_kind(flags)) {
	case LIBPIDFD_BACKEND_NATIVE:
		return libpidfd_priv_sys_pidfd_open(pid, flags);
	case LIBPIDFD_BACKEND_MODULE:
		return libpidfd_priv_module_open(pid, flags);
	default:
		return -1;
	}
}

/*
 * The steady state of a call on a pidfd is the one system call it stands
 * for, made on the caller's fd as it is: the kernel refuses a module
 * pidfd (EBADF from its pidfd calls) and the module's ioctls refuse a
 * kernel pidfd (ENOTTY), so the call is tried on the route that the
 * arguments suit and, refused, on the other. What neither answers, and
 * what one side cannot do (a kernel pidfd on a kernel without the call, a
 * sentinel, the module backend), takes the slow path: the fd classified
 * and, where needed, converted (libpidfd_priv_take()).
 */

/*
 * Was an ioctl on @fd refused for want of a pidfd of the kind it serves?
 * The module's ioctls refuse a kernel pidfd with ENOTTY, and so do the
 * kernel's pidfds refuse the ioctls they lack, but on 6.11 and 6.12 pidfs
 * answers EINVAL to any ioctl with an argument before it reads the
 * command: there the fd's kind tells, one call more on that path only.
 * errno stays the ioctl's.
 */
static bool refused_for_kind(int fd)
{
	int kind;

	if (errno == ENOTTY)
		return true;
	if (errno != EINVAL)
		return false;
	kind = libpidfd_priv_kernel_pidfd(fd);
	errno = EINVAL;
	return kind == 1;
}

/*
 * After the slow path could not take @pidfd (EBADF: no pidfd of either
 * kind): an ioctl's errno is the kernel's for the fd, ENOTTY for an open
 * file that is not a pidfd.
 */
static int ioctl_refused(int pidfd)
{
	if (errno == EBADF && pidfd >= 0 && fcntl(pidfd, F_GETFD) >= 0)
		errno = ENOTTY;
	return -1;
}

static int module_from_procdir(int dirfd, unsigned int flags)
{
	struct pidfd_open_procdir_args args = {
		.procdir = dirfd,
		.flags = flags,
	};

	return libpidfd_priv_control_ioctl(PIDFD_DEV_OPEN_PROCDIR,
					   (unsigned long)&args);
}

/*
 * A kernel pidfd is proved in userspace (procfs.c); the module proves
 * what that cannot (a procfs of another pid namespace, an fdinfo the
 * caller may not read), its pidfd converted if a kernel one is wanted.
 */
int libpidfd_from_procdir(int dirfd, unsigned int flags)
{
	int kind, fd, native, saved;

	if (flags & ~(PIDFD_NONBLOCK | PIDFD_THREAD)) {
		errno = EINVAL;
		return -1;
	}
	kind = libpidfd_priv_open_kind(flags);
	if (kind < 0)
		return -1;
	if (kind == LIBPIDFD_BACKEND_NATIVE) {
		fd = libpidfd_priv_pidfd_of_procdir(dirfd, flags);
		if (fd != LIBPIDFD_PRIV_UNPROVED)
			return fd;
		if (libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE) {
			errno = EOPNOTSUPP;
			return -1;
		}
	}
	fd = module_from_procdir(dirfd, flags);
	if (fd < 0 || kind == LIBPIDFD_BACKEND_MODULE)
		return fd;
	native = libpidfd_to_native(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return native;
}

#define SIGNAL_SCOPES (PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP | \
		       PIDFD_SIGNAL_PROCESS_GROUP)

static int module_send_signal(int pidfd, int sig, const siginfo_t *info,
			      unsigned int flags)
{
	struct pidfd_signal_args args = {
		.sig = sig,
		.flags = flags,
		.info = (__u64)(uintptr_t)info,
	};

	return ioctl(pidfd, PIDFD_DEV_SEND_SIGNAL, &args);
}

/* Classified, converted where the kernel cannot serve these flags. */
static int send_signal_slow(int pidfd, int sig, const siginfo_t *info,
			    unsigned int flags)
{
	const struct libpidfd_native native = libpidfd_priv_kernel();
	struct libpidfd_held held;
	int route, ret;

	route = libpidfd_priv_take(pidfd, native.open &&
				   (!flags || native.signal_scope), &held);
	/* Not a pidfd: the kernel's call takes /proc/<pid> directories too. */
	if (route < 0 && errno == EBADF && native.open)
		return libpidfd_priv_sys_send_signal(pidfd, sig, info, flags);
	if (route < 0)
		return -1;
	if (route == LIBPIDFD_BACKEND_NATIVE)
		ret = libpidfd_priv_sys_send_signal(held.fd, sig, info, flags);
	else
		ret = module_send_signal(held.fd, sig, info, flags);
	libpidfd_priv_release(&held);
	return ret;
}

/*
 * libpidfd_send_signal() past its first try: @tried if the kernel's call
 * was made without flags and refused (errno says how).
 */
static int __attribute__((noinline))
send_signal_rest(int pidfd, int sig, const siginfo_t *info,
		 unsigned int flags, bool tried)
{
	int backend, ret, err;

	if (!tried) {
		/*
		 * Flags every kernel refuses, refused first as the kernel
		 * does, whichever side serves the call: unknown ones, more
		 * than one scope.
		 */
		if ((flags & ~SIGNAL_SCOPES) || (flags & (flags - 1))) {
			errno = EINVAL;
			return -1;
		}
		backend = libpidfd_get_backend();
		if (backend < 0)
			return -1;
		if (libpidfd_priv_is_self(pidfd))
			return send_signal_slow(pidfd, sig, info, flags);
		if (backend == LIBPIDFD_BACKEND_MODULE ||
		    !libpidfd_priv_kernel().signal_scope) {
			/* The module first: the kernel cannot serve these. */
			ret = module_send_signal(pidfd, sig, info, flags);
			if (ret == 0 || !refused_for_kind(pidfd))
				return ret;
			return send_signal_slow(pidfd, sig, info, flags);
		}
		ret = libpidfd_priv_sys_send_signal(pidfd, sig, info, flags);
		if (ret == 0)
			return 0;
	}
	if (errno == ENOSYS)
		return send_signal_slow(pidfd, sig, info, flags);
	if (errno != EBADF && errno != EINVAL)
		return -1;
	/* A module pidfd, or the kernel's answer stands. */
	err = errno;
	ret = module_send_signal(pidfd, sig, info, flags);
	if (ret == 0 || !refused_for_kind(pidfd))
		return ret;
	errno = err;
	return -1;
}

int libpidfd_send_signal(int pidfd, int sig, const siginfo_t *info,
			 unsigned int flags)
{
	int backend = libpidfd_priv_backend();

	/* The steady state: the kernel's call, and nothing around it. */
	if (!flags && backend >= 0 && backend != LIBPIDFD_BACKEND_MODULE &&
	    !libpidfd_priv_is_self(pidfd)) {
		if (libpidfd_priv_sys_send_signal(pidfd, sig, info, 0) == 0)
			return 0;
		return send_signal_rest(pidfd, sig, info, 0, true);
	}
	return send_signal_rest(pidfd, sig, info, flags, false);
}

/*
 * A kernel pidfd's /proc directory, proved in userspace (procfs.c), else
 * by the module through a module pidfd for the same process.
 */
static int procfd_of_kernel_pidfd(int pidfd, int procfd)
{
	struct libpidfd_held module;
	int ret;

	ret = libpidfd_priv_procdir_of(pidfd, procfd);
	if (ret != LIBPIDFD_PRIV_UNPROVED)
		return ret;
	if (libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (libpidfd_priv_hold(pidfd, LIBPIDFD_BACKEND_MODULE, &module) < 0)
		return -1;
	ret = ioctl(module.fd, PIDFD_GET_PROCFD, procfd);
	libpidfd_priv_release(&module);
	return ret;
}

/*
 * What libpidfd_get_procfd() says to an open file that is not a pidfd:
 * the module's ioctl's ENOTTY.
 */
#define PROCFD_NOT_PIDFD ENOTTY

/*
 * The module's ioctl on a module pidfd; a kernel pidfd (ENOTTY there) in
 * userspace or through the module.
 */
int libpidfd_get_procfd(int pidfd, int procfd)
{
	struct libpidfd_held held;
	int route, ret;

	if (!libpidfd_priv_is_self(pidfd) &&
	    libpidfd_get_backend() != LIBPIDFD_BACKEND_MODULE) {
		ret = ioctl(pidfd, PIDFD_GET_PROCFD, procfd);
		if (ret >= 0 || !refused_for_kind(pidfd))
			return ret;
		switch (libpidfd_priv_kernel_pidfd(pidfd)) {
		case 1:
			return procfd_of_kernel_pidfd(pidfd, procfd);
		case 0:
			errno = PROCFD_NOT_PIDFD;
			return -1;
		}
	}
	route = libpidfd_priv_take(pidfd, true, &held);
	if (route < 0)
		return ioctl_refused(pidfd);
	if (route == LIBPIDFD_BACKEND_NATIVE)
		ret = procfd_of_kernel_pidfd(held.fd, procfd);
	else
		ret = ioctl(held.fd, PIDFD_GET_PROCFD, procfd);
	libpidfd_priv_release(&held);
	return ret;
}

int libpidfd_open_procdir(int pidfd)
{
	int procfd, dirfd, saved;

	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -1;
	dirfd = libpidfd_get_procfd(pidfd, procfd);
	saved = errno;
	close(procfd);
	errno = saved;
	return dirfd;
}

/*
 * An ioctl that both kinds answer under the same command number: sent to
 * @pidfd as it is. Only a refusal (ENOTTY) from a kernel pidfd on a
 * kernel without the ioctl (@native_can false) takes the slow path, where
 * it is converted to a module pidfd; from anything else ENOTTY is the
 * answer, as the kernel's.
 */
enum kernel_has { HAS_INFO, HAS_NAMESPACES };

static bool kernel_has(enum kernel_has what)
{
	const struct libpidfd_native native = libpidfd_priv_kernel();

	return what == HAS_INFO ? native.info : native.namespaces;
}

/* pidfd_ioctl() past the first try (@tried: refused, refused_for_kind()). */
static int __attribute__((noinline))
pidfd_ioctl_rest(int pidfd, unsigned long cmd, void *arg,
		 enum kernel_has what, bool tried)
{
	struct libpidfd_held held;
	int backend = libpidfd_get_backend();
	bool native_can;
	int ret;

	if (backend < 0)
		return -1;
	native_can = kernel_has(what);
	if (tried) {
		/* The kernel's answer stands where it is the one to give. */
		int err = errno;

		if (backend == LIBPIDFD_BACKEND_NATIVE || native_can ||
		    libpidfd_priv_kernel_pidfd(pidfd) == 0) {
			errno = err;
			return -1;
		}
	}
	if (libpidfd_priv_take(pidfd, native_can, &held) < 0)
		return ioctl_refused(pidfd);
	ret = ioctl(held.fd, cmd, arg);
	libpidfd_priv_release(&held);
	return ret;
}

static inline int pidfd_ioctl(int pidfd, unsigned long cmd, void *arg,
			      enum kernel_has what)
{
	int backend = libpidfd_priv_backend();
	int ret;

	if (backend >= 0 && backend != LIBPIDFD_BACKEND_MODULE &&
	    !libpidfd_priv_is_self(pidfd)) {
		ret = ioctl(pidfd, cmd, arg);
		if (ret >= 0 || !refused_for_kind(pidfd))
			return ret;
		return pidfd_ioctl_rest(pidfd, cmd, arg, what, true);
	}
	return pidfd_ioctl_rest(pidfd, cmd, arg, what, false);
}

int libpidfd_get_namespace(int pidfd, unsigned int cmd)
{
	/*
	 * _IO(0xFF, 1..10): anything else is refused here, never sent as
	 * another command, with the kernel's answers: EBADF for no open
	 * file (the fd is looked up first), else ENOTTY.
	 */
	if (_IOC_DIR(cmd) != _IOC_NONE || _IOC_SIZE(cmd) ||
	    _IOC_TYPE(cmd) != _IOC_TYPE(PIDFD_GET_UTS_NAMESPACE) ||
	    _IOC_NR(cmd) < _IOC_NR(PIDFD_GET_CGROUP_NAMESPACE) ||
	    _IOC_NR(cmd) > _IOC_NR(PIDFD_GET_UTS_NAMESPACE)) {
		errno = libpidfd_priv_is_self(pidfd) ||
			(pidfd >= 0 && fcntl(pidfd, F_GETFD) >= 0) ?
			ENOTTY : EBADF;
		return -1;
	}
	/* Same command on both kinds: the module took upstream's numbers. */
	return pidfd_ioctl(pidfd, cmd, NULL, HAS_NAMESPACES);
}

/* The ioctl's size field is 14 bits wide. */
#define IOC_SIZE_MAX ((1U << _IOC_SIZEBITS) - 1)

/*
 * PIDFD_GET_INFO with the caller's size in the command number: the kernel
 * and the module copy in and out that many bytes, and read the caller's
 * mask themselves (EFAULT for a bad pointer). The kernel answers what it
 * has, as its own call would (bits it does not know are left out of the
 * mask).
 */
int libpidfd_get_info(int pidfd, struct pidfd_dev_info *info, size_t size)
{
	if (size > IOC_SIZE_MAX) {
		errno = E2BIG;
		return -1;
	}
	return pidfd_ioctl(pidfd, _IOC(_IOC_READ | _IOC_WRITE,
				       _IOC_TYPE(PIDFD_DEV_GET_INFO),
				       _IOC_NR(PIDFD_DEV_GET_INFO), size),
			   info, HAS_INFO);
}

static int poll_exit(int pidfd, int timeout_ms);

/*
 * Is @fd a pidfd, to be polled? PIDFD_GET_INFO with no buffer: EFAULT
 * from either kind (the kernel's from 6.13), ENOTTY from other files and
 * from a kernel pidfd before 6.13 (then waitid(P_PIDFD) tells), EBADF
 * from no file. 0, or -1 with EBADF.
 */
static int poll_target(int fd)
{
	if (ioctl(fd, PIDFD_DEV_GET_INFO, NULL) < 0 && errno != EBADF &&
	    (errno != ENOTTY || libpidfd_priv_kernel_pidfd(fd) != 0))
		return 0;
	errno = EBADF;
	return -1;
}

int libpidfd_wait_exit(int pidfd, int timeout_ms)
{
	struct libpidfd_held held;
	int ret;

	if (!libpidfd_priv_is_self(pidfd)) {
		if (poll_target(pidfd) < 0)
			return -1;
		return poll_exit(pidfd, timeout_ms);
	}
	if (libpidfd_priv_take(pidfd, libpidfd_priv_kernel().open,
			       &held) < 0)
		return -1;
	ret = poll_exit(held.fd, timeout_ms);
	libpidfd_priv_release(&held);
	return ret;
}

/* poll(2) for POLLIN, which both kinds of pidfd report at exit. */
static int poll_exit(int pidfd, int timeout_ms)
{
	/* No clock read (a system call where the vDSO has none) for 0 or -1. */
	int64_t deadline = timeout_ms > 0 ? libpidfd_priv_now_ms() + timeout_ms :
			   timeout_ms;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int left = timeout_ms;

	for (;;) {
		int ret = poll(&pfd, 1, left);

		if (ret > 0) {
			if (pfd.revents & POLLNVAL) {
				errno = EBADF;
				return -1;
			}
			if (pfd.revents & (POLLIN | POLLHUP))
				return 0;
			/* POLLERR alone: not a pidfd the module made. */
			errno = EINVAL;
			return -1;
		}
		if (ret == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (errno != EINTR)
			return -1;
		if (deadline >= 0) {
			int64_t rest = deadline - libpidfd_priv_now_ms();

			left = rest > 0 ? (int)rest : 0;
		}
	}
}

int libpidfd_exit_status(int pidfd, int *status)
{
	struct pidfd_dev_info info;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	if (libpidfd_get_info(pidfd, &info, sizeof(info)) < 0) {
		/*
		 * The kernel's PIDFD_GET_INFO of 6.15 to 7.2 gives ESRCH to a
		 * caller that found the task just as its parent reaped it;
		 * the reap recorded the exit first. Ask once more (7.3 does).
		 */
		if (errno != ESRCH)
			return -1;
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_EXIT;
		if (libpidfd_get_info(pidfd, &info, sizeof(info)) < 0)
			return -1;
	}
	if (!(info.mask & PIDFD_INFO_EXIT)) {
		/* Alive, or a zombie its parent has not reaped yet. */
		errno = EAGAIN;
		return -1;
	}
	if (status)
		*status = info.exit_code;
	return 0;
}
