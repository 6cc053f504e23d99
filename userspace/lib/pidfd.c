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
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/*
 * Which kind of pidfd libpidfd_open(@flags) makes. Auto takes the
 * kernel's where its pidfd_open(2) takes the flags and its pidfds keep
 * the exit status (PIDFD_INFO_EXIT), and the module's otherwise when the
 * module is loaded: a pidfd can be converted to the kernel's kind later,
 * for a system call, but a record of the exit cannot be made after it.
 */
int libpidfd_priv_open_kind(unsigned int flags)
{
	const struct libpidfd_native *native = libpidfd_priv_native();
	int backend = libpidfd_get_backend();

	if (backend < 0 || backend != LIBPIDFD_BACKEND_AUTO)
		return backend;
	/* Flags no one knows: the kernel's EINVAL, as pidfd_open(2). */
	if (!native->open || (flags & PIDFD_AUTOKILL) ||
	    ((flags & PIDFD_THREAD) && !native->thread))
		return LIBPIDFD_BACKEND_MODULE;
	if (!(native->info_mask & PIDFD_INFO_EXIT) && libpidfd_probe() == 0)
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

int libpidfd_send_signal(int pidfd, int sig, const siginfo_t *info,
			 unsigned int flags)
{
	const struct libpidfd_native *native = libpidfd_priv_native();
	struct pidfd_signal_args args = {
		.sig = (__u32)sig,
		.flags = flags,
		.info = (__u64)(uintptr_t)info,
	};
	struct libpidfd_held held;
	int route, ret;

	/*
	 * Flags every kernel refuses, refused first as the kernel does,
	 * whichever side serves the call: unknown ones, more than one scope.
	 */
	if ((flags & ~SIGNAL_SCOPES) || (flags & (flags - 1))) {
		errno = EINVAL;
		return -1;
	}
	route = libpidfd_priv_take(pidfd, native->open &&
				   (!flags || native->signal_scope), &held);
	/* Not a pidfd: the kernel's call takes /proc/<pid> directories too. */
	if (route < 0 && errno == EBADF && native->open)
		return libpidfd_priv_sys_send_signal(pidfd, sig, info, flags);
	if (route < 0)
		return -1;
	if (route == LIBPIDFD_BACKEND_NATIVE) {
		ret = libpidfd_priv_sys_send_signal(held.fd, sig, info, flags);
	} else if (sig < 0) {
		/* The kernel's "invalid signal", not a huge __u32. */
		errno = EINVAL;
		ret = -1;
	} else {
		ret = ioctl(held.fd, PIDFD_DEV_SEND_SIGNAL, &args);
	}
	libpidfd_priv_release(&held);
	return ret;
}

/* A kernel pidfd in userspace (procfs.c), else the module's ioctl. */
int libpidfd_get_procfd(int pidfd, int procfd)
{
	struct libpidfd_held held, module;
	int route, ret;

	route = libpidfd_priv_take(pidfd, true, &held);
	if (route < 0)
		return -1;
	if (route == LIBPIDFD_BACKEND_NATIVE) {
		ret = libpidfd_priv_procdir_of(held.fd, procfd);
		if (ret != LIBPIDFD_PRIV_UNPROVED) {
			libpidfd_priv_release(&held);
			return ret;
		}
		ret = -1;
		if (libpidfd_get_backend() == LIBPIDFD_BACKEND_NATIVE)
			errno = EOPNOTSUPP;
		else if (libpidfd_priv_hold(held.fd, LIBPIDFD_BACKEND_MODULE,
					    &module) == 0) {
			ret = ioctl(module.fd, PIDFD_GET_PROCFD, procfd);
			libpidfd_priv_release(&module);
		}
	} else {
		ret = ioctl(held.fd, PIDFD_GET_PROCFD, procfd);
	}
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

int libpidfd_get_namespace(int pidfd, unsigned int cmd)
{
	struct libpidfd_held held;
	int ret;

	/* _IO(0xFF, 1..10): refused here, never sent as another command. */
	if (_IOC_DIR(cmd) != _IOC_NONE || _IOC_SIZE(cmd) ||
	    _IOC_TYPE(cmd) != _IOC_TYPE(PIDFD_GET_UTS_NAMESPACE) ||
	    _IOC_NR(cmd) < _IOC_NR(PIDFD_GET_CGROUP_NAMESPACE) ||
	    _IOC_NR(cmd) > _IOC_NR(PIDFD_GET_UTS_NAMESPACE)) {
		errno = EINVAL;
		return -1;
	}
	if (libpidfd_priv_take(pidfd, libpidfd_priv_native()->namespaces,
			       &held) < 0)
		return -1;
	/* Same command on both kinds: the module took upstream's numbers. */
	ret = ioctl(held.fd, cmd, 0);
	libpidfd_priv_release(&held);
	return ret;
}

/* The ioctl's size field is 14 bits wide. */
#define IOC_SIZE_MAX ((1U << _IOC_SIZEBITS) - 1)

/*
 * Copy from the caller's memory without faulting on a bad pointer: the
 * ioctl that follows reports that one as EFAULT.
 */
static int read_own_memory(void *dst, const void *src, size_t len)
{
	struct iovec local = { .iov_base = dst, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)src, .iov_len = len };

	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) ==
	       (ssize_t)len ? 0 : -1;
}

