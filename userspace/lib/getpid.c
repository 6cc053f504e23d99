// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpidfd_getpid(): glibc's pidfd_getpid(3) for both kinds of pidfd. The
 * number comes from the "Pid:" line of /proc/self/fdinfo/<fd>, which the
 * module writes in upstream's format; the errno rules are glibc's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpidfd.h"
#include "internal.h"

/* Parse "Pid:\t<n>" out of the fdinfo text; false if there is none. */
static bool find_pid_line(const char *text, long *pid)
{
	const char *line = text;

	while (line && *line) {
		if (strncmp(line, "Pid:", 4) == 0) {
			char *end;

			errno = 0;
			*pid = strtol(line + 4, &end, 10);
			return errno == 0 && end != line + 4 &&
			       (*end == '\n' || *end == '\0');
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

pid_t libpidfd_getpid(int pidfd)
{
	char path[64], text[4096];
	size_t used = 0;
	long pid;
	int fd;

	if (pidfd == PIDFD_SELF_THREAD)
		return gettid();
	if (pidfd == PIDFD_SELF_THREAD_GROUP)
		return getpid();
	if (libpidfd_priv_check_is_pidfd(pidfd) < 0)
		return -1;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* It was open a moment ago; it is not now. */
		if (errno == ENOENT)
			errno = EBADF;
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, text + used, sizeof(text) - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0 || used + (size_t)n == sizeof(text) - 1) {
			used += (size_t)n;
			break;
		}
		used += (size_t)n;
	}
	close(fd);
	text[used] = '\0';

	if (!find_pid_line(text, &pid) || pid < -1 || pid > INT_MAX) {
		errno = EBADF;
		return -1;
	}
	if (pid == 0) {
		/* Not visible in the pid namespace of this /proc. */
		errno = EREMOTE;
		return -1;
	}
	if (pid == -1) {
		/* Exited and reaped: no task attached any more. */
		errno = ESRCH;
		return -1;
	}
	return (pid_t)pid;
}
