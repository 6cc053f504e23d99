/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the pidfd module.
 */
#ifndef PIDFD_INTERNAL_H
#define PIDFD_INTERNAL_H

#include <linux/fs.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/*
 * One per struct pid that has module pidfds open. All pidfds for the same
 * struct pid share it, so that the exit status recorded when the process
 * exits is seen through each of them.
 */
struct pidfd_target {
	struct hlist_node by_pid;	/* in the table, keyed by @pid */
	struct hlist_node by_nr;	/* keyed by pid_nr(@pid), exit_track.c */
	struct pid *pid;		/* counted reference */
	refcount_t users;		/* open pidfd files */
	struct rcu_head rcu;

	/* Written and read under the table lock. */
	bool released;			/* the pid's last task was freed */
	bool exit_recorded;
	int exit_code;			/* wait(2) status */
	u64 exit_cgroupid;
};

/* open.c: the /dev/pidfd side */
long pidfd_dev_open(unsigned int cmd, void __user *uarg);

/* pidfd_file.c: the pidfd file type */
int pidfd_install(struct pid *pid, unsigned int flags);
bool pidfd_is_thread(const struct file *file);
struct pid *pidfd_file_pid(const struct file *file);
struct pidfd_target *pidfd_file_target(const struct file *file);
bool pidfd_pid_in_current_ns(const struct pid *pid);
bool pidfd_ioctl_is(unsigned int cmd, unsigned int ref);
extern atomic_t pidfd_live_files;

/* signal.c */
long pidfd_send_signal_ioctl(struct file *file, unsigned int cmd,
			     void __user *uarg);

/* signal_policy.c */
int pidfd_signal_policy_init(void);
int pidfd_signal_policy_check(struct task_struct *target, int sig);

/* procfd.c */
long pidfd_get_procfd(struct file *file, int procfd);

/* info.c */
long pidfd_get_info(struct file *file, unsigned int cmd, void __user *uarg);

/* exit_track.c: the table of targets and the exit tracepoints */
int pidfd_exit_track_init(void);
void pidfd_exit_track_exit(void);
struct pidfd_target *pidfd_target_get(struct pid *pid);
void pidfd_target_put(struct pidfd_target *target);
int pidfd_target_exit_status(struct pidfd_target *target, int *code,
			     u64 *cgroupid);
extern atomic_t pidfd_live_targets;

#endif /* PIDFD_INTERNAL_H */
