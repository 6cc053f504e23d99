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
 * Some programs run without the interposer whatever LD_PRELOAD says, and
 * pidfdctl says so before it executes them (docs/interposer.md, "Limits"):
 * a static program, which has no dynamic loader, and a program the kernel
 * runs in secure mode (AT_SECURE): set-user-ID or set-group-ID to another
 * than the caller's real ID, or with file capabilities for a caller that
 * is not root. The loader then drops LD_PRELOAD, unless the object sits
 * in a system directory and is itself setuid, which this one is not. An
 * LSM's transition may do the same unseen; that is not guessed at.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
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

/* The file execvp() would run for @cmd, into @buf; false if none. */
static bool find_command(const char *cmd, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;

	if (strchr(cmd, '/')) {
		if (strlen(cmd) >= size)
			return false;
		strcpy(buf, cmd);
		return true;
	}
	/* glibc's execvp() without PATH searches these. */
	for (p = path && *path ? path : "/bin:/usr/bin"; ; p = end + 1) {
		end = strchrnul(p, ':');
		if (snprintf(buf, size, "%.*s/%s", (int)(end - p),
			     end > p ? p : ".", cmd) < (int)size &&
		    access(buf, X_OK) == 0 && stat(buf, &st) == 0 &&
		    S_ISREG(st.st_mode))
			return true;
		if (!*end)
			return false;
	}
}

/* Is the ELF file @fd linked without a program interpreter? */
static bool elf_static(int fd)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh.e_phentsize != sizeof(ph))
		return false;	/* a script, or not ours to judge */
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
		    sizeof(ph))
			return false;
		if (ph.p_type == PT_INTERP)
			return false;
	}
	return true;
}

/*
 * Why the program open at @fd will run without the interposer, or NULL if
 * nothing says it will.
 */
static const char *runs_without_preload(int fd)
{
	struct statvfs vfs;
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;	/* execvp() will say what is wrong */
	if (elf_static(fd))
		return "is statically linked: it has no dynamic loader to read LD_PRELOAD";
	/* Any program, from a caller whose effective IDs are not its real. */
	if (geteuid() != getuid() || getegid() != getgid())
		return "runs in secure mode (pidfdctl's effective IDs are not its real ones), where the dynamic loader ignores LD_PRELOAD";
	/* A nosuid mount or no_new_privs makes the kernel ignore the bits. */
	if ((fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)) ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return NULL;
	if ((st.st_mode & S_ISUID) && st.st_uid != getuid())
		return "is set-user-ID: the dynamic loader ignores LD_PRELOAD in secure mode";
	if ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
	    st.st_gid != getgid())
		return "is set-group-ID: the dynamic loader ignores LD_PRELOAD in secure mode";
	if (getuid() != 0 && fgetxattr(fd, "security.capability", NULL, 0) > 0)
		return "has file capabilities: the dynamic loader ignores LD_PRELOAD in secure mode";
	return NULL;
}

/* Tell the user when CMD will not have the interposer. */
static void say_if_not_preloaded(const char *cmd)
{
	char path[PATH_MAX];
	const char *why;
	int fd;

	if (!find_command(cmd, path, sizeof(path)))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	why = runs_without_preload(fd);
	close(fd);
	if (why)
		pidfdctl_warn("exec: %s %s; it runs without the interposer",
			      path, why);
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
	say_if_not_preloaded(args->cmd[0]);
	execvp(args->cmd[0], args->cmd);
	err = errno;
	pidfdctl_warn("exec: %s: %s", args->cmd[0], strerror(err));
	return err == ENOENT ? RUN_EXIT_ENOENT : RUN_EXIT_CANNOT_EXEC;
}
