// SPDX-License-Identifier: GPL-2.0
/*
 * The pidfd file type: a file that pins a struct pid, on an inode of its
 * own on anon_inodefs.
 *
 * Every open pidfd of one struct pid is a file on one inode, which its
 * target holds while they are open (exit_track.c), numbered with that
 * struct pid's identity (docs/design.md, "Process identity"). The inodes
 * are made on the kernel's anon_inodefs, as anon_inode_make_secure_inode()
 * makes them: statfs gives ANON_INODE_FS_MAGIC (never PID_FS_MAGIC, which
 * promises pidfs's semantics), the files are named "anon_inode:[pidfd]" by
 * anon_inodefs itself, and nothing of a file but its f_op is module
 * memory, which __fput() lets go before the dentry, inode and mount: a
 * pidfd closed while the module unloads touches no freed code or data.
 */
#include <linux/anon_inodes.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

atomic_t pfd_live_files = ATOMIC_INIT(0);

/* anon_inodefs's mount, referenced (its symbol is not exported). */
static struct vfsmount *pfd_anon_mnt;
/* The kernel's one shared anon inode, referenced: ours look as it does. */
static struct inode *pfd_shared_inode;

int pfd_fs_init(void)
{
	struct file *probe;

	/*
	 * Any anon inode file is on anon_inodefs's one internal mount. The
	 * probe's last fput() runs when the loader returns to user space,
	 * after a failed init has freed the module: its file operations
	 * must be the kernel's, not ours. Nothing ever reads this file.
	 */
	probe = anon_inode_getfile("[pidfd]", &generic_ro_fops, NULL,
				   O_RDONLY);
	if (IS_ERR(probe))
		return PTR_ERR(probe);
	pfd_anon_mnt = mntget(probe->f_path.mnt);
	pfd_shared_inode = file_inode(probe);
	ihold(pfd_shared_inode);
	fput(probe);
	return 0;
}

void pfd_fs_exit(void)
{
	iput(pfd_shared_inode);
	mntput(pfd_anon_mnt);
}

/**
 * pfd_inode_new - the inode for the pidfds of a target
 * @ino: its number, the identity of the target's struct pid
 *
 * Return: a referenced inode, or an ERR_PTR().
 */
struct inode *pfd_inode_new(u64 ino)
{
	struct inode *inode;

	inode = alloc_anon_inode(pfd_anon_mnt->mnt_sb);
	if (IS_ERR(inode))
		return inode;
	inode->i_ino = ino;
	/* As the one anon inode every pidfd shared before (made at boot). */
	inode->i_uid = GLOBAL_ROOT_UID;
	inode->i_gid = GLOBAL_ROOT_GID;
	/*
	 * Its times too: the time this inode is made would tell any user
	 * who opens a pidfd of the process since when someone else has
	 * held one of it.
	 */
	pfd_inode_copy_times(inode, pfd_shared_inode);
	/*
	 * And its inode operations: on newer kernels (7.2's) anon_inodefs's
	 * own, which refuse setattr (chmod, chown, utimes) as they do for
	 * every other anon-inode file; before, alloc_anon_inode()'s.
	 */
	inode->i_op = pfd_shared_inode->i_op;
	return inode;
}

/*
 * PIDFD_AUTOKILL: the last reference to the file is gone. The kill is
 * checked as the opener, by the kernel at this moment, with the real
 * signal: kill_pid_usb_asyncio() refuses unless the opener's real or
 * effective uid is the target's real or saved uid (kill(2)'s rule,
 * without CAP_KILL) and every LSM's task_kill hook allows SIGKILL from
 * the opener's credentials. So a target that has since changed to
 * another uid, or that an LSM now protects, survives. It takes only RCU
 * and the target's siglock, so the context __fput() runs in (task work,
 * a workqueue) does not matter. The struct pid is the pidfd's own, never
 * a number: a reaped process is not there to kill, and its number's new
 * owner is another struct pid.
 */
static void pfd_autokill(struct pid *pid, const struct cred *cred)
{
	sigval_t unused = {};
	int err;

	err = kill_pid_usb_asyncio(SIGKILL, 0, unused, pid, cred);
	if (err && err != -ESRCH)
		pr_notice_ratelimited("autokill of pid %d refused: %d\n",
				      pid_nr(pid), err);
	/*
	 * A pid namespace's init drops a SIGKILL that is not forced, as the
	 * one above is not. kill(2) by the opener, its parent and so outside
	 * that namespace, forces it: so, once allowed, does the kill here.
	 */
	else if (!err && is_child_reaper(pid))
		kill_pid(pid, SIGKILL, 1);
}

static int pfd_release(struct inode *inode, struct file *file)
{
	struct pfd_target *target = pfd_file_target(file);

	/* The file's credentials are its opener's, the ones to kill as. */
	if (file->f_flags & PIDFD_AUTOKILL)
		pfd_autokill(pfd_target_pid(target), file->f_cred);
	pfd_target_inode_put(target);
	pfd_target_put(target);
	atomic_dec(&pfd_live_files);
	return 0;
}

/*
 * POLLIN once the process has exited: for a process pidfd, once the whole
 * thread group is dead; for a thread pidfd, once the thread is (a group
 * leader that exited early counts only when its group is gone, as
 * upstream). POLLHUP as well once it has been reaped.
 */
