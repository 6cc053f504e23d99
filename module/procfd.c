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
#include <linux/dcache.h>
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
 * pidfd_procdir_number - the number of the process a procfs directory is
 * @dir: an open /proc/<pid> or /proc/<pid>/task/<tid> directory
 *
 * The first field of its stat, which procfs prints from the struct pid
 * the directory's inode is bound to, in that procfs's pid namespace. The
 * name of the directory does not tell: the same de_thread() race can bind
 * a new dentry named by the exec'ing thread's number to the process's
 * pid, and it stays valid as long as that process lives. (Read through
 * the caller's memory on some kernels: it guards the caller against
 * dentries others planted, which is all it is for.)
 *
 * Return: the number, or a negative errno.
 */
pid_t pidfd_procdir_number(struct file *dir)
{
	struct file *stat;
	char buf[16];
	ssize_t len;
	int nr;

	stat = pidfd_file_open_root(&dir->f_path, "stat", O_RDONLY);
	if (IS_ERR(stat))
		return PTR_ERR(stat);
	len = pidfd_read_file(stat, buf, sizeof(buf) - 1);
	fput(stat);
	if (len < 0)
		return len;
	buf[len] = '\0';
	return sscanf(buf, "%d ", &nr) == 1 && nr > 0 ? nr : -EIO;
}

/*
 * /proc/<nr>, and @path below it unless @path is empty. A directory bound
 * to another pid than its name says (the de_thread() race binds a new one
 * to the process's pid or to the exec'ing thread's old one) is dropped
 * from the dcache (what procfs does once that pid has no task), so that
 * the next lookup makes the right one, and counts as not found.
 */
static struct file *open_proc_entry_once(const struct path *root,
					 const char *name, pid_t nr,
					 const char *path, int flags)
{
	struct file *dir, *entry;
	pid_t shown;

	dir = pidfd_file_open_root(root, name, *path ?
				   O_RDONLY | O_DIRECTORY | O_NOFOLLOW : flags);
	/*
	 * procfs's permission check answers ESRCH for a directory whose
	 * task has gone: a dentry the same race bound to the exec'ing
	 * thread's old pid. The next walk's revalidation drops it.
	 */
	if (dir == ERR_PTR(-ESRCH))
		return ERR_PTR(-ENOENT);
	if (IS_ERR(dir))
		return dir;
	shown = pidfd_procdir_number(dir);
	if (shown != nr) {
		/*
		 * Bound to another pid (it shows another number), or to the
		 * exec'ing thread's old pid, released since (procfs answers
		 * ESRCH or ENOENT in it): stale either way.
		 */
		if (shown > 0 || shown == -ESRCH || shown == -ENOENT) {
			d_invalidate(dir->f_path.dentry);
			shown = -ENOENT;
		}
		fput(dir);
		return ERR_PTR(shown);
	}
	if (!*path)
		return dir;
	entry = pidfd_file_open_root(&dir->f_path, path, flags);
	fput(dir);
	return entry;
}

/**
 * pidfd_open_proc_entry - open <nr>/@path in a procfs, proved to be @pid's
 * @pid: the process the entry must belong to
 * @root: the procfs root
 * @path: what to open below /proc/<nr>, or "" for the directory itself
 * @flags: open flags
 *
 * Opened with the caller's credentials and a normal path walk. The number
 * must name @pid in the procfs's pid namespace before and after the open,
 * and the directory must show that number as its own: a struct pid is
 * never reused and keeps its number until its last task is released, so
 * agreement at both ends means the number meant @pid for the whole open,
 * and the directory, which had that number in between, is @pid's.
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
	char name[12];
	int attempt;

	if (!nr || !pidfd_pid_holds_number(pid, ns, nr))
		return ERR_PTR(-ESRCH);
	snprintf(name, sizeof(name), "%d", nr);

	for (attempt = 1; ; attempt++) {
		entry = open_proc_entry_once(root, name, nr, path, flags);
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
