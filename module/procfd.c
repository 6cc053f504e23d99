// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_PROCFD: a /proc/<pid> directory fd proved to be the pidfd's
 * process.
 *
 * The directory is opened by name, with the caller's credentials and a
 * normal path walk, so procfs's own rules (hidepid=, LSMs) apply as they do
 * to openat(procfd, "<pid>"). What makes it safe is the check around the
 * open: the number must name the pidfd's struct pid in that procfs's pid
 * namespace both before and after. A struct pid is never reused and keeps
 * its number until the process is reaped, so agreement at both ends means
 * the number meant this process for the whole open.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>

#include "pidfd_internal.h"

long pidfd_get_procfd(struct file *file, int procfd)
{
	struct pid *pid = pidfd_file_pid(file);
	struct file *root, *dir;
	struct pid_namespace *ns;
	char name[12];
	pid_t nr;
	int fd;

	/* O_PATH descriptors too: openat() accepts them as directories. */
	root = fget_raw(procfd);
	if (!root)
		return -EBADF;

	if (root->f_path.dentry->d_sb->s_magic != PROC_SUPER_MAGIC ||
	    root->f_path.dentry != root->f_path.dentry->d_sb->s_root) {
		fd = -EINVAL;
		goto out_put_root;
	}

	ns = pidfd_proc_pid_ns(file_inode(root));
	nr = pid_nr_ns(pid, ns);
	if (!nr || !pidfd_pid_holds_number(pid, ns, nr)) {
		fd = -ESRCH;
		goto out_put_root;
	}

	snprintf(name, sizeof(name), "%d", nr);
	dir = pidfd_file_open_root(&root->f_path, name,
				   O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (!pidfd_pid_holds_number(pid, ns, nr)) {
		/* Gone while we looked, whatever the lookup found. */
		if (!IS_ERR(dir))
			fput(dir);
		fd = -ESRCH;
		goto out_put_root;
	}
	if (IS_ERR(dir)) {
		fd = PTR_ERR(dir);
		goto out_put_root;
	}

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		fput(dir);
		goto out_put_root;
	}
	fd_install(fd, dir);

out_put_root:
	fput(root);
	return fd;
}
