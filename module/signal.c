// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_DEV_SEND_SIGNAL: the module's pidfd_send_signal(2).
 *
 * Permission is kill(2)'s, through the kernel's own check: kill_pid() and
 * kill_pgrp() with priv == 0 run check_kill_permission() (credentials,
 * CAP_KILL, the SIGCONT session rule, audit, every LSM) about the real
 * signal. They deliver a process-directed signal with the kernel's SI_USER
 * siginfo, which is exactly what process and process-group scope without a
 * caller's siginfo ask for, and what any SIGKILL amounts to: its siginfo is
 * never seen, and it kills the whole process whichever thread it targets.
 *
 * A process-group signal with a caller's siginfo is refused (EOPNOTSUPP):
 * the kernel signals a group exactly only under tasklist_lock.
 *
 * The other paths (thread scope, or a caller's siginfo) have no exported
 * checked delivery function. For them the module asks the kernel's check
 * about signal 0 against the very task kill(2) would check, through
 * kill_pid(pid, 0, 0), and delivers with send_sig_info() only if that
 * passes and signal_policy.c shows that no active LSM can answer the real
 * signal differently. Signal 0 is never more permissive for credentials:
 * it loses only the SIGCONT same-session exemption, so that path is
 * stricter. See docs/security.md.
 */
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/uaccess.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

enum signal_scope {
	SCOPE_THREAD,
	SCOPE_PROCESS,
	SCOPE_PROCESS_GROUP,
};

#define PFD_SIGNAL_FLAGS (PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP | \
			  PIDFD_SIGNAL_PROCESS_GROUP)

static enum signal_scope scope_of(struct file *file, u32 flags)
{
	switch (flags) {
	case PIDFD_SIGNAL_THREAD:
		return SCOPE_THREAD;
	case PIDFD_SIGNAL_THREAD_GROUP:
		return SCOPE_PROCESS;
	case PIDFD_SIGNAL_PROCESS_GROUP:
		return SCOPE_PROCESS_GROUP;
	default:
		return pfd_is_thread(file) ? SCOPE_THREAD : SCOPE_PROCESS;
	}
}

#ifdef CONFIG_COMPAT
/*
 * A 32-bit caller's siginfo: the kill/rt layout (si_pid, si_uid, si_value)
 * that the signals one may send to another process use.
 */
static int copy_compat_siginfo(kernel_siginfo_t *info,
			       const void __user *uinfo)
{
	compat_siginfo_t cinfo;

	if (copy_from_user(&cinfo, uinfo, sizeof(cinfo)))
		return -EFAULT;
	clear_siginfo(info);
	info->si_signo = cinfo.si_signo;
	info->si_errno = cinfo.si_errno;
	info->si_code = cinfo.si_code;
	info->si_pid = cinfo.si_pid;
	info->si_uid = cinfo.si_uid;
	info->si_int = cinfo.si_int;
	return 0;
}
#else
static int copy_compat_siginfo(kernel_siginfo_t *info,
			       const void __user *uinfo)
{
	return -EINVAL;
}
#endif

static int copy_siginfo_from_caller(kernel_siginfo_t *info,
				    const void __user *uinfo)
{
	if (in_compat_syscall())
		return copy_compat_siginfo(info, uinfo);
	/* The part of siginfo_t that the kernel keeps. */
	if (copy_from_user(info, uinfo, sizeof(*info)))
		return -EFAULT;
	return 0;
}

/* What tgkill(2) sends. */
static void prepare_tkill_info(kernel_siginfo_t *info, int sig)
{
	clear_siginfo(info);
	info->si_signo = sig;
	info->si_code = SI_TKILL;
	info->si_pid = task_tgid_vnr(current);
	info->si_uid = from_kuid_munged(current_user_ns(), current_uid());
}

/*
 * kill(2) puts a process-directed signal on the group's shared queue, from
 * which any thread that does not block it takes it. send_sig_info() can
 * only queue to one thread, so pick the thread the kernel would wake:
 * @task itself if it does not block @sig, else another that does not
 * (a thread in sigwaitinfo(2) has unblocked what it waits for), else
 * @task.
 */
static int queue_to_process(struct task_struct *task, int sig,
			    kernel_siginfo_t *info)
{
	struct task_struct *receiver = task, *t;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "thread walk outside RCU");

	if (sigismember(&task->blocked, sig) || (task->flags & PF_EXITING)) {
		for_each_thread(task, t) {
			if (!(t->flags & PF_EXITING) &&
			    !sigismember(&t->blocked, sig)) {
				receiver = t;
				break;
			}
		}
	}
	return send_sig_info(sig, info, receiver);
}

