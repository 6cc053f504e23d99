// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Children with a pidfd from the start. glibc's fork() and posix_spawn()
 * make the child (a raw clone(CLONE_PIDFD) would skip glibc's fork
 * bookkeeping: malloc's locks, the thread's cached TID, atfork handlers),
 * and the pidfd is opened by number before anyone can reap the child:
 * only its parent can, and the parent is in here. The exceptions are
 * refused or documented: a kernel that reaps children itself (SIGCHLD
 * ignored, SA_NOCLDWAIT) is refused with ECHILD; this thread's own
 * SIGCHLD handler is held off by blocking SIGCHLD across the window;
 * another thread that waits for any child is the caller's to avoid.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/* The pidfd flags a child's pidfd may be opened with. */
#define FORK_FLAGS	(PIDFD_NONBLOCK | PIDFD_AUTOKILL)

/* Whether the kernel reaps our children without a wait. */
static bool children_reap_themselves(void)
{
	struct sigaction sa;

	if (sigaction(SIGCHLD, NULL, &sa) < 0)
		return false;
	return (sa.sa_flags & SA_NOCLDWAIT) ||
	       (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN);
}

/*
 * Block SIGCHLD in this thread and check that the child will wait for
 * us; the backend is checked first, so that no child is made in vain.
 */
static int enter_window(unsigned int flags, sigset_t *old)
{
	sigset_t chld;
	int kind;

	if (flags & ~FORK_FLAGS) {
		errno = EINVAL;
		return -1;
	}
	kind = libpidfd_priv_open_kind(flags);
	if (kind < 0)
		return -1;
	if (kind == LIBPIDFD_BACKEND_NATIVE && (flags & PIDFD_AUTOKILL)) {
		/* Only the module has it: say so before making a child. */
		errno = EINVAL;
		return -1;
	}
	if (kind == LIBPIDFD_BACKEND_MODULE &&
	    !libpidfd_priv_module_known())
		return -1;
	if (kind == LIBPIDFD_BACKEND_NATIVE && !libpidfd_priv_kernel().open) {
		errno = ENOSYS;
		return -1;
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, old);
	if (children_reap_themselves()) {
		pthread_sigmask(SIG_SETMASK, old, NULL);
		errno = ECHILD;
		return -1;
	}
	return 0;
}

/*
 * The child's pidfd, or -1: then the child is killed and reaped (it is
 * ours and nobody else's) and errno says why the open failed.
 */
static int open_child(pid_t child, unsigned int flags, const sigset_t *old)
{
	int fd = libpidfd_open(child, flags);
	int saved = errno;

	if (fd < 0) {
		kill(child, SIGKILL);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = saved;
	return fd;
}

pid_t libpidfd_fork(int *pidfd, unsigned int flags)
{
	sigset_t old;
	pid_t child;

	if (!pidfd) {
		errno = EINVAL;
		return -1;
	}
	if (enter_window(flags, &old) < 0)
		return -1;
	child = fork();
	if (child <= 0) {
		int saved = errno;

		pthread_sigmask(SIG_SETMASK, &old, NULL);
		errno = saved;
		return child;
	}
	*pidfd = open_child(child, flags, &old);
	return *pidfd < 0 ? -1 : child;
}

static int spawn(int *pidfd, bool search, const char *path,
		 const posix_spawn_file_actions_t *file_actions,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	posix_spawnattr_t with_mask;
	short attr_flags = 0;
	sigset_t old;
	pid_t child;
	int err;

	if (!pidfd)
		return EINVAL;
	if (enter_window(0, &old) < 0)
		return errno;
	/*
	 * The child would inherit SIGCHLD blocked from this thread: give it
	 * the caller's mask unless the caller's attributes set one. glibc's
	 * posix_spawnattr_t holds no pointers, so a copy is a full one.
	 */
	if (attr)
		posix_spawnattr_getflags(attr, &attr_flags);
	if (!(attr_flags & POSIX_SPAWN_SETSIGMASK)) {
		if (attr)
			memcpy(&with_mask, attr, sizeof(with_mask));
		else
			posix_spawnattr_init(&with_mask);
		posix_spawnattr_setflags(&with_mask,
					 attr_flags | POSIX_SPAWN_SETSIGMASK);
		posix_spawnattr_setsigmask(&with_mask, &old);
		attr = &with_mask;
	}
	err = (search ? posix_spawnp : posix_spawn)(&child, path, file_actions,
						     attr, argv, envp);
	if (err) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return err;
	}
	*pidfd = open_child(child, 0, &old);
	return *pidfd < 0 ? errno : 0;
}

/* glibc 2.39's pidfd_spawn(3) and pidfd_spawnp(3), argument for argument. */
int libpidfd_spawn(int *pidfd, const char *path,
		   const posix_spawn_file_actions_t *file_actions,
		   const posix_spawnattr_t *attr, char *const argv[],
		   char *const envp[])
{
	return spawn(pidfd, false, path, file_actions, attr, argv, envp);
}

int libpidfd_spawnp(int *pidfd, const char *file,
		    const posix_spawn_file_actions_t *file_actions,
		    const posix_spawnattr_t *attr, char *const argv[],
		    char *const envp[])
{
	return spawn(pidfd, true, file, file_actions, attr, argv, envp);
}
