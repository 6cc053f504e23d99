/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd-preload.so: the pidfd API of the newest kernel for unmodified
 * dynamically linked programs (LD_PRELOAD; pidfdctl exec). Each
 * interposed function first makes the program's own call, unchanged, to
 * the next definition of it (dlsym(RTLD_NEXT): another interposer, or
 * libc); only where the kernel refuses for want of a feature does it
 * serve the call through libpidfd's machinery (a private copy, linked in:
 * docs/interposer.md says why), and through the module.
 *
 * Every path is async-signal-safe and thread-safe: no allocation, no lock,
 * probes cached in atomics, the module's control fd close-on-exec.
 */
#ifndef PIDFD_PRELOAD_H
#define PIDFD_PRELOAD_H

#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

/*
 * Everything is built hidden (-fvisibility=hidden): only the interposed
 * functions are exported (and listed in preload.map).
 */
#define PRELOAD_PRIVATE __attribute__((visibility("hidden")))
#define PRELOAD_EXPORT __attribute__((visibility("default")))

/* waitid()'s P_PIDFD (<linux/wait.h>), which glibc 2.31 lacks. */
#define PRELOAD_P_PIDFD	((idtype_t)3)
/* getsockopt(SOL_SOCKET, SO_PEERPIDFD), 6.5 (asm-generic's number). */
#define PRELOAD_SO_PEERPIDFD	77

/* glibc 2.31 names no system call newer than 5.4: these are the same
 * numbers on every architecture. */
#define PRELOAD_SYS_pidfd_send_signal	424
#define PRELOAD_SYS_pidfd_open		434
#define PRELOAD_SYS_clone3		435
#define PRELOAD_SYS_pidfd_getfd		438
#define PRELOAD_SYS_process_madvise	440
#define PRELOAD_SYS_process_mrelease	448

/* ---- next.c: the next definition of each interposed function -------- */

enum {
	NEXT_IOCTL, NEXT_SYSCALL, NEXT_WAITID, NEXT_GETSOCKOPT,
	NEXT_PIDFD_OPEN, NEXT_PIDFD_SEND_SIGNAL, NEXT_PIDFD_GETFD, NEXT_SETNS,
	NEXT_PROCESS_MADVISE, NEXT_PROCESS_MRELEASE,
	NEXT_CLONE, NEXT_PIDFD_SPAWN, NEXT_PIDFD_SPAWNP,
	NEXT_COUNT
};

/* What a pointer holds for a symbol that the next objects lack. */
#define MISSING ((void *)1)

/* The resolved pointers; NULL until resolved (the constructor does). */
extern PRELOAD_PRIVATE void *preload_next_fn[NEXT_COUNT];
/* dlsym() it now: only before the constructor has run. */
PRELOAD_PRIVATE void *preload_next_resolve(int i);

/* The next definition of function @i, or NULL where there is none. */
static inline void *preload_next(int i)
{
	void *fn = __atomic_load_n(&preload_next_fn[i], __ATOMIC_RELAXED);

	if (__builtin_expect(!fn, 0))
		return preload_next_resolve(i);
	return fn == MISSING ? NULL : fn;
}

/*
 * The same for the paths passed through, in one comparison: NULL until
 * resolved, or missing (then preload_next() is for the slow path).
 */
static inline void *preload_next_resolved(int i)
{
	void *fn = __atomic_load_n(&preload_next_fn[i], __ATOMIC_RELAXED);

	return __builtin_expect((unsigned long)fn > (unsigned long)MISSING, 1) ?
	       fn : NULL;
}

/*
 * The calls to the next object's functions. The library's copy calls
 * these in place of ioctl(), syscall(), waitid() and getsockopt() (its
 * objects are linked with those references renamed, userspace.mk), so
 * that nothing of ours re-enters the interposer.
 */
PRELOAD_PRIVATE int preload_next_ioctl(int fd, unsigned long req, ...);
PRELOAD_PRIVATE long preload_next_syscall(long nr, ...);
PRELOAD_PRIVATE int preload_next_waitid(idtype_t idtype, id_t id,
					      siginfo_t *info, int options);
PRELOAD_PRIVATE int preload_next_getsockopt(int fd, int level,
						  int name, void *val,
						  socklen_t *len);
/* glibc's wrappers: each falls back to the system call where the C
 * library has none (pidfd_open and pidfd_send_signal: 2.36). */
PRELOAD_PRIVATE int preload_next_pidfd_open(pid_t pid, unsigned int flags);
PRELOAD_PRIVATE int preload_next_pidfd_send_signal(int pidfd, int sig,
						   siginfo_t *info,
						   unsigned int flags);
/*
 * The next definition of glibc's wrapper @i (NEXT_*) with the arguments
 * @a, or, where there is none, the system call @nr.
 */
PRELOAD_PRIVATE long preload_next_call(int i, long nr, const long a[6]);

/* ---- policy.c ---------------------------------------------------------- */

/*
 * Does the module's signal policy refuse its approximate paths (thread
 * scope, a caller's siginfo) to this process? Read once from the module's
 * parameters (docs/security.md), as tests/lib/pt_policy.c does.
 */
PRELOAD_PRIVATE bool preload_policy_refuses(void);

/* ---- pidfd.c: after the kernel's answer ------------------------------- */

/*
 * Each takes the result of the program's call as the kernel (or the next
 * interposer) gave it, errno included, and returns what the newest
 * kernel would: that result where it stands, else the module's.
 */
PRELOAD_PRIVATE int preload_after_open(int ret, pid_t pid,
				       unsigned int flags);
/*
 * The kernel made the child @pid with the pidfd @fd (clone(), clone3()
 * or pidfd_spawn() with CLONE_PIDFD, in the parent): a module pidfd takes
 * its place where pidfd_open() would make one.
 */
PRELOAD_PRIVATE void preload_after_child(int fd, pid_t pid);
/* clone3() made a child (@ret) with CLONE_PIDFD: its pidfd is in @args. */
PRELOAD_PRIVATE long preload_after_clone3(long ret, const void *args,
					  unsigned long size);
PRELOAD_PRIVATE int preload_after_send_signal(int ret, int pidfd, int sig,
					      const siginfo_t *info,
					      unsigned int flags);
/*
 * A system call @nr that takes a pidfd as its first argument (@a) and that
 * the kernel refuses with @refusal for a module pidfd.
 */
PRELOAD_PRIVATE long preload_after_kernel_only(long ret, long nr,
					       const long a[6], int refusal);
PRELOAD_PRIVATE int preload_after_waitid(int ret, idtype_t idtype, id_t id,
					 siginfo_t *info, int options,
					 struct rusage *ru);
PRELOAD_PRIVATE int preload_after_pidfs_ioctl(int ret, int fd,
					      unsigned long req, void *arg);

/*
 * Is @req one of pidfs's ioctls that the module also serves (the
 * namespace ioctls, PIDFD_GET_INFO of any size)?
 */
PRELOAD_PRIVATE bool preload_pidfs_ioctl(unsigned long req);

#endif
