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
#include <linux/security.h>
#include <linux/string.h>

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
 * Is the AppArmor label of @task exactly @label? For current, the label of
 * its subjective credentials (what the task_kill hook judges a sender by),
 * else the task's objective one. False whenever it cannot be read: a
 * caller treats that as "confined". 7.x names the LSM it asks; before, the
 * one secid LSM answers (SELinux and Smack exclude AppArmor there).
 */
#if defined(PIDFD_HAVE_LSMPROP_TO_SECCTX_LSMID)
static inline bool pidfd_apparmor_label_is(struct task_struct *task,
					   const char *label)
{
	struct lsm_context ctx;
	struct lsm_prop prop;
	bool is;

	if (task == current)
		security_current_getlsmprop_subj(&prop);
	else
		security_task_getlsmprop_obj(task, &prop);
	if (security_lsmprop_to_secctx(&prop, &ctx, LSM_ID_APPARMOR) < 0)
		return false;
	is = ctx.id == LSM_ID_APPARMOR && ctx.context &&
	     strlen(ctx.context) == ctx.len && !strcmp(ctx.context, label);
	security_release_secctx(&ctx);
	return is;
}
#elif defined(PIDFD_HAVE_SECID_TO_SECCTX_CHARP)
static inline bool pidfd_apparmor_label_is(struct task_struct *task,
					   const char *label)
{
	u32 secid = 0, len;
	char *ctx;
	bool is;

#ifdef PIDFD_HAVE_TASK_GETSECID_OBJ
	if (task == current)
		security_current_getsecid_subj(&secid);
	else
		security_task_getsecid_obj(task, &secid);
#else
	security_task_getsecid(task, &secid);
#endif
	if (!secid || security_secid_to_secctx(secid, &ctx, &len))
		return false;
	is = strnlen(ctx, len) == strlen(label) && !strncmp(ctx, label, len);
	security_release_secctx(ctx, len);
	return is;
}
#else
static inline bool pidfd_apparmor_label_is(struct task_struct *task,
					   const char *label)
{
	return false;
}
#endif

#endif /* PIDFD_COMPAT_H */
