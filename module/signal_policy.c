// SPDX-License-Identifier: GPL-2.0
/*
 * May a signal go out on a path where the kernel cannot be asked about it?
 *
 * Thread-directed signals and signals with the caller's siginfo have no
 * exported delivery function that runs check_kill_permission(). signal.c
 * runs that check for signal 0 (kill_pid(pid, 0, 0)) and then delivers
 * with send_sig_info(), which checks nothing. The credential rules do not
 * depend on the signal number (only the SIGCONT session exemption does,
 * and it only ever allows more), but an LSM's verdict may: AppArmor signal
 * sets, SELinux's signull/signal/sigkill/sigstop, Smack (signal 0 always
 * passes) and BPF-LSM programs all can tell signal 0 from the real one.
 *
 * So such a signal goes out only when every active LSM is known to give
 * the real signal the answer it gave signal 0:
 *
 * - an LSM without a task_kill hook, or Landlock, whose signal scoping
 *   does not look at the number;
 * - AppArmor, when sender and target are both unconfined: it mediates no
 *   signal of an unconfined label, sent or received;
 * - an LSM the administrator has vouched for in signal_lsm_trust.
 *
 * Anything else (SELinux, Smack, BPF-LSM, a confined AppArmor label, an
 * LSM this file does not know, an LSM list that cannot be read) fails
 * closed with EACCES, the errno of an LSM's denial. LSMs are only ever
 * registered at boot, so the list is read once, at load.
 */
#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#include "pidfd_internal.h"

enum signal_lsm {
	LSM_APPARMOR,
	LSM_SELINUX,
	LSM_SMACK,
	LSM_BPF,
	LSM_OTHER,		/* any LSM not named here */
	LSM_COUNT,
};

static const char *const signal_lsm_names[LSM_OTHER] = {
	[LSM_APPARMOR]	= "apparmor",
	[LSM_SELINUX]	= "selinux",
	[LSM_SMACK]	= "smack",
	[LSM_BPF]	= "bpf",
};

/* In the kernels' LSM lists, and never deciding by signal number. */
static const char *const number_blind_lsms[] = {
	"capability", "landlock", "lockdown", "yama", "loadpin", "safesetid",
	"integrity", "ima", "evm", "ipe", "tomoyo",
};

static unsigned long active_lsms;	/* bits of enum signal_lsm */
static unsigned long trusted_lsms;	/* the same, from signal_lsm_trust */
static char other_lsm[32];		/* the first LSM_OTHER, for the log */

static const char *lsm_name(unsigned int lsm)
{
	return lsm == LSM_OTHER ? other_lsm : signal_lsm_names[lsm];
}

static void note_other_lsm(const char *name)
{
	if (!other_lsm[0])
		strscpy(other_lsm, name, sizeof(other_lsm));
	active_lsms |= BIT(LSM_OTHER);
}

/*
 * securityfs's "lsm" has only ->read, into user memory (up to 7.2 at
 * least): it is read through an anonymous page mapped for the moment into
 * the process that loads the module, which holds CAP_SYS_MODULE (or is
 * modprobe, started by the kernel). Only at load: no ioctl reads a file
 * through a caller's memory (docs/security.md). A loader that rewrote the
 * page meanwhile could only hide an LSM, which it may trust outright with
 * signal_lsm_trust=all anyway: nothing it could not do already.
 */
static ssize_t read_via_user_page(struct file *file, char *buf, size_t size)
{
	unsigned long ubuf;
	ssize_t len = 0, n;
	loff_t pos = 0;

	if (!current->mm)
		return -EOPNOTSUPP;
	ubuf = vm_mmap(NULL, 0, size, PROT_READ | PROT_WRITE,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(ubuf))
		return (ssize_t)ubuf;
	do {
		n = file->f_op->read(file, (char __user *)ubuf + len,
				     size - len, &pos);
		if (n > 0)
			len += n;
	} while (n > 0 && len < size);
	if (n < 0)
		len = n;
	else if (copy_from_user(buf, (char __user *)ubuf, len))
		len = -EFAULT;
	vm_munmap(ubuf, size);
	return len;
}

/*
 * Up to @size bytes of @file from its start. kernel_read() takes a file
 * with ->read_iter and no ->read; one with ->read only is read through a
 * user page; one with neither cannot be read (-EINVAL).
 */
static ssize_t read_lsm_file(struct file *file, char *buf, size_t size)
{
	ssize_t len = 0, n;
	loff_t pos = 0;

	if (file->f_op->read)
		return read_via_user_page(file, buf, size);
	if (!file->f_op->read_iter)
		return -EINVAL;
	do {
		n = kernel_read(file, buf + len, size - len, &pos);
		if (n > 0)
			len += n;
	} while (n > 0 && len < size);
	return n < 0 ? n : len;
}

