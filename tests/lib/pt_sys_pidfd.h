/* SPDX-License-Identifier: GPL-2.0 */
/*
 * glibc's <sys/pidfd.h> (2.36), for the tests that include it with
 * <libpidfd.h> on purpose: the names must not clash. Older glibc (Debian
 * 11's 2.31) has none: the kernel's calls, raw.
 */
#ifndef PT_SYS_PIDFD_H
#define PT_SYS_PIDFD_H

#if __has_include(<sys/pidfd.h>)
#include <sys/pidfd.h>
#else
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline int pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static inline int pidfd_send_signal(int pidfd, int sig, siginfo_t *info,
				    unsigned int flags)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
}
#endif

#endif /* PT_SYS_PIDFD_H */
