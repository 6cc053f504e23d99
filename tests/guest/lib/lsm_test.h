/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the LSM tests: AppArmor policy and confinement, the module's
 * signal_lsm_trust parameter, the kernel log.
 */
#ifndef LSM_TEST_H
#define LSM_TEST_H

#include <stdbool.h>
#include <stddef.h>

#define LT_TRUST_PARAM	"/sys/module/pidfd/parameters/signal_lsm_trust"
#define LT_LSMS_PARAM	"/sys/module/pidfd/parameters/signal_lsms"
/* Where the harness puts the compiled tests/guest/apparmor profiles. */
#define LT_PROFILES	"/lib/pidfd-test/signal-profiles.bin"

/* Mounts securityfs on /sys/kernel/security unless it is. 0 or -1. */
int lt_mount_securityfs(void);
/* The kernel's list of active LSMs, as securityfs shows it. */
#define LT_LSM_LIST	"/sys/kernel/security/lsm"

/* Is @name in the kernel's list of active LSMs? */
bool lt_lsm_active(const char *name);
/*
 * Does AppArmor itself say it is enabled (built in, and chosen at boot:
 * /sys/module/apparmor/parameters/enabled)? A probe apart from the LSM
 * list, for PT_SKIP_UNLESS().
 */
bool lt_apparmor_enabled(void);
/* Loads (or replaces) the binary AppArmor policy in @path. 0 or -1. */
int lt_apparmor_load(const char *path);
/* Moves the calling thread into AppArmor profile @name at once. 0 or -1. */
int lt_apparmor_enter(const char *name);

/* Writes @value to the sysfs file @path. 0 or -1/errno. */
int lt_write_file(const char *path, const char *value);
/* Sets signal_lsm_trust to @value ("" for none). 0 or -1/errno. */
int lt_write_trust(const char *value);

/*
 * Does the kernel log contain a line with every one of the NULL-ended
 * strings? (klogctl, the whole ring buffer.)
 */
bool lt_klog_has(const char *first, ...) __attribute__((sentinel));

#endif /* LSM_TEST_H */
