// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The userspace routes between kernel pidfds and /proc/<pid> directories,
 * for programs without the module. The proof is convert.c's: a process
 * keeps its number from fork until it is reaped, so a number it holds
 * before and after a lookup was its own during the lookup.
 *
 * The fds compared may come from someone else (a directory or a procfs
 * root passed over a socket), whose mounts their paths may cross. So
 * every number is read from the caller's own /proc (thread-self: the
 * calling thread's fd table) and every lookup under a passed fd stays on
 * its mount (openat2() with RESOLVE_NO_XDEV, no symlinks), and only a
 * passed fd on the caller's own procfs instance is proved here: that
 * instance counts in the caller's pid namespace. What cannot be proved
 * this way (another instance, a covered file, a refusal to read) is left
 * to the module (LIBPIDFD_PRIV_UNPROVED).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/openat2.h>

#include "libpidfd.h"
#include "internal.h"

/* The inode number of every procfs root directory (PROC_ROOT_INO). */
#define PROC_ROOT_INO 1

/* A lookup that loses a race with an exec tries again this often. */
#define LOOKUP_ATTEMPTS 3

/* @name under @at, not leaving its mount nor following a symlink. */
static int open_beneath(int at, const char *name, unsigned long flags)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC | O_NOCTTY,
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, at, name, &how, sizeof(how));
}

