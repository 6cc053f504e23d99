/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Namespaces as the tests compare them: by their nsfs inode numbers. */
#ifndef PT_NS_H
#define PT_NS_H

#include <sys/types.h>

/*
 * The nsfs inode of @fd if it is a namespace, of type @type (CLONE_NEW*)
 * unless @type is 0; else 0.
 */
ino_t pt_nsfd_inode(int fd, int type);
/* The inode a /proc/.../ns/<name> link names ("uts:[4026531838]"), or 0. */
ino_t pt_ns_link_inode(const char *path);

#endif
