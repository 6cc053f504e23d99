// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/<pid> directories and the pids they stand for, both ways:
 * PIDFD_DEV_OPEN_PROCDIR parses a caller's directory and proves the pid it
 * names; PIDFD_GET_PROCFD, and the namespace ioctls (nsfd.c), open a
 * pidfd's directory and prove it is the pidfd's.
 *
 * Every walk here starts at a procfs directory and takes one component at
 * a time with LOOKUP_NO_XDEV and no symlinks: it never leaves that procfs
 * instance, and a mount the caller put over an entry (in its own mount
 * namespace) ends it with EXDEV instead of being followed. Nothing here
 * changes the dcache or the mount tree of a procfs a caller can reach: a
 * stale dentry there is left to procfs, which drops it once its pid has no
 * task, and counts as "cannot be proved" (ESRCH). Only in an instance made
 * by kern_mount() (nsfd.c's), which no path reaches and no mount can cover,
 * is a stale dentry dropped.
 * docs/security.md has the audit.
 */
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

/*
 * procfs can miss a live process for a moment: a lookup of /proc/<pid>
 * that finds the old leader just before execve() from another thread
 * hands its pid to that thread (de_thread()) fails with ENOENT, or leaves
 * a dentry whose task is gone (ESRCH), once the old leader is released.
 * procfs drops that dentry at the next lookup: looking again finds the
 * new leader.
 */
#define PROC_LOOKUP_ATTEMPTS	3

#define PROC_WALK_FLAGS	(LOOKUP_NO_XDEV | LOOKUP_NO_SYMLINKS | \
			 LOOKUP_NO_MAGICLINKS)

/*
 * Does @nr name @pid in @ns, and does @pid still have its task? A struct
 * pid keeps its number until its last task is released and is never
 * reused, so a yes before and after a lookup of /proc/<nr> proves the
 * lookup found @pid's process.
 */
static bool pfd_pid_holds_number(struct pid *pid,
				 struct pid_namespace *ns, pid_t nr)
{
	bool held;

	rcu_read_lock();
	held = find_pid_ns(nr, ns) == pid && pid_has_task(pid, PIDTYPE_PID);
	rcu_read_unlock();
	return held;
}

/* Is @path the root directory of a procfs instance? */
static bool pfd_is_proc_root(const struct path *path)
{
	const struct dentry *dentry = path->dentry;

	return dentry->d_sb->s_magic == PROC_SUPER_MAGIC &&
	       dentry == dentry->d_sb->s_root;
}

/**
 * pfd_proc_open_dir - open a directory in a procfs directory
 * @parent: the procfs directory
 * @name: one component
 *
 * As openat(parent, name, O_RDONLY | O_DIRECTORY) with RESOLVE_NO_XDEV and
 * RESOLVE_NO_SYMLINKS would: the caller's credentials, the walk's
 * permission check on @parent and the open's on the entry (may_open()'s
 * inode_permission(), which dentry_open() leaves to its callers).
 *
 * Return: the file, or an ERR_PTR(): -EXDEV when a mount covers the entry
 * in the caller's view, else what the walk or the open gave.
 */
static struct file *pfd_proc_open_dir(const struct path *parent,
				      const char *name)
{
	struct path path;
	struct file *dir;
	int err;

	err = vfs_path_lookup(parent->dentry, parent->mnt, name,
			      PROC_WALK_FLAGS, &path);
	if (err)
		return ERR_PTR(err);
	if (!d_is_dir(path.dentry))
		err = -ENOTDIR;
	else
		err = path_permission(&path, MAY_OPEN | MAY_READ);
	dir = err ? ERR_PTR(err) :
		    dentry_open(&path, O_RDONLY | O_DIRECTORY, current_cred());
	path_put(&path);
	return dir;
}

struct tid_search {
	struct dir_context ctx;
	pid_t nr;
	bool found;
};

static PFD_FILLDIR_TYPE tid_search_actor(struct dir_context *ctx,
					 const char *name, int len,
					 loff_t pos, u64 ino,
					 unsigned int type)
{
	struct tid_search *search = container_of(ctx, struct tid_search, ctx);
	char buf[12];
	int nr;

	if (len <= 0 || len >= sizeof(buf))
		return PFD_FILLDIR_CONTINUE;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (kstrtoint(buf, 10, &nr) || nr != search->nr)
		return PFD_FILLDIR_CONTINUE;
	search->found = true;
	return PFD_FILLDIR_STOP;
}

/**
 * pfd_procdir_alive - has a process or thread directory still its task?
 * @dir: a /proc/<pid> or /proc/<pid>/task/<tid> directory
 *
 * procfs finds the entries of such a directory only while the struct pid
 * its inode is bound to has a task: a bound pid that is alive holds its
 * number still.
 *
 * Return: 0 if so, -ENOENT if not, else what the lookup gave.
 */
