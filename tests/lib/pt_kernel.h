/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel has, probed at run time the way libpidfd probes
 * it (on the caller's own pidfd, or a child that exits at once), never
 * guessed from the version number: a backport or a configuration option
 * moves a feature, a version does not. These are the @has of
 * PT_SKIP_UNLESS() (check_glue.h): each says "absent" only for the answer
 * that means absent (ENOSYS, ENOTTY, EINVAL, ...), so that a probe that
 * fails for another reason makes the test fail rather than skip. No
 * Check: every test program links it.
 */
#ifndef PT_KERNEL_H
#define PT_KERNEL_H

#include <stdbool.h>
#include <sys/syscall.h>

/*
 * System calls the C library may have no SYS_ name for (glibc 2.31, Debian
 * 11's, names none newer than 5.4): numbers from 424 on are the same on
 * every architecture the tests run on.
 */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal		424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open			434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd			438
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444
#endif

/* pidfd_open(2) (5.3): not ENOSYS. */
bool pt_kernel_has_pidfd_open(void);
/* PIDFD_THREAD for pidfd_open(2) (6.9): not EINVAL. */
bool pt_kernel_has_pidfd_thread(void);
/* pidfd_send_signal(2)'s PIDFD_SIGNAL_* scope flags (6.9): not EINVAL. */
bool pt_kernel_has_signal_scope(void);
/* The PIDFD_GET_*_NAMESPACE ioctls on the kernel's pidfds (6.11): not ENOTTY. */
bool pt_kernel_has_ns_ioctls(void);
/* PIDFD_GET_INFO on the kernel's pidfds (6.13): not ENOTTY. */
bool pt_kernel_has_get_info(void);
/*
 * PIDFD_INFO_EXIT (6.15): the kernel keeps a reaped child's exit status
 * for its pidfd. Asked of a child without an exit signal (no SIGCHLD,
 * invisible to wait(-1)) that exits at once.
 */
bool pt_kernel_has_info_exit(void);
/*
 * getsockopt(SO_PEERPIDFD) (6.5): a socketpair's end answers it, not
 * ENOPROTOOPT.
 */
bool pt_kernel_has_peerpidfd(void);
/* PIDFD_INFO_COREDUMP (6.16): GET_INFO answers it for ourselves. */
bool pt_kernel_has_info_coredump(void);
/*
 * Landlock's ABI version (LANDLOCK_CREATE_RULESET_VERSION): 1 and up, or
 * 0 with errno (ENOSYS: not built in, as before 5.13; EOPNOTSUPP: built
 * in, disabled at boot).
 */
int pt_landlock_abi(void);
/* Landlock (5.13): the version query says neither ENOSYS nor EOPNOTSUPP. */
bool pt_kernel_has_landlock(void);

/* The whole kernel log ring (klogctl), NUL-terminated: free() it. NULL. */
char *pt_klog_read(void);

#endif /* PT_KERNEL_H */
