// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl exec: execute CMD with libpidfd-preload.so first in LD_PRELOAD
 * (docs/interposer.md), as env(1) would with LD_PRELOAD=... set; objects
 * already in LD_PRELOAD stay, after ours, so that they see the calls the
 * interposer passes on.
 *
 * Where the object is: beside the pidfdctl being run (a build tree, where
 * make puts both in build/), else where make install put it
 * (PIDFDCTL_PRELOAD_PATH: $(LIBDIR)/libpidfd/libpidfd-preload.so).
 *
 * The dynamic loader ignores LD_PRELOAD for setuid and setgid programs
 * (and those with file capabilities) unless the object sits in a system
 * directory and is itself setuid: those run without the interposer.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpidfd.h"
#include "args.h"
#include "commands.h"

#ifndef PIDFDCTL_PRELOAD_PATH
#define PIDFDCTL_PRELOAD_PATH "/usr/local/lib/libpidfd/libpidfd-preload.so"
#endif

#define PRELOAD_NAME "libpidfd-preload.so"

/* @dir/@name into @buf, if it fits. */
static bool join(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", dir, name);

	return n > 0 && (size_t)n < size;
}

static const char *find_preload(char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (join(buf, size, self, PRELOAD_NAME) &&
			    access(buf, R_OK) == 0)
				return buf;
		}
	}
	if (access(PIDFDCTL_PRELOAD_PATH, R_OK) == 0)
		return PIDFDCTL_PRELOAD_PATH;
	return NULL;
}

static const char *backend_name(int backend)
{
	switch (backend) {
	case LIBPIDFD_BACKEND_NATIVE:
		return "native";
	case LIBPIDFD_BACKEND_MODULE:
		return "module";
	default:
		return "auto";
	}
}

int pidfdctl_exec(const struct pidfdctl_args *args)
{
	const char *old = getenv("LD_PRELOAD");
	char found[PATH_MAX], *list;
	const char *path;
	size_t len;
	int err;

	path = find_preload(found, sizeof(found));
	if (!path) {
		pidfdctl_warn("exec: %s is neither beside pidfdctl nor at %s",
			      PRELOAD_NAME, PIDFDCTL_PRELOAD_PATH);
		return RUN_EXIT_FAILURE;
	}
	/* The loader splits LD_PRELOAD at spaces and colons. */
	if (strpbrk(path, " :\t")) {
		pidfdctl_warn("exec: the path %s has a space or a colon, which "
			      "LD_PRELOAD cannot hold", path);
		return RUN_EXIT_FAILURE;
	}
	len = strlen(path) + (old && *old ? strlen(old) + 1 : 0) + 1;
	list = malloc(len);
	if (!list) {
		pidfdctl_warn("exec: out of memory");
		return RUN_EXIT_FAILURE;
	}
	if (old && *old)
		snprintf(list, len, "%s:%s", path, old);
	else
		snprintf(list, len, "%s", path);
	if (setenv("LD_PRELOAD", list, 1) < 0 ||
	    (args->backend >= 0 &&
	     setenv("LIBPIDFD_BACKEND", backend_name(args->backend), 1) < 0)) {
		pidfdctl_warn("exec: %s", strerror(errno));
		free(list);
		return RUN_EXIT_FAILURE;
	}
	if (pidfdctl_verbose)
		pidfdctl_warn("exec: LD_PRELOAD=%s", list);
	free(list);
	execvp(args->cmd[0], args->cmd);
	err = errno;
	pidfdctl_warn("exec: %s: %s", args->cmd[0], strerror(err));
	return err == ENOENT ? RUN_EXIT_ENOENT : RUN_EXIT_CANNOT_EXEC;
}
