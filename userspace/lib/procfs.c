// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The userspace routes between pidfds and /proc/<pid> directories, for
 * kernels whose own pidfds cannot be handed to the module, and for
 * programs without it. The proof is convert.c's: a process keeps its
 * number from fork until it is reaped, so a number it holds before and
 * after a lookup was its own during the lookup. The numbers compared are
 * all read through one procfs instance (fdinfo prints the pid in the pid
 * namespace of the procfs it is read through, stat the same), so a procfs
 * of another pid namespace cannot mix them up.
 *
 * The caller's own /proc is trusted as far as the caller trusts it: this
 * runs with the caller's privileges and can only fool the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "libpidfd.h"
#include "internal.h"

/* The inode number of every procfs root directory (PROC_ROOT_INO). */
#define PROC_ROOT_INO 1

/* A lookup that loses a race with an exec tries again this often. */
#define LOOKUP_ATTEMPTS 3

/* Read up to @size - 1 bytes of @name under @at, NUL-terminated. */
static int read_text(int at, const char *name, char *buf, size_t size)
{
	size_t used = 0;
	int fd, saved;

	fd = openat(at, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
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

/* A decimal at @s ending at @end's first character; false if none. */
static bool parse_long(const char *s, const char *ends, long *value)
{
	char *end;

	errno = 0;
	*value = strtol(s, &end, 10);
	return errno == 0 && end != s && strchr(ends, *end);
}

int libpidfd_priv_fdinfo_pid(int procfd, int fd, pid_t *nr)
{
	char path[64], text[4096];
	const char *line;
	long pid;

	snprintf(path, sizeof(path), "%sself/fdinfo/%d",
		 procfd == AT_FDCWD ? "/proc/" : "", fd);
	if (read_text(procfd, path, text, sizeof(text)) < 0)
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
 * The number of the process (or thread) @dir stands for, in its procfs's
 * pid namespace: the first field of its stat. -1 with ESRCH (ENOENT on
 * older kernels) once the task is reaped, EINVAL if @dir has no stat of
 * that form.
 */
static int stat_pid(int dir, pid_t *nr)
{
	char text[64];
	long pid;

	if (read_text(dir, "stat", text, sizeof(text)) < 0) {
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

static bool is_proc_root(int fd)
{
	struct statfs sfs;
	struct stat st;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC &&
	       fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_ino == PROC_ROOT_INO;
}

/* Still unreaped, and @nr in @procfd's namespace: see the file comment. */
static bool pidfd_still_holds(int pidfd, int procfd, pid_t nr)
{
	pid_t now;

	if (libpidfd_priv_fdinfo_pid(procfd, pidfd, &now) < 0 || now != nr)
		return false;
	/* Kernels before 5.12 print the number of a reaped process too. */
	return libpidfd_priv_sys_send_signal(pidfd, 0, NULL, 0) == 0 ||
	       errno == EPERM || errno == EACCES;
}

/*
 * Is @root a procfs of the caller's own pid namespace? Its "self" names
 * us by the number getpid() gives. Not a proof (another namespace could
 * give us the same number), only a filter: the proofs below compare
 * numbers within one instance.
 */
static bool procfs_is_callers(int root)
{
	char link[16];
	ssize_t len;
	long pid;

	len = readlinkat(root, "self", link, sizeof(link) - 1);
	if (len <= 0)
		return false;
	link[len] = '\0';
	return parse_long(link, "", &pid) && pid == getpid();
}

int libpidfd_priv_procdir_of(int pidfd, int procfd)
{
	char name[16];
	pid_t nr, shown;
	int attempt, dir;

	if (fcntl(procfd, F_GETFD) < 0) {
		errno = EBADF;
		return -1;
	}
	if (!is_proc_root(procfd)) {
		errno = EINVAL;
		return -1;
	}
	for (attempt = 1; ; attempt++) {
		/* Unreadable (no "self" here, or not dumpable on 5.10). */
		if (libpidfd_priv_fdinfo_pid(procfd, pidfd, &nr) < 0)
			return LIBPIDFD_PRIV_UNPROVED;
		if (nr <= 0) {
			/* Reaped (-1), or not in this procfs's namespace. */
			errno = ESRCH;
			return -1;
		}
		snprintf(name, sizeof(name), "%d", nr);
		dir = openat(procfd, name, O_RDONLY | O_DIRECTORY |
			     O_CLOEXEC | O_NOFOLLOW);
		/*
		 * A dentry that a lookup racing execve() bound to the other
		 * thread's pid shows that pid's number in its stat.
		 */
		if (dir >= 0 && (stat_pid(dir, &shown) < 0 || shown != nr)) {
			close(dir);
			dir = -1;
			errno = ESRCH;
		}
		if (!pidfd_still_holds(pidfd, procfd, nr)) {
			if (dir >= 0)
				close(dir);
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

/* The procfs root above @dir: /proc/<pid>/.. or /proc/<pid>/task/<tid>/../../.. */
static int root_above(int dir)
{
	static const char *const up[] = { "..", "../../.." };
	size_t i;

	for (i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		int root = openat(dir, up[i], O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (root >= 0 && is_proc_root(root))
			return root;
		if (root >= 0)
			close(root);
	}
	return -1;
}

/* Is @dir a /proc/<pid>/task/<tid> directory (its parent is "task")? */
static bool is_thread_dir(int dir)
{
	struct stat parent, task;

	return fstatat(dir, "..", &parent, 0) == 0 &&
	       fstatat(dir, "../../task", &task, 0) == 0 &&
	       parent.st_dev == task.st_dev && parent.st_ino == task.st_ino;
}

int libpidfd_priv_pidfd_of_procdir(int dirfd, unsigned int flags)
{
	struct statfs sfs;
	struct stat st;
	pid_t nr, shown;
	int root, fd, saved;

	if (fstat(dirfd, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || fstatfs(dirfd, &sfs) < 0 ||
	    sfs.f_type != PROC_SUPER_MAGIC) {
		errno = EINVAL;
		return -1;
	}
	if (stat_pid(dirfd, &nr) < 0) {
		/* A directory that stood for a task, gone: ESRCH. */
		if (errno == ESRCH)
			return -1;
		if (errno == ENOENT &&
		    ((libpidfd_priv_sys_send_signal(dirfd, 0, NULL, 0) < 0 &&
		      errno == ESRCH) || is_thread_dir(dirfd))) {
			errno = ESRCH;
			return -1;
		}
		errno = EINVAL;
		return -1;
	}
	root = root_above(dirfd);
	if (root < 0 || !procfs_is_callers(root)) {
		if (root >= 0)
			close(root);
		return LIBPIDFD_PRIV_UNPROVED;
	}
	fd = libpidfd_priv_sys_pidfd_open(nr, flags);
	saved = errno;
	if (fd >= 0 &&
	    (libpidfd_priv_fdinfo_pid(root, fd, &shown) < 0 || shown != nr)) {
		/* Not the namespace we took it for, or fdinfo unreadable. */
		close(fd);
		close(root);
		return LIBPIDFD_PRIV_UNPROVED;
	}
	if (fd >= 0 && (stat_pid(dirfd, &shown) < 0 || shown != nr)) {
		close(fd);
		fd = -1;
		saved = ESRCH;
	}
	close(root);
	errno = saved;
	return fd;
}
