/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels pidfd-dkms supports (5.10 to 7.2), in one
 * place. module/compat.mk probes the headers and Module.symvers of the
 * kernel being built against and passes PIDFD_HAVE_* defines; this header
 * turns them into one API for the module sources.
 */
#ifndef PIDFD_COMPAT_H
#define PIDFD_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "pidfd-dkms needs Linux 5.10 or later"
#endif

#endif /* PIDFD_COMPAT_H */
