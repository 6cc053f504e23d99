// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lsm_test.h"
#include "pidfd_test.h"

#define SECURITYFS	"/sys/kernel/security"

int lt_mount_securityfs(void)
{
	if (access(LT_LSM_LIST, R_OK) == 0)
		return 0;
	return mount("securityfs", SECURITYFS, "securityfs", 0, NULL);
}

int lt_write_trust(const char *value)
{
	char line[160];

	/* As echo(1) writes it: sysfs ignores an empty write. */
	snprintf(line, sizeof(line), "%.128s\n", value);
	return lt_write_file(LT_TRUST_PARAM, line);
}

int lt_write_file(const char *path, const char *value)
{
	size_t len = strlen(value);
	int fd, err;
	ssize_t n;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, value, len);
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)len ? 0 : -1;
}

bool lt_lsm_active(const char *name)
{
	char list[512], *tok, *save;

	if (lt_mount_securityfs() < 0 ||
	    pt_read_text(LT_LSM_LIST, list, sizeof(list)) < 0)
		return false;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, name))
			return true;
	return false;
}

bool lt_apparmor_enabled(void)
{
	char val[8];

	return pt_read_text("/sys/module/apparmor/parameters/enabled", val,
			    sizeof(val)) == 0 && val[0] == 'Y';
}

int lt_apparmor_load(const char *path)
{
	struct stat st;
	char *policy;
	int fd, out, err = -1;

	if (lt_mount_securityfs() < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size <= 0)
		goto out_close;
	policy = malloc((size_t)st.st_size);
	if (!policy || read(fd, policy, (size_t)st.st_size) != st.st_size)
		goto out_free;
	/* The whole policy in one write: that is how the kernel takes it. */
	out = open(SECURITYFS "/apparmor/.replace", O_WRONLY | O_CLOEXEC);
	if (out >= 0) {
		if (write(out, policy, (size_t)st.st_size) == st.st_size)
			err = 0;
		close(out);
	}
out_free:
	free(policy);
out_close:
	close(fd);
	return err;
}

int lt_apparmor_enter(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "changeprofile %s", name);
	/*
	 * The calling thread's own attr (a label is per thread): the per-LSM
	 * directory first (5.8+), then the shared one.
	 */
	if (lt_write_file("/proc/thread-self/attr/apparmor/current", cmd) == 0)
		return 0;
	return lt_write_file("/proc/thread-self/attr/current", cmd);
}

bool lt_klog_has(const char *first, ...)
{
	char *buf = pt_klog_read(), *line, *save;
	bool found = false;

	if (!buf)
		return false;
	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *s;
		va_list ap;

		found = true;
		va_start(ap, first);
		for (s = first; s; s = va_arg(ap, const char *))
			if (!strstr(line, s))
				found = false;
		va_end(ap);
	}
	free(buf);
	return found;
}
