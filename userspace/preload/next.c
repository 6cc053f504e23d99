// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The next definition of each function we interpose: dlsym(RTLD_NEXT)
 * finds the one after this object in the lookup order, which is libc's,
 * or that of a preloaded object named after us, or, for a program that
 * defines the function itself and calls dlsym(RTLD_NEXT) from there, this
 * object is that next one and the chain goes on from here.
 *
 * dlsym() may allocate and lock, so every pointer is resolved in the
 * constructor; a call that comes before it (another object's constructor)
 * resolves its own pointer then. A symbol the C library does not have
 * (glibc's pidfd_open before 2.36) is remembered as missing, and the
 * system call is made through the next syscall() instead.
 */
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "preload.h"

void *preload_next_fn[NEXT_COUNT];

static const char *const next_name[NEXT_COUNT] = {
	[NEXT_IOCTL] = "ioctl",
	[NEXT_SYSCALL] = "syscall",
	[NEXT_WAITID] = "waitid",
	[NEXT_GETSOCKOPT] = "getsockopt",
	[NEXT_PIDFD_OPEN] = "pidfd_open",
	[NEXT_PIDFD_SEND_SIGNAL] = "pidfd_send_signal",
	[NEXT_PIDFD_GETFD] = "pidfd_getfd",
	[NEXT_SETNS] = "setns",
	[NEXT_PROCESS_MADVISE] = "process_madvise",
	[NEXT_PROCESS_MRELEASE] = "process_mrelease",
	[NEXT_CLONE] = "clone",
	[NEXT_PIDFD_SPAWN] = "pidfd_spawn",
	[NEXT_PIDFD_SPAWNP] = "pidfd_spawnp",
};

void *preload_next_resolve(int i)
{
	void *fn = dlsym(RTLD_NEXT, next_name[i]);

	if (!fn)
		fn = MISSING;
	/* Racing resolvers find the same. */
	__atomic_store_n(&preload_next_fn[i], fn, __ATOMIC_RELAXED);
	return fn == MISSING ? NULL : fn;
}

static void *resolve(int i)
{
	return preload_next(i);
}

__attribute__((constructor)) static void resolve_all(void)
{
	for (int i = 0; i < NEXT_COUNT; i++)
		preload_next_resolve(i);
}

typedef int ioctl_fn(int, unsigned long, ...);
typedef long syscall_fn(long, ...);
typedef int waitid_fn(idtype_t, id_t, siginfo_t *, int);
typedef int getsockopt_fn(int, int, int, void *, socklen_t *);
typedef int pidfd_open_fn(pid_t, unsigned int);
typedef int pidfd_send_signal_fn(int, int, siginfo_t *, unsigned int);

/*
 * libc has ioctl, syscall, waitid and getsockopt on every release; were
 * they missing (a C library that is not glibc), ENOSYS.
 */
static long no_next(void)
{
	errno = ENOSYS;
	return -1;
}

int preload_next_ioctl(int fd, unsigned long req, ...)
{
	ioctl_fn *fn = (ioctl_fn *)resolve(NEXT_IOCTL);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fn ? fn(fd, req, arg) : (int)no_next();
}

long preload_next_syscall(long nr, ...)
{
	syscall_fn *fn = (syscall_fn *)resolve(NEXT_SYSCALL);
	long a[6];
	va_list ap;

	/* As syscall(3) itself: six arguments, whatever the call takes. */
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return fn ? fn(nr, a[0], a[1], a[2], a[3], a[4], a[5]) : no_next();
}

int preload_next_waitid(idtype_t idtype, id_t id, siginfo_t *info,
			int options)
{
	waitid_fn *fn = (waitid_fn *)resolve(NEXT_WAITID);

	return fn ? fn(idtype, id, info, options) : (int)no_next();
}

int preload_next_getsockopt(int fd, int level, int name, void *val,
			    socklen_t *len)
{
	getsockopt_fn *fn = (getsockopt_fn *)resolve(NEXT_GETSOCKOPT);

	return fn ? fn(fd, level, name, val, len) : (int)no_next();
}

int preload_next_pidfd_open(pid_t pid, unsigned int flags)
{
	pidfd_open_fn *fn = (pidfd_open_fn *)resolve(NEXT_PIDFD_OPEN);

	if (fn)
		return fn(pid, flags);
	return (int)preload_next_syscall(PRELOAD_SYS_pidfd_open, pid, flags);
}

int preload_next_pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
				   unsigned int flags)
{
	pidfd_send_signal_fn *fn =
		(pidfd_send_signal_fn *)resolve(NEXT_PIDFD_SEND_SIGNAL);

	if (fn)
		return fn(pidfd, sig, info, flags);
	return (int)preload_next_syscall(PRELOAD_SYS_pidfd_send_signal, pidfd,
					 sig, info, flags);
}

long preload_next_call(int i, long nr, const long a[6])
{
	typedef long long_fn(long, long, long, long, long, long);
	typedef int int_fn(long, long, long, long, long, long);
	void *fn = preload_next(i);

	if (!fn)
		return preload_next_syscall(nr, a[0], a[1], a[2], a[3], a[4],
					    a[5]);
	/*
	 * Every wrapper here takes at most five integers and pointers,
	 * each in a register of its own (x86-64 and arm64): called with
	 * six longs, each parameter finds its value in the low bits of its
	 * register. The return value is read at the wrapper's own width.
	 */
	if (i == NEXT_PROCESS_MADVISE)
		return ((long_fn *)fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
	return ((int_fn *)fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
}
