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
 * 6.15 (or so) gave the sched_process_exit tracepoint a group_dead
 * argument; the probe must match the tracepoint's prototype.
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

#endif /* PIDFD_COMPAT_H */
