// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Children born with a pidfd through libc: clone() with CLONE_PIDFD and
 * glibc's pidfd_spawn() and pidfd_spawnp() (2.39). The kernel writes its
 * own pidfd; in the parent, pidfd.c puts a module one in its place where
 * pidfd_open() would make one, so that the child's exit status outlives
 * its reap as on 6.15. The child itself never returns through here.
 * Declared here: glibc before 2.39 has no pidfd_spawn().
 */
#include <errno.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <sys/types.h>

#include "libpidfd.h"
#include "internal.h"
#include "preload.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD	0x00001000
#endif

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
int pidfd_spawn(int *pidfd, const char *path,
		const posix_spawn_file_actions_t *actions,
		const posix_spawnattr_t *attr, char *const argv[],
		char *const envp[]);
int pidfd_spawnp(int *pidfd, const char *file,
		 const posix_spawn_file_actions_t *actions,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[]);

typedef int clone_fn(int (*)(void *), void *, int, void *, ...);
typedef int spawn_fn(int *, const char *, const posix_spawn_file_actions_t *,
		     const posix_spawnattr_t *, char *const[], char *const[]);

/*
 * The three optional arguments are read whether given or not, as libc's
 * own clone() reads their registers: it uses each only for the flags
 * that say it was given.
 */
PRELOAD_EXPORT int clone(int (*fn)(void *), void *stack, int flags,
			 void *arg, ...)
{
	clone_fn *next = (clone_fn *)preload_next(NEXT_CLONE);
	pid_t *parent_tid, *child_tid;
	void *tls;
	va_list ap;
	int ret;

	va_start(ap, arg);
	parent_tid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	child_tid = va_arg(ap, pid_t *);
	va_end(ap);
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	ret = next(fn, stack, flags, arg, parent_tid, tls, child_tid);
	if (ret > 0 && (flags & CLONE_PIDFD) && !(flags & CLONE_THREAD))
		preload_after_child(*(int *)parent_tid, ret);
	return ret;
}

/* pidfd_spawn() and pidfd_spawnp() answer an error number, not errno. */
static int spawn(int i, int *pidfd, const char *path,
		 const posix_spawn_file_actions_t *actions,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	spawn_fn *next = (spawn_fn *)preload_next(i);
	int saved = errno, ret;
	pid_t pid;

	if (!next)
		return ENOSYS;
	ret = next(pidfd, path, actions, attr, argv, envp);
	if (ret == 0 && libpidfd_priv_fdinfo_pid(*pidfd, &pid) == 0 && pid > 0)
		preload_after_child(*pidfd, pid);
	errno = saved;
	return ret;
}

PRELOAD_EXPORT int pidfd_spawn(int *pidfd, const char *path,
			       const posix_spawn_file_actions_t *actions,
			       const posix_spawnattr_t *attr,
			       char *const argv[], char *const envp[])
{
	return spawn(NEXT_PIDFD_SPAWN, pidfd, path, actions, attr, argv,
		     envp);
}

PRELOAD_EXPORT int pidfd_spawnp(int *pidfd, const char *file,
				const posix_spawn_file_actions_t *actions,
				const posix_spawnattr_t *attr,
				char *const argv[], char *const envp[])
{
	return spawn(NEXT_PIDFD_SPAWNP, pidfd, file, actions, attr, argv,
		     envp);
}