/*
 * The active LSMs, comma separated, in hook order. Through a securityfs
 * mount of our own, on which nobody can mount anything.
 */
static int read_lsm_list(char *buf, size_t size)
{
	struct file_system_type *type;
	struct vfsmount *mnt;
	struct file *file;
	struct path root;
	ssize_t len;

	/* Built in (no owner), so get_fs_type() took no module reference. */
	type = get_fs_type("securityfs");
	if (!type)
		return -ENOENT;
	mnt = kern_mount(type);
	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	root.mnt = mnt;
	root.dentry = mnt->mnt_root;
	file = pfd_file_open_root(&root, "lsm", O_RDONLY);
	if (IS_ERR(file)) {
		len = PTR_ERR(file);
	} else {
		/* size - 1: room for the NUL, and a way to tell it was cut. */
		len = read_lsm_file(file, buf, size - 1);
		fput(file);
	}
	kern_unmount(mnt);
	if (len == size - 1)
		len = -E2BIG;	/* cut short: an LSM could be missing */
	if (len < 0)
		return len;
	buf[len] = '\0';
	return 0;
}

int pfd_signal_policy_init(void)
{
	char *buf, *list, *name;
	int lsm, err;

	if (!IS_ENABLED(CONFIG_SECURITY))
		return 0;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = read_lsm_list(buf, PAGE_SIZE);
	if (err) {
		pr_warn("cannot read the list of active LSMs (%d): thread-directed signals and signals with a siginfo will be refused\n",
			err);
		note_other_lsm("unknown");
		goto out;
	}
	list = strim(buf);
	while ((name = strsep(&list, ",")) != NULL) {
		if (!*name ||
		    match_string(number_blind_lsms,
				 ARRAY_SIZE(number_blind_lsms), name) >= 0)
			continue;
		lsm = match_string(signal_lsm_names, LSM_OTHER, name);
		if (lsm < 0)
			note_other_lsm(name);
		else
			active_lsms |= BIT(lsm);
	}
out:
	kfree(buf);
	return 0;
}

/*
 * AppArmor answers every signal alike when neither side is confined: it
 * mediates no signal of its root namespace's unconfined label, sent or
 * received. That label is init_task's; a label that cannot be told
 * counts as confined. Compared by identity: anyone may load a profile
 * called "unconfined".
 */
static bool apparmor_unconfined_pair(struct task_struct *target)
{
	unsigned long unconfined;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "AppArmor pair outside RCU");
	unconfined = pfd_task_label(&init_task, false);
	return unconfined && pfd_task_label(current, true) == unconfined &&
	       pfd_task_label(target, false) == unconfined;
}

/* "selinux,bpf": the LSMs in @mask, comma separated. */
static void lsm_list(char *buf, size_t size, unsigned long mask)
{
	unsigned int lsm;
	size_t len = 0;

	buf[0] = '\0';
	for (lsm = 0; lsm < LSM_COUNT; lsm++)
		if (mask & BIT(lsm))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? "," : "", lsm_name(lsm));
}

static void report_refusal(struct task_struct *target, int sig,
			   unsigned long doubt)
{
	char names[64];

	/* Never advise trusting an LSM that confines one of the two. */
	if (doubt & BIT(LSM_APPARMOR)) {
		pr_notice_ratelimited("refused signal %d from pid %d to pid %d: AppArmor confines one of them, and on this path (thread scope or a caller's siginfo) the module can ask the LSMs about signal 0 only (docs/security.md)\n",
				      sig, task_pid_nr(current),
				      task_pid_nr(target));
		return;
	}
	lsm_list(names, sizeof(names), doubt);
	pr_notice_ratelimited("refused signal %d from pid %d to pid %d: the active LSM '%s' may decide it differently from signal 0, the only signal the module can ask about on this path (thread scope or a caller's siginfo); if it does not tell signals apart on this system, set pidfd.signal_lsm_trust=%s (docs/security.md)\n",
			      sig, task_pid_nr(current), task_pid_nr(target),
			      names,
			      doubt & BIT(LSM_OTHER) ? "all" : names);
}

/**
 * pfd_signal_policy_check - may @sig go to @target on a path that asked
 * the kernel about signal 0 only?
 * @target: the task the kernel's check judged
 * @sig: the signal
 *
 * Return: 0, or -EACCES (logged, rate-limited).
 */
int pfd_signal_policy_check(struct task_struct *target, int sig)
{
	unsigned long doubt = active_lsms & ~READ_ONCE(trusted_lsms);

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "policy check outside RCU");

	if ((doubt & BIT(LSM_APPARMOR)) && apparmor_unconfined_pair(target))
		doubt &= ~BIT(LSM_APPARMOR);
	if (!doubt)
		return 0;
	report_refusal(target, sig, doubt);
	return -EACCES;
}

