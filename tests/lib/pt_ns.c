// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "pt_ns.h"

ino_t pt_nsfd_inode(int fd, int type)
{
	struct stat st;
	int got;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	got = ioctl(fd, NS_GET_NSTYPE);
	if (got < 0 || (type && got != type))
		return 0;
	return st.st_ino;
}

ino_t pt_ns_link_inode(const char *path)
{
	char target[96], *bracket;
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return 0;
	target[n] = '\0';
	bracket = strchr(target, '[');
	return bracket ? strtoull(bracket + 1, NULL, 10) : 0;
}
