/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared between the library's source files; not installed. */
#ifndef LIBPIDFD_INTERNAL_H
#define LIBPIDFD_INTERNAL_H

/* Hidden from the shared library's dynamic symbol table. */
#define LIBPIDFD_PRIVATE __attribute__((visibility("hidden")))

/*
 * The process's control fd for /dev/pidfd, opened on first use. Returns
 * it, or -1 with errno (ENOPKG when the module is not loaded).
 */
LIBPIDFD_PRIVATE int libpidfd_priv_control_fd(void);

#endif