/**
 * pfd_peer_policy_check - may the caller have its socket's peer?
 *
 * getsockopt(SO_PEERCRED), the kernel's own way to the peer, asks the
 * LSMs (security_socket_getsockopt(), not exported) and cgroup-BPF
 * getsockopt programs first. The module can ask neither, so it answers
 * only where no such judge could refuse: no LSM that has that hook
 * active (AppArmor counts only for a confined caller), or one the
 * administrator trusts (signal_lsm_trust: "bpf" covers cgroup-BPF too),
 * and no cgroup getsockopt program attached.
 *
 * Return: 0, or -EACCES (logged, rate-limited).
 */
int pfd_peer_policy_check(void)
{
	unsigned long doubt = active_lsms & ~READ_ONCE(trusted_lsms);
	char names[64];

	rcu_read_lock();
	if ((doubt & BIT(LSM_APPARMOR)) &&
	    pfd_task_label(current, true) ==
	    pfd_task_label(&init_task, false) &&
	    pfd_task_label(current, true))
		doubt &= ~BIT(LSM_APPARMOR);
	rcu_read_unlock();
	if (pfd_cgroup_getsockopt_hooked() &&
	    !(READ_ONCE(trusted_lsms) & BIT(LSM_BPF)))
		doubt |= BIT(LSM_BPF);
	if (!doubt)
		return 0;
	lsm_list(names, sizeof(names), doubt);
	pr_notice_ratelimited("refused the peer of a socket to pid %d: '%s' may refuse getsockopt(SO_PEERCRED), which the module cannot ask (docs/security.md)\n",
			      task_pid_nr(current), names);
	return -EACCES;
}

/*
 * signal_lsm_trust: the LSMs whose answer for signal 0 the administrator
 * accepts for every signal ("apparmor,bpf", "all", or empty). Root only;
 * it can be changed at any time through sysfs.
 */
static int trust_set(const char *val, const struct kernel_param *kp)
{
	unsigned long mask = 0;
	char buf[64], *list, *name;
	int lsm;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	list = strim(buf);
	while ((name = strsep(&list, ",")) != NULL) {
		name = strim(name);
		if (!*name)
			continue;
		if (!strcmp(name, "all")) {
			mask |= GENMASK(LSM_COUNT - 1, 0);
			continue;
		}
		lsm = match_string(signal_lsm_names, LSM_OTHER, name);
		if (lsm < 0) {
			pr_err("signal_lsm_trust: '%s' is not one of apparmor, selinux, smack, bpf, all\n",
			       name);
			return -EINVAL;
		}
		mask |= BIT(lsm);
	}
	WRITE_ONCE(trusted_lsms, mask);
	return 0;
}

static int trust_get(char *buffer, const struct kernel_param *kp)
{
	unsigned long mask = READ_ONCE(trusted_lsms);
	unsigned int lsm;
	int len = 0;

	if (mask & BIT(LSM_OTHER))
		return sysfs_emit(buffer, "all\n");
	for (lsm = 0; lsm < LSM_OTHER; lsm++)
		if (mask & BIT(lsm))
			len += sysfs_emit_at(buffer, len, "%s%s", len ? "," : "",
					     signal_lsm_names[lsm]);
	return len + sysfs_emit_at(buffer, len, "\n");
}

static const struct kernel_param_ops trust_ops = {
	.set = trust_set,
	.get = trust_get,
};

module_param_cb(signal_lsm_trust, &trust_ops, NULL, 0644);
MODULE_PARM_DESC(signal_lsm_trust,
		 "LSMs whose verdict on signal 0 is accepted for thread-directed signals and signals with a siginfo (apparmor,selinux,smack,bpf or all; default none)");

/* Read-only: the LSMs found at load that may tell signals apart. */
static int active_get(char *buffer, const struct kernel_param *kp)
{
	unsigned int lsm;
	int len = 0;

	for (lsm = 0; lsm < LSM_COUNT; lsm++)
		if (active_lsms & BIT(lsm))
			len += sysfs_emit_at(buffer, len, "%s%s", len ? "," : "",
					     lsm_name(lsm));
	return len + sysfs_emit_at(buffer, len, "\n");
}

static const struct kernel_param_ops active_ops = {
	.set = pfd_param_set_read_only,
	.get = active_get,
};

module_param_cb(signal_lsms, &active_ops, NULL, 0444);
MODULE_PARM_DESC(signal_lsms,
		 "Active LSMs that may decide a signal differently from signal 0");
