// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_INFO, with upstream's number and struct pidfd_info.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

#define PIDFD_INFO_SUPPORTED (PIDFD_INFO_PID | PIDFD_INFO_CREDS | \
			      PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | \
			      PIDFD_INFO_SUPPORTED_MASK)

static_assert(sizeof(struct pidfd_info) == PIDFD_INFO_SIZE_VER3);
static_assert(offsetof(struct pidfd_info, exit_code) + 4 ==
	      PIDFD_INFO_SIZE_VER0);

/*
 * Copy @ksize bytes of @kinfo to a @usize-byte user struct: truncated when
 * the caller's struct is older, zero-filled when it is newer.
 */
static int copy_info_to_user(void __user *uarg, size_t usize,
			     const void *kinfo, size_t ksize)
{
	if (copy_to_user(uarg, kinfo, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(uarg + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/*
 * @pid's own number, not task_pid_vnr(@task): while execve() from another
 * thread hands the process's pid to that thread (exchange_tids()), a
 * lockless reader can find the thread in the pid's list before the
 * thread's ->thread_pid says so, and would report its old thread ID.
 * Called under rcu_read_lock().
 */
static void fill_from_task(struct pidfd_info *info, struct pid *pid,
			   struct task_struct *task)
{
	struct user_namespace *ns = current_user_ns();
	const struct cred *cred = __task_cred(task);

	info->pid = pid_vnr(pid);
	info->tgid = task_tgid_vnr(task);
	info->ppid = task_ppid_nr_ns(task, NULL);
	info->mask |= PIDFD_INFO_PID;

	info->ruid = from_kuid_munged(ns, cred->uid);
	info->rgid = from_kgid_munged(ns, cred->gid);
	info->euid = from_kuid_munged(ns, cred->euid);
	info->egid = from_kgid_munged(ns, cred->egid);
	info->suid = from_kuid_munged(ns, cred->suid);
	info->sgid = from_kgid_munged(ns, cred->sgid);
	info->fsuid = from_kuid_munged(ns, cred->fsuid);
	info->fsgid = from_kgid_munged(ns, cred->fsgid);
	info->mask |= PIDFD_INFO_CREDS;

	info->cgroupid = cgroup_id(task_dfl_cgroup(task));
	info->mask |= PIDFD_INFO_CGROUPID;
}

/* Lookups of a task that is being released while we read it. */
#define LOOKUP_TRIES	4

long pidfd_get_info(struct file *file, unsigned int cmd, void __user *uarg)
{
	struct pidfd_info __user *uinfo = uarg;
	struct pid *pid = pidfd_file_pid(file);
	struct pidfd_info info = {};
	size_t usize = _IOC_SIZE(cmd);
	struct task_struct *task;
	int err = 0, tries;
	u64 request;

	if (!uinfo)
		return -EINVAL;
	if (usize < PIDFD_INFO_SIZE_VER0)
		return -EINVAL;
	if (copy_from_user(&request, &uinfo->mask, sizeof(request)))
		return -EFAULT;
	if (!pidfd_pid_in_current_ns(pid))
		return -ESRCH;

	rcu_read_lock();
	for (tries = 0; tries < LOOKUP_TRIES; tries++) {
		task = pid_task(pid, PIDTYPE_PID);
		if (!task)
			break;
		fill_from_task(&info, pid, task);
		/*
		 * Still attached after the reads: they describe @pid's task.
		 * A task released meanwhile (ppid read as 0) is the old
		 * leader a non-leader's execve() swapped out of @pid
		 * (exchange_tids()); the pid's list names its successor now.
		 */
		if (pid_alive(task))
			break;
	}
	/* Upstream counts a vanished pid number as gone. */
	if (task && (!info.pid || !info.tgid))
		err = -ESRCH;
	rcu_read_unlock();
	if (err)
		return err;

	/* The exit status is given once the process has been reaped. */
	if (!task) {
		u64 cgroupid;

		if (!(request & PIDFD_INFO_EXIT))
			return -ESRCH;
		err = pidfd_target_exit_status(pidfd_file_target(file),
					       &info.exit_code, &cgroupid);
		if (err)
			return err;
		info.cgroupid = cgroupid;
		info.mask |= PIDFD_INFO_EXIT | PIDFD_INFO_CGROUPID;
	}

	if (request & PIDFD_INFO_SUPPORTED_MASK) {
		info.supported_mask = PIDFD_INFO_SUPPORTED;
		info.mask |= PIDFD_INFO_SUPPORTED_MASK;
	}

	return copy_info_to_user(uinfo, usize, &info, sizeof(info));
}
