// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The module's signal policy as this process meets it (docs/security.md,
 * "The signal policy"): signal_lsms lists the active LSMs that may judge a
 * signal differently from signal 0, signal_lsm_trust those the
 * administrator vouches for ("all": every one). Any listed LSM not
 * trusted refuses the module's approximate paths (thread scope, a
 * caller's siginfo), except AppArmor for an unconfined caller, which it
 * does not mediate. Where they are refused, the interposer answers as a
 * kernel without the feature, so that programs fall back (pidfd.c).
 *
 * Read once per process (open, read, close: async-signal-safe) and kept
 * in an atomic; a change of the parameters reaches programs started
 * after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "preload.h"

#define SIGNAL_LSMS	"/sys/module/pidfd/parameters/signal_lsms"
#define SIGNAL_TRUST	"/sys/module/pidfd/parameters/signal_lsm_trust"

enum { UNKNOWN, ALLOWS, REFUSES };
static int policy = UNKNOWN;

/* The first line of @path into @buf, without its newline. */
static bool read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* @name (of @len bytes) is one entry of the comma-separated @list. */
static bool listed(const char *list, const char *name, size_t len)
{
	for (const char *p = list; *p; p += strcspn(p, ",")) {
		if (*p == ',')
			p++;
		if (strncmp(p, name, len) == 0 && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

static bool apparmor_unconfined(void)
{
	char label[64];

	if (!read_line("/proc/thread-self/attr/apparmor/current", label,
		       sizeof(label)) &&
	    !read_line("/proc/thread-self/attr/current", label, sizeof(label)))
		return false;
	return strcmp(label, "unconfined") == 0;
}

static int read_policy(void)
{
	char lsms[128], trust[128];
	const char *p;

	if (!read_line(SIGNAL_LSMS, lsms, sizeof(lsms)) ||
	    !read_line(SIGNAL_TRUST, trust, sizeof(trust)))
		return UNKNOWN;
	if (listed(trust, "all", 3))
		return ALLOWS;
	for (p = lsms; *p; ) {
		size_t len = strcspn(p, ",");

		if (len && !listed(trust, p, len) &&
		    !(len == 8 && strncmp(p, "apparmor", 8) == 0 &&
		      apparmor_unconfined()))
			return REFUSES;
		p += len;
		if (*p == ',')
			p++;
	}
	return ALLOWS;
}

bool preload_policy_refuses(void)
{
	int known = __atomic_load_n(&policy, __ATOMIC_RELAXED);
	int saved;

	if (known == UNKNOWN) {
		saved = errno;
		known = read_policy();
		errno = saved;
		/* No module (yet): asked again next time. */
		if (known != UNKNOWN)
			__atomic_store_n(&policy, known, __ATOMIC_RELAXED);
	}
	return known == REFUSES;
}
