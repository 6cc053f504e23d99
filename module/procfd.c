// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_PROCFD: a /proc/<pid> directory fd proved to be the pidfd's
 * process.
 *
 * The directory is opened by name, with the caller's credentials and a
 * normal path walk, so procfs's own rules (hidepid=, LSMs) apply as they do
 * to openat(procfd, "<pid>"). What makes it safe is the check around the
 * open (pidfd_open_proc_entry(), which nsfd.c uses too).
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>

#include "pidfd_internal.h"

/*
 * procfs can miss a live process for a moment: a lookup of /proc/<pid>
 * that finds the old leader just before execve() from another thread
 * hands its pid to that thread (de_thread()) fails with ENOENT once the
 * old leader is released. Looking again finds the new leader.
 */
#define PROC_LOOKUP_ATTEMPTS	3

/**
 * pidfd_open_proc_entry - open <nr>/@path in a procfs, proved to be @pid's
 * @pid: the process the entry must belong to
 * @root: the procfs root
 * @path: what to open below /proc/<nr>, or "" for the directory itself
 * @flags: open flags
 *
 * Opened with the caller's credentials and a normal path walk. The number
 * must name @pid in the procfs's pid namespace before and after the open:
 * a struct pid is never reused and keeps its number until its last task
 * is released, so agreement at both ends means the number meant @pid for
 * the whole open.
 *
 * Return: the file, or an ERR_PTR(): -ESRCH when @pid is gone or not in
 * that namespace, else what the open gave.
 */
struct file *pidfd_open_proc_entry(struct pid *pid, const struct path *root,
				   const char *path, int flags)
{
	struct pid_namespace *ns = pidfd_proc_pid_ns(d_inode(root->dentry));
	pid_t nr = pid_nr_ns(pid, ns);
	struct file *entry;
	char name[64];
	int attempt;

	if (!nr || !pidfd_pid_holds_number(pid, ns, nr))
		return ERR_PTR(-ESRCH);
	if (snprintf(name, sizeof(name), "%d%s%s", nr, *path ? "/" : "",
		     path) >= sizeof(name))
		return ERR_PTR(-ENAMETOOLONG);

	for (attempt = 1; ; attempt++) {
		entry = pidfd_file_open_root(root, name, flags);
		if (!pidfd_pid_holds_number(pid, ns, nr)) {
			/* Gone while we looked, whatever the lookup found. */
			if (!IS_ERR(entry))
				fput(entry);
			return ERR_PTR(-ESRCH);
		}
		if (!IS_ERR(entry) || PTR_ERR(entry) != -ENOENT ||
		    attempt == PROC_LOOKUP_ATTEMPTS)
			return entry;
	}
}

long pidfd_get_procfd(struct file *file, int procfd)
{
	struct file *root, *dir;
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

	dir = pidfd_open_proc_entry(pidfd_file_pid(file), &root->f_path, "",
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
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