/*
 * Permission check, then delivery, to the task kill(2) / tgkill(2) would
 * check.
 */
static int checked_send(struct task_struct *task, int sig,
			kernel_siginfo_t *info, enum signal_scope scope)
{
	int err;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "signal check outside RCU");

	if (!valid_signal(sig))
		return -EINVAL;
	err = kill_pid(task_pid(task), 0, 0);
	if (err || !sig)
		return err;
	err = pfd_signal_policy_check(task, sig);
	if (err)
		return err;
	if (scope == SCOPE_THREAD)
		err = send_sig_info(sig, info, task);
	else
		err = queue_to_process(task, sig, info);
	/* It died after the check: as if it died after receiving it. */
	return err == -ESRCH ? 0 : err;
}

static int send_to_pid(struct pid *pid, int sig, kernel_siginfo_t *info,
		       enum signal_scope scope)
{
	struct task_struct *task;
	int err = -ESRCH;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_PID);
	if (task)
		err = checked_send(task, sig, info, scope);
	rcu_read_unlock();
	return err;
}

/*
 * tgkill(2)'s SIGKILL: the kernel turns it into the death of the whole
 * process, as kill(2)'s, unless the thread is already exiting, when it is
 * dropped. So: kill_pid() for a live thread; for an exiting one, which gets
 * nothing from tgkill(2) either, only the verdict on SIGKILL, as far as it
 * can be had without delivering: the check of signal 0 and the policy.
 */
static int kill_thread(struct pid *pid)
{
	struct task_struct *task;
	bool exiting;
	int err = 0;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_PID);
	exiting = task && (task->flags & PF_EXITING);
	if (exiting) {
		err = kill_pid(pid, 0, 0);
		if (!err)
			err = pfd_signal_policy_check(task, SIGKILL);
	}
	rcu_read_unlock();
	return exiting ? err : kill_pid(pid, SIGKILL, 0);
}

long pfd_send_signal_ioctl(struct file *file, unsigned int cmd,
			   void __user *uarg)
{
	struct pid *pid = pfd_file_pid(file);
	struct pidfd_signal_args args;
	size_t usize = _IOC_SIZE(cmd);
	enum signal_scope scope;
	kernel_siginfo_t info;
	int err, sig;

	if (usize < PIDFD_SIGNAL_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_struct_from_user(&args, sizeof(args), uarg, usize);
	if (err)
		return err;
	if (args.flags & ~PFD_SIGNAL_FLAGS || hweight32(args.flags) > 1)
		return -EINVAL;
	if (args.sig < 0 || !valid_signal(args.sig))
		return -EINVAL;
	sig = args.sig;
	scope = scope_of(file, args.flags);

	/* Only its own pid namespace or a descendant's, as upstream. */
	if (!pfd_pid_in_current_ns(pid))
		return -EINVAL;

	if (args.info) {
		err = copy_siginfo_from_caller(&info,
					       u64_to_user_ptr(args.info));
		if (err)
			return err;
		if (info.si_signo != sig)
			return -EINVAL;
		/*
		 * Only the caller itself may be sent what looks like a
		 * kernel's or kill(2)'s siginfo.
		 */
		if ((task_pid(current) != pid ||
		     scope == SCOPE_PROCESS_GROUP) &&
		    (info.si_code >= 0 || info.si_code == SI_TKILL))
			return -EPERM;
	}

	if (!args.info || sig == SIGKILL) {
		switch (scope) {
		case SCOPE_PROCESS:
			return kill_pid(pid, sig, 0);
		case SCOPE_PROCESS_GROUP:
			return kill_pgrp(pid, sig, 0);
		case SCOPE_THREAD:
			if (sig == SIGKILL)
				return kill_thread(pid);
			prepare_tkill_info(&info, sig);
			break;
		}
	}

	/*
	 * kill_pgrp_info() signals exactly the group's members by holding
	 * tasklist_lock, which no module can take: a walk under RCU alone can
	 * stray into another group through a task that setpgid() moves, and
	 * miss members. Refused rather than approximated (docs/abi.md).
	 */
	if (scope == SCOPE_PROCESS_GROUP)
		return -EOPNOTSUPP;
	return send_to_pid(pid, sig, &info, scope);
}
