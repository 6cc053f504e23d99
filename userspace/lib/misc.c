// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>
#include <time.h>

#include "libpidfd.h"
#include "internal.h"

#ifndef PIDFD_DKMS_VERSION
#define PIDFD_DKMS_VERSION "unknown"
#endif

static const char module_not_loaded[] =
	"The pidfd kernel module is not loaded (no /dev/pidfd): load it with "
	"'modprobe pidfd' (install it first with 'sudo dkms install pidfd/"
	PIDFD_DKMS_VERSION "' if needed)";

const char *libpidfd_strerror(int errnum)
{
	static __thread char buf[256];

	if (errnum == ENOPKG)
		return module_not_loaded;
	/* The GNU strerror_r returns a static string or fills buf. */
	return strerror_r(errnum, buf, sizeof(buf));
}

/*
 * snprintf(3) is not async-signal-safe (POSIX), and an interposed call may
 * come from a signal handler: the paths in /proc are built by hand.
 */
char *libpidfd_priv_path_fd(char *buf, size_t size, const char *prefix,
			    int nr)
{
	char digits[16];
	size_t len = strlen(prefix), n = 0;
	unsigned int v = nr < 0 ? 0U - (unsigned int)nr : (unsigned int)nr;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (nr < 0)
		digits[n++] = '-';
	if (len + n + 1 > size) {
		buf[0] = '\0';
		return buf;
	}
	memcpy(buf, prefix, len);
	while (n)
		buf[len++] = digits[--n];
	buf[len] = '\0';
	return buf;
}

int64_t libpidfd_priv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *libpidfd_version(void)
{
	return PIDFD_DKMS_VERSION;
}