static int pfd_procdir_alive(const struct path *dir)
{
	struct path ns;
	int err;

	err = vfs_path_lookup(dir->dentry, dir->mnt, "ns", PROC_WALK_FLAGS,
			      &ns);
	if (!err)
		path_put(&ns);
	return err;
}

/**
 * pfd_procdir_lists - does a process directory's task/ list a thread?
 * @procdir: a /proc/<pid> directory
 * @nr: a thread's number in that procfs's pid namespace
 *
 * procfs lists task/ from the struct pid the directory's inode is bound
 * to: the threads of that pid's process, by their numbers now. So if @nr
 * is listed while it names a struct pid, the directory is that pid's
 * process. Read with iterate_dir(), the kernel's readdir with its checks.
 *
 * Return: 1 if listed, 0 if not, or a negative errno (-ENOENT or -ESRCH
 * when the directory's task is gone).
 */
static int pfd_procdir_lists(const struct path *procdir, pid_t nr)
{
	struct tid_search search = {
		.ctx.actor = tid_search_actor,
		.nr = nr,
	};
	struct file *task;
	int attempt, err;

	/*
	 * procfs ends a listing early when the thread it just listed exits
	 * meanwhile (next_tid()): a number missing may be there on the next
	 * reading. Never the other way round: a listed number was there.
	 */
	for (attempt = 0; attempt < PROC_LOOKUP_ATTEMPTS; attempt++) {
		task = pfd_proc_open_dir(procdir, "task");
		if (IS_ERR(task))
			return PTR_ERR(task);
		err = iterate_dir(task, &search.ctx);
		fput(task);
		if (err || search.found)
			return err ?: 1;
	}
	return 0;
}

/**
 * pfd_open_procdir - open @pid's directory in a procfs
 * @pid: the process (or thread) the directory must belong to
 * @root: the root of the procfs
 *
 * Opened as pfd_proc_open_dir() opens, by the number the procfs's pid
 * namespace gives @pid. The number must name @pid before and after, and
 * the directory's task/ must list it in between: a struct pid is never
 * reused and keeps its number until its last task is released, so the
 * directory belongs to @pid's process. In the module's own instance, a
 * directory that a lookup racing execve() bound to another live pid
 * (exchange_tids()), which procfs keeps as long as that pid lives, is
 * dropped and looked up again.
 *
 * Return: the directory, or an ERR_PTR(): -ESRCH when @pid is gone, is not
 * in that namespace, or its directory cannot be proved; -EXDEV when a
 * mount covers it in the caller's view; else what procfs gave.
 */
struct file *pfd_open_procdir(struct pid *pid, const struct path *root)
{
	/* Only the module's own mount: no path reaches it, nothing covers. */
	bool unreachable = pfd_nsfd_own_mount(root->mnt);
	struct pid_namespace *ns = pfd_proc_pid_ns(d_inode(root->dentry));
	pid_t nr = pid_nr_ns(pid, ns);
	struct file *dir;
	char name[12];
	int attempt, err;

	if (!nr || !pfd_pid_holds_number(pid, ns, nr))
		return ERR_PTR(-ESRCH);
	snprintf(name, sizeof(name), "%d", nr);

	for (attempt = 1; ; attempt++) {
		dir = pfd_proc_open_dir(root, name);
		/*
		 * task/ proves the directory's process, not its thread: a
		 * dentry that a lookup racing execve() from an earlier thread
		 * numbered @nr bound to the process's own pid passes for a
		 * later thread @nr of the same process. Where dentries may be
		 * dropped, a thread's is looked up anew, after @nr was seen
		 * naming @pid: procfs binds the new one to @pid, or, if @pid's
		 * thread execs meanwhile, to the process's pid while @pid's
		 * task is the exiting old leader, which has no namespaces left
		 * (nsfd.c answers ESRCH). In a caller's procfs identity holds
		 * per process (docs/abi.md).
		 */
		if (unreachable && !IS_ERR(dir) &&
		    !pid_has_task(pid, PIDTYPE_TGID)) {
			d_invalidate(dir->f_path.dentry);
			fput(dir);
			dir = pfd_proc_open_dir(root, name);
		}
		if (IS_ERR(dir)) {
			err = PTR_ERR(dir);
		} else {
			err = pfd_procdir_lists(&dir->f_path, nr);
			/* Not listed, or its task gone: not (or no more) @pid's. */
			if (err >= 0 || err == -ENOENT)
				err = err == 1 ? 0 : -ESRCH;
		}
		/* Gone while we looked, whatever the lookup found. */
		if (!pfd_pid_holds_number(pid, ns, nr))
			err = -ESRCH;
		if (!err)
			return dir;
		if (!IS_ERR(dir)) {
			if (unreachable && err == -ESRCH &&
			    pfd_pid_holds_number(pid, ns, nr))
				d_invalidate(dir->f_path.dentry);
			fput(dir);
		}
		/*
		 * The exec race (above) looks like ENOENT, or ESRCH: look
		 * again. procfs's own ENOENT (hidepid=invisible) stays.
		 */
		if ((err != -ENOENT && err != -ESRCH) ||
		    attempt == PROC_LOOKUP_ATTEMPTS ||
		    !pid_has_task(pid, PIDTYPE_PID))
			return ERR_PTR(err);
	}
}

