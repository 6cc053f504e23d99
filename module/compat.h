/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels pidfd-dkms supports (5.10 to 7.2), in one
 * place. module/compat.mk probes the headers and Module.symvers of the
 * kernel being built against and passes PIDFD_HAVE_* defines; this header
 * turns them into one API for the module sources.
 */
#ifndef PIDFD_COMPAT_H
#define PIDFD_COMPAT_H

#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

/*
 * 5.12 made file_open_root() take a struct path (commit ffb37ca3bd16,
 * "switch file_open_root() to struct path").
 */
static inline struct file *pidfd_file_open_root(const struct path *root,
						const char *name, int flags)
{
#ifdef PIDFD_HAVE_FILE_OPEN_ROOT_PATH
	return file_open_root(root, name, flags, 0);
#else
	return file_open_root(root->dentry, root->mnt, name, flags, 0);
#endif
}

/* The pid namespace of a procfs instance, from one of its inodes. */
static inline struct pid_namespace *pidfd_proc_pid_ns(struct inode *inode)
{
	return proc_pid_ns(inode->i_sb);
}

/*
 * Some release after 6.12 gave the sched_process_exit tracepoint a
 * group_dead argument (6.12 has one argument, 7.2 two). The probe must
 * match the tracepoint's prototype; the header is probed, not the version.
 */
#ifdef PIDFD_HAVE_SCHED_PROCESS_EXIT_GROUP_DEAD
#define PIDFD_COMPAT_PROBE_PROCESS_EXIT(probe)				\
static void probe##_compat(void *data, struct task_struct *task,	\
			   bool group_dead)				\
{									\
	probe(data, task);						\
}
#else
#define PIDFD_COMPAT_PROBE_PROCESS_EXIT(probe)				\
static void probe##_compat(void *data, struct task_struct *task)	\
{									\
	probe(data, task);						\
}
#endif

/*
 * The thread in execve(2) that is taking the group over, if any. 5.17
 * renamed signal_struct's group_exit_task, which only de_thread() still
 * used, to group_exec_task.
 */
static inline struct task_struct *pidfd_exec_task(struct signal_struct *sig)
{
#ifdef PIDFD_HAVE_GROUP_EXEC_TASK
	return READ_ONCE(sig->group_exec_task);
#else
	return READ_ONCE(sig->group_exit_task);
#endif
}

#endif /* PIDFD_COMPAT_H */
