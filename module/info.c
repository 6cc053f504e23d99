// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_INFO, with upstream's number and the layout of its struct
 * pidfd_info (struct pidfd_dev_info: this module's copy of 7.2's).
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

#define PFD_INFO_SUPPORTED (PIDFD_INFO_PID | PIDFD_INFO_CREDS | \
			    PIDFD_INFO_CGROUPID | PIDFD_INFO_EXIT | \
			    PIDFD_INFO_COREDUMP | PIDFD_INFO_SUPPORTED_MASK | \
			    PIDFD_INFO_COREDUMP_SIGNAL | \
			    PIDFD_INFO_COREDUMP_CODE)

/* The wait(2) status bit that says a core dump was made (WCOREDUMP). */
#define PFD_WAIT_COREDUMP	0x80

static_assert(sizeof(struct pidfd_dev_info) == PIDFD_INFO_SIZE_VER3);
static_assert(offsetof(struct pidfd_dev_info, exit_code) + 4 ==
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
 */
static void fill_from_task(struct pidfd_dev_info *info, struct pid *pid,
			   struct task_struct *task)
{
	struct user_namespace *ns = current_user_ns();
	const struct cred *cred = __task_cred(task);

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "task read outside RCU");

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

static u32 dumpable_mask(int mode)
{
	switch (mode) {
	case PFD_DUMPABLE_OWNER:
		return PIDFD_COREDUMP_USER;
	case PFD_DUMPABLE_ROOT:
		return PIDFD_COREDUMP_ROOT;
	case PFD_DUMPABLE_OFF:
		return PIDFD_COREDUMP_SKIP;
	}
	return 0;
}

/*
 * A core dump was made if the exit status says so: the kernel sets
 * WCOREDUMP when the dump was written or handed to its handler. The
 * signal is the status's; the mode and si_code are known when the module
 * saw the process dequeue that signal (signal_deliver) with a pidfd open.
 */
static bool fill_dumped(struct pidfd_dev_info *info,
			const struct pfd_exit_record *rec)
{
	if (!(rec->code & PFD_WAIT_COREDUMP))
		return false;
	info->coredump_mask = PIDFD_COREDUMPED;
	info->coredump_signal = rec->code & 0x7f;
	info->mask |= PIDFD_INFO_COREDUMP | PIDFD_INFO_COREDUMP_SIGNAL;
	if (rec->dump_signal_seen && rec->dump_signal == info->coredump_signal &&
	    (rec->dump_mode == PFD_DUMPABLE_OWNER ||
	     rec->dump_mode == PFD_DUMPABLE_ROOT)) {
		info->coredump_mask |= dumpable_mask(rec->dump_mode);
		info->coredump_code = rec->dump_code;
		info->mask |= PIDFD_INFO_COREDUMP_CODE;
	}
	return true;
}

/* Lookups of a task that is being released while we read it. */
#define LOOKUP_TRIES	4

long pfd_get_info(struct file *file, unsigned int cmd, void __user *uarg)
{
	struct pidfd_dev_info __user *uinfo = uarg;
	struct pid *pid = pfd_file_pid(file);
	struct pidfd_dev_info info = {};
	size_t usize = _IOC_SIZE(cmd);
	struct pfd_exit_record rec;
	struct task_struct *task;
	int dumpable = -1, err = 0, tries;
	bool exited = false;
	u64 request;

	if (!uinfo)
		return -EINVAL;
	if (usize < PIDFD_INFO_SIZE_VER0)
		return -EINVAL;
	if (copy_from_user(&request, &uinfo->mask, sizeof(request)))
		return -EFAULT;
	/* Upstream since early 2026 (fs/pidfs.c, 7.2): EREMOTE, was ESRCH. */
	if (!pfd_pid_in_current_ns(pid))
		return -EREMOTE;

	rcu_read_lock();
	for (tries = 0; tries < LOOKUP_TRIES; tries++) {
		task = pid_task(pid, PIDTYPE_PID);
		if (!task)
			break;
		fill_from_task(&info, pid, task);
		/* As poll says: its exit status is final. */
		exited = READ_ONCE(task->exit_state) &&
			 !delay_group_leader(task);
		if (request & PIDFD_INFO_COREDUMP)
			dumpable = pfd_task_dumpable(task);
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
		if (!(request & PIDFD_INFO_EXIT))
			return -ESRCH;
		err = pfd_target_exit_status(pfd_file_target(file), &rec);
		if (err)
			return err;
		info.exit_code = rec.code;
		info.cgroupid = rec.cgroupid;
		info.mask |= PIDFD_INFO_EXIT | PIDFD_INFO_CGROUPID;
	}

	/*
	 * After the exit, the dump it made, if any; else, as upstream, the
	 * mode a dump would be made in, while the task still has one.
	 */
	if (request & PIDFD_INFO_COREDUMP) {
		bool dumped = false;

		if (!task || (exited &&
			      pfd_target_exit_record(pfd_file_target(file),
						     &rec)))
			dumped = fill_dumped(&info, &rec);
		if (!dumped && task && dumpable >= 0) {
			info.coredump_mask = dumpable_mask(dumpable);
			info.mask |= PIDFD_INFO_COREDUMP;
		}
	}

	if (request & PIDFD_INFO_SUPPORTED_MASK) {
		info.supported_mask = PFD_INFO_SUPPORTED;
		info.mask |= PIDFD_INFO_SUPPORTED_MASK;
	}

	return copy_info_to_user(uinfo, usize, &info, sizeof(info));
}
