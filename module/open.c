// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_DEV_OPEN: the module's pidfd_open(2), and PIDFD_AUTOKILL's rules
 * (PIDFD_DEV_OPEN_PROCDIR, in procdir.c, opens by the same rule).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

/*
 * May the caller make a PIDFD_AUTOKILL pidfd for @pid? Upstream gives one
 * only to the creator of the process, at clone3(), with CLONE_NNP or
 * CAP_SYS_ADMIN, so that an unprivileged holder cannot kill a process
 * that has since gained privileges through a setuid exec. The module
 * cannot create processes, so it takes the nearest: a process (not a
 * thread) that is the caller's own child, that has no_new_privs on every
 * thread unless the caller has CAP_SYS_ADMIN in the target's user
 * namespace, and that the caller may kill now, by the same check the kill
 * at the last close will run (pfd_autokill()).
 */
static int autokill_allowed(struct pid *pid)
{
	struct task_struct *task, *t;
	struct user_namespace *ns;
	sigval_t unused = {};
	bool child, nnp;
	int err;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_TGID);
	if (!task) {
		rcu_read_unlock();
		/* a thread ID, or the process was reaped meanwhile */
		return pid_has_task(pid, PIDTYPE_PID) ? -EINVAL : -ESRCH;
	}
	child = same_thread_group(rcu_dereference(task->real_parent), current);
	/*
	 * prctl(PR_SET_NO_NEW_PRIVS) sets it on one thread: every thread
	 * must have it, or one could exec a setuid program. Threads made
	 * later inherit it from their creator, and it is never cleared.
	 */
	nnp = true;
	for_each_thread(task, t)
		nnp &= task_no_new_privs(t);
	ns = get_user_ns(__task_cred(task)->user_ns);
	rcu_read_unlock();

	if (!child)
		err = -EPERM;
	else if (!nnp && !ns_capable(ns, CAP_SYS_ADMIN))
		err = -EPERM;
	else
		err = kill_pid_usb_asyncio(0, 0, unused, pid, current_cred());
	put_user_ns(ns);
	return err;
}

/*
 * pidfd_open(2)'s rule, with the running kernel's errno: a thread-group
 * leader, or with PIDFD_THREAD any thread, that is not reaped (a number
 * can stay allocated for a process group or session after that).
 */
int pfd_open_allowed(struct pid *pid, unsigned int flags)
{
	int err = 0;

	/*
	 * As upstream's pidfd_prepare(): under this lock a leader's
	 * PIDTYPE_TGID link stays while its PIDTYPE_PID one does, so a
	 * leader reaped meanwhile is ESRCH, never taken for a thread.
	 */
	spin_lock_irq(&pid->wait_pidfd.lock);
	if (!pid_has_task(pid, PIDTYPE_PID))
		err = -PFD_OPEN_ERR_REAPED;
	else if (!(flags & PIDFD_THREAD) && !pid_has_task(pid, PIDTYPE_TGID))
		err = -PFD_OPEN_ERR_THREAD;
	spin_unlock_irq(&pid->wait_pidfd.lock);
	return err;
}

long pfd_dev_open(unsigned int cmd, void __user *uarg)
{
	struct pidfd_open_args args;
	size_t usize = _IOC_SIZE(cmd);
	struct pid *pid;
	int err;

	if (usize < PIDFD_OPEN_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_struct_from_user(&args, sizeof(args), uarg, usize);
	if (err)
		return err;

	if (args.flags & ~(PIDFD_NONBLOCK | PIDFD_THREAD | PIDFD_AUTOKILL))
		return -EINVAL;
	/* Upstream refuses CLONE_PIDFD_AUTOKILL with CLONE_THREAD. */
	if ((args.flags & PIDFD_AUTOKILL) && (args.flags & PIDFD_THREAD))
		return -EINVAL;
	if (args.pid <= 0)
		return -EINVAL;

	pid = find_get_pid(args.pid);
	if (!pid)
		return -ESRCH;

	err = pfd_open_allowed(pid, args.flags);
	if (!err && (args.flags & PIDFD_AUTOKILL))
		err = autokill_allowed(pid);
	if (!err)
		err = pfd_install(pid, args.flags);
	put_pid(pid);
	return err;
}
