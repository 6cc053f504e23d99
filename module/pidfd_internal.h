/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the pidfd module.
 */
#ifndef PFD_INTERNAL_H
#define PFD_INTERNAL_H

#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/pidfd_dev.h>

/*
 * One per struct pid that has module pidfds open, shared by them all so
 * that the exit status recorded when the process exits is seen through
 * each (exit_track.c owns it; only its pid is seen outside).
 */
struct pfd_target;
struct pid *pfd_target_pid(const struct pfd_target *target);
struct inode *pfd_target_inode_get(struct pfd_target *target);
void pfd_target_inode_put(struct pfd_target *target);

/* What a target's exit left, for PIDFD_GET_INFO. */
struct pfd_exit_record {
	int code;			/* wait(2) status */
	u64 cgroupid;
	bool dump_signal_seen;
	int dump_mode;
	int dump_signal;
	int dump_code;
};

/* open.c: the /dev/pidfd side */
long pfd_dev_open(unsigned int cmd, void __user *uarg);
int pfd_open_allowed(struct pid *pid, unsigned int flags);

/* main.c */
int pfd_param_set_read_only(const char *val, const struct kernel_param *kp);

/* peer.c */
long pfd_dev_open_peer(unsigned int cmd, void __user *uarg);

/* pidfd_file.c: the pidfd file type */
int pfd_install(struct pid *pid, unsigned int flags);
long pfd_fd_is_ours(int fd);
int pfd_fs_init(void);
void pfd_fs_exit(void);
struct inode *pfd_inode_new(u64 ino);
extern atomic_t pfd_live_files;

/*
 * The accessors every ioctl uses, inline: a pidfd file's private data is
 * its target, and PIDFD_THREAD and PIDFD_AUTOKILL are kept in its f_flags.
 */
static inline struct pfd_target *pfd_file_target(const struct file *file)
{
	return file->private_data;
}

static inline struct pid *pfd_file_pid(const struct file *file)
{
	return pfd_target_pid(pfd_file_target(file));
}

static inline bool pfd_is_thread(const struct file *file)
{
	return file->f_flags & PIDFD_THREAD;
}

/* Is @pid visible in the caller's pid namespace (its own or a child's)? */
static inline bool pfd_pid_in_current_ns(const struct pid *pid)
{
	const struct pid_namespace *ns = task_active_pid_ns(current);

	return ns->level <= pid->level && pid->numbers[ns->level].ns == ns;
}

/* The pid namespace of a procfs instance, from one of its inodes. */
static inline struct pid_namespace *pfd_proc_pid_ns(struct inode *inode)
{
	return proc_pid_ns(inode->i_sb);
}

/*
 * Extensible commands are matched on direction, type and number only: the
 * size field is the caller's struct size (copy_struct_from_user rules).
 */
static inline bool pfd_ioctl_is(unsigned int cmd, unsigned int ref)
{
	return _IOC_DIR(cmd) == _IOC_DIR(ref) &&
	       _IOC_TYPE(cmd) == _IOC_TYPE(ref) &&
	       _IOC_NR(cmd) == _IOC_NR(ref);
}

/* signal.c */
long pfd_send_signal_ioctl(struct file *file, unsigned int cmd,
			   void __user *uarg);

/* signal_policy.c */
int pfd_signal_policy_init(void);
int pfd_signal_policy_check(struct task_struct *target, int sig);
int pfd_peer_policy_check(void);

/* procdir.c: /proc/<pid> directories proved to be a pid's */
long pfd_dev_open_procdir(unsigned int cmd, void __user *uarg);
long pfd_get_procfd(struct file *file, int procfd);
struct file *pfd_open_procdir(struct pid *pid, const struct path *root);

/* nsfd.c */
int pfd_nsfd_init(void);
bool pfd_nsfd_own_mount(const struct vfsmount *mnt);
void pfd_nsfd_exit(void);
bool pfd_is_ns_ioctl(unsigned int cmd);
long pfd_get_namespace(struct file *file, unsigned int cmd,
		       unsigned long arg);

/* info.c */
long pfd_get_info(struct file *file, unsigned int cmd, void __user *uarg);

/* exit_track.c: the table of targets and the exit tracepoints */
int pfd_exit_track_init(void);
void pfd_exit_track_exit(void);
struct pfd_target *pfd_target_get(struct pid *pid);
void pfd_target_put(struct pfd_target *target);
int pfd_target_exit_status(struct pfd_target *target,
			   struct pfd_exit_record *rec);
bool pfd_target_exit_record(struct pfd_target *target,
			    struct pfd_exit_record *rec);
extern atomic_t pfd_live_targets;

#endif /* PFD_INTERNAL_H */