/* What a GET_INFO caller asks for beyond what always comes. */
#define INFO_ON_REQUEST (PIDFD_INFO_EXIT | PIDFD_INFO_COREDUMP | \
			 PIDFD_INFO_SUPPORTED_MASK | \
			 PIDFD_INFO_COREDUMP_SIGNAL | PIDFD_INFO_COREDUMP_CODE)

int libpidfd_get_info(int pidfd, struct pidfd_info *info, size_t size)
{
	const struct libpidfd_native *native = libpidfd_priv_native();
	struct libpidfd_held held;
	__u64 wanted = 0;
	int ret;

	if (size > IOC_SIZE_MAX) {
		errno = E2BIG;
		return -1;
	}
	/* Only a kernel that lacks some of them needs to know which. */
	if (native->info && (INFO_ON_REQUEST & ~native->info_mask) &&
	    read_own_memory(&wanted, info, sizeof(wanted)) == 0)
		wanted &= INFO_ON_REQUEST;
	/*
	 * The module answers what this kernel cannot (an exit it recorded);
	 * without the module the kernel answers what it has, as its own
	 * call would (bits it does not know are left out of the mask).
	 */
	if (libpidfd_priv_take(pidfd, native->info &&
			       (!(wanted & ~native->info_mask) ||
				libpidfd_probe() < 0), &held) < 0)
		return -1;
	/*
	 * PIDFD_GET_INFO with the caller's size in the command number: the
	 * kernel and the module copy in and out that many bytes.
	 */
	ret = ioctl(held.fd, _IOC(_IOC_READ | _IOC_WRITE,
				  _IOC_TYPE(PIDFD_GET_INFO),
				  _IOC_NR(PIDFD_GET_INFO), size), info);
	libpidfd_priv_release(&held);
	return ret;
}

static int poll_exit(int pidfd, int timeout_ms);

int libpidfd_wait_exit(int pidfd, int timeout_ms)
{
	struct libpidfd_held held;
	int ret;

	if (!libpidfd_priv_is_self(pidfd))
		return poll_exit(pidfd, timeout_ms);
	if (libpidfd_priv_take(pidfd, libpidfd_priv_native()->open,
			       &held) < 0)
		return -1;
	ret = poll_exit(held.fd, timeout_ms);
	libpidfd_priv_release(&held);
	return ret;
}

/* poll(2) for POLLIN, which both kinds of pidfd report at exit. */
static int poll_exit(int pidfd, int timeout_ms)
{
	int64_t deadline = timeout_ms >= 0 ? libpidfd_priv_now_ms() + timeout_ms : -1;
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
	struct pidfd_info info;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	if (libpidfd_get_info(pidfd, &info, sizeof(info)) < 0)
		return -1;
	if (!(info.mask & PIDFD_INFO_EXIT)) {
		/* Alive, or a zombie its parent has not reaped yet. */
		errno = EAGAIN;
		return -1;
	}
	if (status)
		*status = info.exit_code;
	return 0;
}
