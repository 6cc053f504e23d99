/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels pidfd-dkms supports (5.10 to 7.2), in one
 * place. module/compat.mk probes the headers and Module.symvers of the
 * kernel being built against and passes PFD_HAVE_* defines; this header
 * turns them into one API for the module sources.
 */
#ifndef PFD_COMPAT_H
#define PFD_COMPAT_H

#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/bpf-cgroup.h>
#include <net/sock.h>

/*
 * 5.12 made file_open_root() take a struct path (commit ffb37ca3bd16,
 * "switch file_open_root() to struct path").
 */
static inline struct file *pfd_file_open_root(const struct path *root,
					      const char *name, int flags)
{
#ifdef PFD_HAVE_FILE_OPEN_ROOT_PATH
	return file_open_root(root, name, flags, 0);
#else
	return file_open_root(root->dentry, root->mnt, name, flags, 0);
#endif
}

/*
 * vfs_path_lookup() is exported on every kernel; newer ones declare it in
 * linux/namei.h (7.2 does), older ones only in fs/internal.h (5.10, 6.1).
 */
#ifndef PFD_HAVE_VFS_PATH_LOOKUP_DECL
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

/* 6.1 made a readdir actor return bool, true to go on (was int, 0). */
#ifdef PFD_HAVE_FILLDIR_BOOL
#define PFD_FILLDIR_TYPE	bool
#define PFD_FILLDIR_CONTINUE	true
#define PFD_FILLDIR_STOP	false
#else
#define PFD_FILLDIR_TYPE	int
#define PFD_FILLDIR_CONTINUE	0
#define PFD_FILLDIR_STOP	1
#endif

/*
 * 6.15 made pidfd_open(2) say ESRCH for a number whose process is reaped
 * and ENOENT for a thread without PIDFD_THREAD, EINVAL for both before
 * (probed by PIDFD_INFO_EXIT, which came in the same release).
 */
#ifdef PFD_HAVE_OPEN_ENOENT
#define PFD_OPEN_ERR_REAPED	ESRCH
#define PFD_OPEN_ERR_THREAD	ENOENT
#else
#define PFD_OPEN_ERR_REAPED	EINVAL
#define PFD_OPEN_ERR_THREAD	EINVAL
#endif

/*
 * A socket's peer process, referenced; NULL without one. 5.15 guarded
 * sk_peer_pid with sk_peer_lock (commit 35306eb23814; Debian's 5.10 has
 * it); before, a listen() could free it under a reader: EOPNOTSUPP there.
 */
static inline struct pid *pfd_sock_peer_pid(struct sock *sk)
{
#ifdef PFD_HAVE_SK_PEER_LOCK
	struct pid *pid;

	spin_lock(&sk->sk_peer_lock);
	pid = get_pid(sk->sk_peer_pid);
	spin_unlock(&sk->sk_peer_lock);
	return pid;
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

/* 6.5 gave getsockopt(SO_PEERPIDFD), which asks every judge: use it. */
#ifdef PFD_HAVE_SO_PEERPIDFD
#define PFD_KERNEL_HAS_PEERPIDFD	true
#else
#define PFD_KERNEL_HAS_PEERPIDFD	false
#endif

/*
 * Is a cgroup-BPF getsockopt program attached anywhere? 5.15 keyed each
 * attach type apart; before, one key says whether any cgroup program is.
 */
static inline bool pfd_cgroup_getsockopt_hooked(void)
{
#if !IS_ENABLED(CONFIG_CGROUP_BPF)
	return false;
#elif defined(PFD_HAVE_CGROUP_BPF_KEYS)
	return cgroup_bpf_enabled(CGROUP_GETSOCKOPT);
#else
	return cgroup_bpf_enabled;
#endif
}

/*
 * Some release after 6.12 gave the sched_process_exit tracepoint a
 * group_dead argument (6.12 has one argument, 7.2 two). The probe must
 * match the tracepoint's prototype; the header is probed, not the version.
 */
#ifdef PFD_HAVE_SCHED_PROCESS_EXIT_GROUP_DEAD
#define PFD_COMPAT_PROBE_PROCESS_EXIT(probe)				\
static void probe##_compat(void *data, struct task_struct *task,	\
			   bool group_dead)				\
{									\
	probe(data, task);						\
}
#else
#define PFD_COMPAT_PROBE_PROCESS_EXIT(probe)				\
static void probe##_compat(void *data, struct task_struct *task)	\
{									\
	probe(data, task);						\
}
#endif