long pfd_get_procfd(struct file *file, int procfd)
{
	struct file *root, *dir;
	int fd;

	/* O_PATH descriptors too: openat() accepts them as directories. */
	root = fget_raw(procfd);
	if (!root)
		return -EBADF;

	if (!pfd_is_proc_root(&root->f_path)) {
		fd = -EINVAL;
		goto out_put_root;
	}

	dir = pfd_open_procdir(pfd_file_pid(file), &root->f_path);
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

/* Is @dentry named by a positive decimal number? Its value, or 0. */
static int dentry_number(struct dentry *dentry)
{
	char name[12];
	int nr;

	spin_lock(&dentry->d_lock);
	if (strscpy(name, dentry->d_name.name, sizeof(name)) < 0)
		name[0] = '\0';
	spin_unlock(&dentry->d_lock);
	return kstrtoint(name, 10, &nr) || nr <= 0 ? 0 : nr;
}

static bool dentry_named(struct dentry *dentry, const char *want)
{
	bool same;

	spin_lock(&dentry->d_lock);
	same = !strcmp(dentry->d_name.name, want);
	spin_unlock(&dentry->d_lock);
	return same;
}

/*
 * A procfs process directory (/proc/<pid>, also /proc/<tid>) or thread
 * directory (/proc/<pid>/task/<tid>): the number in its name, and in
 * @procdir the process directory whose task/ must list that number (the
 * directory itself, or the thread's /proc/<pid> on the same mount). 0 for
 * any other file, or a thread directory mounted without its process's.
 * Procfs directories are never moved or renamed.
 */
static int procdir_number(const struct path *dir, struct path *procdir)
{
	struct dentry *root = dir->dentry->d_sb->s_root;
	struct dentry *parent, *process;
	int nr = 0;

	if (dir->dentry->d_sb->s_magic != PROC_SUPER_MAGIC ||
	    !d_is_dir(dir->dentry))
		return 0;
	parent = dget_parent(dir->dentry);
	if (parent == root) {
		nr = dentry_number(dir->dentry);
		if (nr) {
			*procdir = *dir;
			path_get(procdir);
		}
	} else if (parent != dir->dentry && dentry_named(parent, "task") &&
		   dir->dentry != dir->mnt->mnt_root &&
		   parent != dir->mnt->mnt_root) {
		process = dget_parent(parent);
		if (process != parent && process->d_parent == root &&
		    dentry_number(process))
			nr = dentry_number(dir->dentry);
		if (nr) {
			procdir->mnt = mntget(dir->mnt);
			procdir->dentry = dget(process);
		}
		dput(process);
	}
	dput(parent);
	return nr;
}

/*
 * The directory @dir stands for one struct pid, which the module cannot
 * read from its inode; procfs lists that pid's threads in its process's
 * task/. The pid that has the number now (looked up first) is the
 * directory's process if task/ lists the number and the pid still has
 * it afterwards (pfd_procdir_lists()); a thread directory must also
 * still have its task (pfd_procdir_alive()).
 */
long pfd_dev_open_procdir(unsigned int cmd, void __user *uarg)
{
	struct pidfd_open_procdir_args args;
	size_t usize = _IOC_SIZE(cmd);
	struct pid_namespace *ns;
	struct path procdir;
	struct file *dir;
	struct pid *pid;
	pid_t nr;
	int err;

	if (usize < PIDFD_OPEN_PROCDIR_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_struct_from_user(&args, sizeof(args), uarg, usize);
	if (err)
		return err;
	if (args.flags & ~(PIDFD_NONBLOCK | PIDFD_THREAD))
		return -EINVAL;

	dir = fget_raw(args.procdir);
	if (!dir)
		return -EBADF;
	nr = procdir_number(&dir->f_path, &procdir);
	if (!nr) {
		err = -EINVAL;
		goto out_put_dir;
	}

	ns = pfd_proc_pid_ns(file_inode(dir));
	rcu_read_lock();
	pid = get_pid(find_pid_ns(nr, ns));
	rcu_read_unlock();
	if (!pid) {
		err = -ESRCH;
		goto out_put_procdir;
	}

	err = pfd_procdir_lists(&procdir, nr);
	/* A thread directory: listed is not enough, it must be alive. */
	if (err == 1 && procdir.dentry != dir->f_path.dentry)
		err = pfd_procdir_alive(&dir->f_path) ?: 1;
	if (err == 1 && pfd_pid_holds_number(pid, ns, nr))
		err = pfd_open_allowed(pid, args.flags) ?:
		      pfd_install(pid, args.flags);
	else if (err >= 0 || err == -ENOENT)
		err = -ESRCH;	/* not listed, or not any more */
	put_pid(pid);
out_put_procdir:
	path_put(&procdir);
out_put_dir:
	fput(dir);
	return err;
}