static __poll_t pfd_poll(struct file *file, struct poll_table_struct *pts)
{
	struct pid *pid = pfd_file_pid(file);
	bool thread = pfd_is_thread(file);
	struct task_struct *task;
	__poll_t events = 0;

	poll_wait(file, &pid->wait_pidfd, pts);

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_PID);
	if (!task)
		events = EPOLLIN | EPOLLRDNORM | EPOLLHUP;
	else if (READ_ONCE(task->exit_state) &&
		 (thread ? !delay_group_leader(task) :
			   thread_group_empty(task)))
		events = EPOLLIN | EPOLLRDNORM;
	rcu_read_unlock();

	return events;
}

/*
 * Pid: and NSpid: as upstream prints them, in the pid namespace of the
 * procfs instance the fdinfo file is read through.
 */
static void pfd_show_fdinfo(struct seq_file *m, struct file *file)
{
	struct pid *pid = pfd_file_pid(file);
	struct pid_namespace *ns = pfd_proc_pid_ns(file_inode(m->file));
	pid_t nr = -1;
	unsigned int level;

	if (pid_has_task(pid, PIDTYPE_PID))
		nr = pid_nr_ns(pid, ns);

	seq_put_decimal_ll(m, "Pid:\t", nr);
	if (IS_ENABLED(CONFIG_PID_NS)) {
		seq_put_decimal_ll(m, "\nNSpid:\t", nr);
		/* Deeper levels only where this namespace sees the process. */
		if (nr > 0)
			for (level = ns->level + 1; level <= pid->level; level++)
				seq_put_decimal_ll(m, "\t",
						   pid->numbers[level].nr);
	}
	seq_putc(m, '\n');
}

static long pfd_ioctl(struct file *file, unsigned int cmd,
		      unsigned long arg)
{
	if (cmd == PIDFD_GET_PROCFD)
		return pfd_get_procfd(file, (int)arg);
	if (pfd_ioctl_is(cmd, PIDFD_DEV_SEND_SIGNAL))
		return pfd_send_signal_ioctl(file, cmd, (void __user *)arg);
	if (pfd_ioctl_is(cmd, PIDFD_DEV_GET_INFO))
		return pfd_get_info(file, cmd, (void __user *)arg);
	if (pfd_is_ns_ioctl(cmd))
		return pfd_get_namespace(file, cmd, arg);
	return -ENOTTY;
}

static const struct file_operations pfd_file_fops = {
	.owner		= THIS_MODULE,
	.release	= pfd_release,
	.poll		= pfd_poll,
	.show_fdinfo	= pfd_show_fdinfo,
	.unlocked_ioctl	= pfd_ioctl,
	/* PIDFD_GET_PROCFD's fd number and the ns ioctls' 0 survive it. */
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

/* PIDFD_DEV_IS_PIDFD: 1 if @fd is one of our pidfds, else 0; EBADF. */
long pfd_fd_is_ours(int fd)
{
	struct file *file = fget_raw(fd);
	long ours;

	if (!file)
		return -EBADF;
	ours = file->f_op == &pfd_file_fops;
	fput(file);
	return ours;
}

/**
 * pfd_install - make a new close-on-exec pidfd for @pid
 * @pid: the process or thread; the pidfd takes its own reference
 * @flags: PIDFD_NONBLOCK, PIDFD_THREAD, PIDFD_AUTOKILL (checked by the
 *         caller: the kill at the last close is made as the file's f_cred,
 *         the caller's)
 *
 * Return: the new file descriptor, or a negative errno.
 */
int pfd_install(struct pid *pid, unsigned int flags)
{
	struct pfd_target *target;
	struct inode *inode;
	struct file *file;
	int fd;

	target = pfd_target_get(pid);
	if (IS_ERR(target))
		return PTR_ERR(target);

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		goto err_put_target;

	/*
	 * The file holds the module (released by __fput()'s fops_put(), as
	 * for anon_inode_getfile()) and a reference to the target's inode.
	 */
	inode = pfd_target_inode_get(target);
	if (IS_ERR(inode)) {
		put_unused_fd(fd);
		fd = PTR_ERR(inode);
		goto err_put_target;
	}
	__module_get(THIS_MODULE);
	file = alloc_file_pseudo(inode, pfd_anon_mnt, "[pidfd]",
				 O_RDWR | (flags & PIDFD_NONBLOCK),
				 &pfd_file_fops);
	if (IS_ERR(file)) {
		module_put(THIS_MODULE);
		iput(inode);
		pfd_target_inode_put(target);
		put_unused_fd(fd);
		fd = PTR_ERR(file);
		goto err_put_target;
	}
	file->private_data = target;
	/*
	 * Only O_ACCMODE and O_NONBLOCK were asked for; the others show in
	 * F_GETFL as upstream's do (nobody sees the file before fd_install).
	 */
	file->f_flags |= flags & (PIDFD_THREAD | PIDFD_AUTOKILL);
	atomic_inc(&pfd_live_files);
	fd_install(fd, file);
	return fd;

err_put_target:
	pfd_target_put(target);
	return fd;
}