/* Read up to @size - 1 bytes of the file @fd, NUL-terminated; closes it. */
static int read_text(int fd, char *buf, size_t size)
{
	size_t used = 0;
	int saved;

	if (fd < 0)
		return -1;
	while (used < size - 1) {
		ssize_t n = read(fd, buf + used, size - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	return 0;
}

/* A decimal at @s ending at one of @ends' characters; false if none. */
static bool parse_long(const char *s, const char *ends, long *value)
{
	char *end;

	errno = 0;
	*value = strtol(s, &end, 10);
	return errno == 0 && end != s && strchr(ends, *end);
}

int libpidfd_priv_fdinfo_pid(int fd, pid_t *nr)
{
	char path[64], text[4096];
	const char *line;
	long pid;

	libpidfd_priv_path_fd(path, sizeof(path), "/proc/thread-self/fdinfo/", fd);
	if (read_text(open(path, O_RDONLY | O_CLOEXEC), text, sizeof(text)) < 0)
		return -1;
	for (line = text; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (strncmp(line, "Pid:", 4) == 0 &&
		    parse_long(line + 4, "\n", &pid) &&
		    pid >= -1 && pid <= INT_MAX) {
			*nr = (pid_t)pid;
			return 0;
		}
	}
	errno = EBADF;
	return -1;
}

/*
 * The number of the process (or thread) @dir stands for: the first field
 * of its stat. -1 with ESRCH (ENOENT on older kernels) once the task is
 * reaped, EXDEV if a mount covers the file, EINVAL if @dir has no stat of
 * that form.
 */
static int stat_pid(int dir, pid_t *nr)
{
	char text[64];
	long pid;

	if (read_text(open_beneath(dir, "stat", O_RDONLY), text,
		      sizeof(text)) < 0) {
		if (errno == EISDIR)
			errno = EINVAL;
		return -1;
	}
	if (!parse_long(text, " ", &pid) || pid <= 0 || pid > INT_MAX ||
	    strncmp(strchr(text, ' '), " (", 2) != 0) {
		errno = EINVAL;
		return -1;
	}
	*nr = (pid_t)pid;
	return 0;
}

/* Is @fd on the procfs instance of the caller's own /proc? */
static bool on_callers_procfs(int fd)
{
	struct stat own, st;

	return stat("/proc/thread-self", &own) == 0 && fstat(fd, &st) == 0 &&
	       own.st_dev == st.st_dev;
}

static bool is_proc_root(int fd)
{
	struct statfs sfs;
	struct stat st;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC &&
	       fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_ino == PROC_ROOT_INO;
}

/*
 * Has @pidfd's process not been reaped? ESRCH if it has; a refusal
 * (EPERM) means a task is there, but only where the caller may send
 * itself a signal 0 (a seccomp filter could say EPERM to everything).
 */
static int pidfd_unreaped(int pidfd)
{
	if (libpidfd_priv_sys_send_signal(pidfd, 0, NULL, 0) == 0)
		return 1;
	if ((errno == EPERM || errno == EACCES) &&
	    libpidfd_priv_kernel().signal)
		return 1;
	return errno == ESRCH ? 0 : -1;
}

/* Still unreaped, still @nr: see the file comment. */
static int pidfd_still_holds(int pidfd, pid_t nr)
{
	pid_t now;

	if (libpidfd_priv_fdinfo_pid(pidfd, &now) < 0)
		return -1;
	if (now != nr)
		return 0;
	/* Kernels before 5.12 print the number of a reaped process too. */
	return pidfd_unreaped(pidfd);
}

int libpidfd_priv_procdir_of(int pidfd, int procfd)
{
	char name[16];
	pid_t nr, shown;
	int attempt, dir, held;

	if (fcntl(procfd, F_GETFD) < 0) {
		errno = EBADF;
		return -1;
	}
	if (!is_proc_root(procfd)) {
		errno = EINVAL;
		return -1;
	}
	if (!on_callers_procfs(procfd))
		return LIBPIDFD_PRIV_UNPROVED;
	for (attempt = 1; ; attempt++) {
		if (libpidfd_priv_fdinfo_pid(pidfd, &nr) < 0)
			return LIBPIDFD_PRIV_UNPROVED;
		if (nr <= 0) {
			/* Reaped (-1), or not in our pid namespace. */
			errno = ESRCH;
			return -1;
		}
		libpidfd_priv_path_fd(name, sizeof(name), "", nr);
		dir = open_beneath(procfd, name, O_RDONLY | O_DIRECTORY);
		if (dir < 0 && errno == EXDEV)
			return -1;	/* a mount covers it, as the module says */
		/*
		 * A dentry that a lookup racing execve() bound to the other
		 * thread's pid shows that pid's number in its stat.
		 */
		if (dir >= 0 && (stat_pid(dir, &shown) < 0 || shown != nr)) {
			int err = errno;

			close(dir);
			dir = -1;
			if (err == EXDEV || err == EPERM || err == EACCES)
				return LIBPIDFD_PRIV_UNPROVED;
			errno = ESRCH;
		}
		held = pidfd_still_holds(pidfd, nr);
		if (held <= 0) {
			if (dir >= 0)
				close(dir);
			if (held < 0)
				return LIBPIDFD_PRIV_UNPROVED;
			errno = ESRCH;
			return -1;
		}
		if (dir >= 0)
			return dir;
		if (errno == ENOENT)
			errno = ESRCH;
		if (errno != ESRCH || attempt == LOOKUP_ATTEMPTS)
			return -1;
	}
}

/*
 * After stat_pid() on @dir failed: -1 with ESRCH for a task's directory
 * whose task is reaped (ENOENT before 6.x: asked of the kernel, which
 * takes /proc/<pid> fds in pidfd_send_signal()), -1 with EINVAL for a
 * directory that stands for no task, else unproved.
 */
static int stat_failed(int dir)
{
	switch (errno) {
	case ESRCH:
	case EINVAL:
		return -1;
	case ENOENT:
		if (libpidfd_priv_sys_send_signal(dir, 0, NULL, 0) < 0 &&
		    errno == ESRCH)
			return -1;
		errno = ENOENT;
		return LIBPIDFD_PRIV_UNPROVED;
	default:
		return LIBPIDFD_PRIV_UNPROVED;
	}
}

int libpidfd_priv_pidfd_of_procdir(int dirfd, unsigned int flags)
{
	struct statfs sfs;
	struct stat st;
	pid_t nr, shown;
	int fd, saved;

	if (fstat(dirfd, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || fstatfs(dirfd, &sfs) < 0 ||
	    sfs.f_type != PROC_SUPER_MAGIC) {
		errno = EINVAL;
		return -1;
	}
	if (!on_callers_procfs(dirfd))
		return LIBPIDFD_PRIV_UNPROVED;
	if (stat_pid(dirfd, &nr) < 0)
		return stat_failed(dirfd);
	fd = libpidfd_priv_sys_pidfd_open(nr, flags);
	if (fd < 0) {
		/* Gone meanwhile: say so, whatever the number says now. */
		saved = errno;
		if (stat_pid(dirfd, &shown) < 0 && stat_failed(dirfd) == -1 &&
		    errno == ESRCH)
			return -1;
		errno = saved;
		return -1;
	}
	/* Same instance, so the same namespace: a check, and the proof. */
	if (libpidfd_priv_fdinfo_pid(fd, &shown) < 0 || shown != nr) {
		close(fd);
		return LIBPIDFD_PRIV_UNPROVED;
	}
	if (stat_pid(dirfd, &shown) < 0 || shown != nr) {
		saved = errno;
		close(fd);
		if (saved == EXDEV || saved == EPERM || saved == EACCES)
			return LIBPIDFD_PRIV_UNPROVED;
		errno = ESRCH;
		return -1;
	}
	return fd;
}