/*
 * A task's dumpability, the mode a core dump of it would be written in
 * (prctl(PR_SET_DUMPABLE), fs.suid_dumpable after a setuid exec), or -1
 * when it has none any more. 7.x keeps it in the task's exec state until
 * the task is freed (TASK_DUMPABLE_*); before, in its mm (SUID_DUMP_*),
 * which the task drops in do_exit(). The values are the same ABI on all
 * (the suid_dumpable sysctl's). Only the task itself may read its own mm
 * without task_lock(): a probe that runs under siglock must not take it.
 */
#ifdef PFD_HAVE_TASK_EXEC_STATE
#include <linux/sched/exec_state.h>
#define PFD_DUMPABLE_OFF	TASK_DUMPABLE_OFF
#define PFD_DUMPABLE_OWNER	TASK_DUMPABLE_OWNER
#define PFD_DUMPABLE_ROOT	TASK_DUMPABLE_ROOT

static inline int pfd_task_dumpable(struct task_struct *task)
{
	struct task_exec_state *state;
	int mode = -1;

	rcu_read_lock();
	state = rcu_dereference(task->exec_state);
	if (state)
		mode = READ_ONCE(state->dumpable);
	rcu_read_unlock();
	return mode;
}
#else
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#define PFD_DUMPABLE_OFF	SUID_DUMP_DISABLE
#define PFD_DUMPABLE_OWNER	SUID_DUMP_USER
#define PFD_DUMPABLE_ROOT	SUID_DUMP_ROOT

static inline int pfd_task_dumpable(struct task_struct *task)
{
	int mode = -1;

	if (task == current)
		return current->mm ? get_dumpable(current->mm) : -1;
	task_lock(task);
	if (task->mm)
		mode = get_dumpable(task->mm);
	task_unlock(task);
	return mode;
}
#endif

/*
 * A task's LSM label, to be compared by identity, never by name: the
 * secid, or from 7.x's lsm_prop AppArmor's label pointer; 0 when it cannot
 * be told. @subj: the caller's subjective label (current only), else the
 * task's objective one (5.13 split them; before, one getter). The caller's
 * rcu_read_lock() keeps the label alive while it is compared.
 */
static inline unsigned long pfd_task_label(struct task_struct *task,
					   bool subj)
{
#if defined(PFD_HAVE_TASK_GETLSMPROP_OBJ) && defined(CONFIG_SECURITY_APPARMOR)
	struct lsm_prop prop;

	if (subj)
		security_current_getlsmprop_subj(&prop);
	else
		security_task_getlsmprop_obj(task, &prop);
	return (unsigned long)prop.apparmor.label;
#elif defined(PFD_HAVE_TASK_GETSECID_OBJ)
	u32 secid = 0;

	if (subj)
		security_current_getsecid_subj(&secid);
	else
		security_task_getsecid_obj(task, &secid);
	return secid;
#elif defined(PFD_HAVE_TASK_GETSECID)
	u32 secid = 0;

	security_task_getsecid(task, &secid);
	return secid;
#else
	return 0;
#endif
}

/*
 * 6.9 gave every struct pid a 64-bit number, unique for the boot and
 * assigned in alloc_pid() (pid->ino; commit cb12fd8e0dab, "pidfd: add
 * pidfs"): the inode number of its pidfs inode on 64-bit kernels, which a
 * kernel pidfd's fstat() shows. Before, there is none (0 here): the module
 * numbers its targets itself (exit_track.c).
 */
#ifdef PFD_HAVE_PID_INO
#define PFD_KERNEL_PID_INO	true
static inline u64 pfd_kernel_pid_ino(const struct pid *pid)
{
	return pid->ino;
}
#else
#define PFD_KERNEL_PID_INO	false
static inline u64 pfd_kernel_pid_ino(const struct pid *pid)
{
	return 0;
}
#endif

/*
 * 6.7 put an inode's access and modification times behind accessors, and
 * 6.6 its change time (Debian's 5.10 and 6.1 have the ctime ones).
 */
static inline void pfd_inode_copy_times(struct inode *to,
					const struct inode *from)
{
#ifdef PFD_HAVE_INODE_MTIME_ACCESSORS
	inode_set_atime_to_ts(to, inode_get_atime(from));
	inode_set_mtime_to_ts(to, inode_get_mtime(from));
#else
	to->i_atime = from->i_atime;
	to->i_mtime = from->i_mtime;
#endif
#ifdef PFD_HAVE_INODE_CTIME_ACCESSORS
	inode_set_ctime_to_ts(to, inode_get_ctime(from));
#else
	to->i_ctime = from->i_ctime;
#endif
}

#endif /* PFD_COMPAT_H */
