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
