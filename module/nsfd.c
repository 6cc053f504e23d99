// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_<TYPE>_NAMESPACE: an nsfs fd of the pidfd's process, through
 * procfs.
 *
 * Upstream's ioctls (6.11) check ptrace_may_access(PTRACE_MODE_READ_FSCREDS)
 * and then open the namespace; a module can call neither. Following the
 * /proc/<pid>/ns/<type> link does exactly that: procfs runs the same check
 * with the caller's credentials (EACCES when it fails) and hands out the
 * same nsfs file. The module reaches procfs through an instance of its own,
 * mounted at load and attached to no mount namespace, so the caller needs
 * no /proc in its view and no hidepid= option of another instance applies,
 * as upstream needs none. The directory is proved to be the pidfd's process
 * as PIDFD_GET_PROCFD's is (pfd_open_procdir()); the instance is the
 * module's alone, so nobody can mount on it, and a stale entry that a
 * lookup racing execve() leaves there is dropped.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/nsproxy.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

struct ns_link {
	unsigned int cmd;
	const char *path;	/* below /proc/<pid> */
	bool configured;	/* the kernel has this kind of namespace */
};

static const struct ns_link ns_links[] = {
	{ PIDFD_GET_CGROUP_NAMESPACE, "ns/cgroup", IS_ENABLED(CONFIG_CGROUPS) },
	{ PIDFD_GET_IPC_NAMESPACE, "ns/ipc", IS_ENABLED(CONFIG_IPC_NS) },
	{ PIDFD_GET_MNT_NAMESPACE, "ns/mnt", true },
	{ PIDFD_GET_NET_NAMESPACE, "ns/net", IS_ENABLED(CONFIG_NET_NS) },
	{ PIDFD_GET_PID_NAMESPACE, "ns/pid", IS_ENABLED(CONFIG_PID_NS) },
	{ PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, "ns/pid_for_children",
	  IS_ENABLED(CONFIG_PID_NS) },
	{ PIDFD_GET_TIME_NAMESPACE, "ns/time", IS_ENABLED(CONFIG_TIME_NS) },
	{ PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE, "ns/time_for_children",
	  IS_ENABLED(CONFIG_TIME_NS) },
	{ PIDFD_GET_USER_NAMESPACE, "ns/user", IS_ENABLED(CONFIG_USER_NS) },
	{ PIDFD_GET_UTS_NAMESPACE, "ns/uts", IS_ENABLED(CONFIG_UTS_NS) },
};

static struct vfsmount *proc_mnt;
/*
 * Who proves the directory in that instance: the kernel, so that a
 * caller's path-based LSM (Landlock, AppArmor) does not judge a path it
 * never named; the caller's credentials open the link, as upstream's
 * ptrace check is the caller's.
 */
static const struct cred *proof_cred;

/*
 * @pid's task, referenced, if it has namespaces; else NULL. do_exit()
 * drops a task's namespaces before it becomes a zombie. procfs would still
 * show a zombie's user and pid namespaces (they come from its credentials
 * and its struct pid); upstream answers ESRCH for every type.
 */
static struct task_struct *task_with_namespaces(struct pid *pid)
{
	struct task_struct *task = get_pid_task(pid, PIDTYPE_PID);
	bool has;

	if (!task)
		return NULL;
	task_lock(task);
	has = task->nsproxy;
	task_unlock(task);
	if (has)
		return task;
	put_task_struct(task);
	return NULL;
}

/* open_related_ns()'s getter: one more reference to a pid namespace. */
static struct ns_common *pid_ns_get_ref(struct ns_common *ns)
{
	get_pid_ns(container_of(ns, struct pid_namespace, ns));
	return ns;
}

/*
 * procfs before 7.x shows no ns/pid_for_children link while that
 * namespace has no init yet (unshare(CLONE_NEWPID) before the first
 * fork): it answers ENOENT, after its ptrace check. Upstream's ioctl gives
 * the namespace. The caller's right to it is that same check, which
 * procfs ran for ns/pid of the same directory (the caller opened it); the
 * namespace is taken from @task, the directory's, and opened as nsfs
 * opens it (open_related_ns(): O_RDONLY, close-on-exec, the LSMs'
 * file_open). Return: the new fd, or a negative errno.
 */
static int open_pid_ns_for_children(struct task_struct *task)
{
	struct pid_namespace *ns = NULL;
	int fd;

	task_lock(task);
	if (task->nsproxy)
		ns = get_pid_ns(task->nsproxy->pid_ns_for_children);
	task_unlock(task);
	if (!ns)
		return -ESRCH;	/* exited: its namespaces are gone */
	fd = open_related_ns(&ns->ns, pid_ns_get_ref);
	put_pid_ns(ns);
	return fd;
}

/*
 * Does the task of the directory @dir in our instance have namespaces?
 * Its ns/mnt opens, with the kernel's credentials (proof_cred).
 */
static bool dir_task_has_namespaces(const struct path *dir)
{
	const struct cred *caller_cred = override_creds(proof_cred);
	struct file *probe = pfd_file_open_root(dir, "ns/mnt", O_RDONLY);

	revert_creds(caller_cred);
	if (IS_ERR(probe))
		return false;
	fput(probe);
	return true;
}

/* How often a call that a non-leader's execve() spoiled is made again. */
#define NS_ATTEMPTS	3

/*
 * One try of pfd_get_namespace(). A non-leader's execve() hands the
 * process's pid from the exiting old leader, a zombie without namespaces
 * or mm (for which procfs's ptrace check skips the dumpability test on
 * 5.10 to 6.12), to the thread that execs (exchange_tids()); a lookup
 * racing it can even bind the number to the old leader's pid. So the
 * link's answer counts only if @pid's task had namespaces before and is
 * the same task after, and the directory's task has namespaces after:
 * then the link was opened against that task. Otherwise -EAGAIN, the
 * directory dropped (our instance: pfd_open_procdir() took no other).
 */
static int get_namespace_once(const struct ns_link *link, struct pid *pid)
{
	struct path root = {
		.mnt = proc_mnt,
		.dentry = proc_mnt->mnt_root,
	};
	struct task_struct *before, *after;
	const struct cred *caller_cred;
	struct file *dir, *nsfile;
	bool fallback, same;
	int fd;

	before = task_with_namespaces(pid);
	if (!before)
		return -ESRCH;
	/* ESRCH also when the process is outside our procfs's ns. */
	caller_cred = override_creds(proof_cred);
	dir = pfd_open_procdir(pid, &root);
	revert_creds(caller_cred);
	if (IS_ERR(dir)) {
		put_task_struct(before);
		return PTR_ERR(dir);
	}
	nsfile = pfd_file_open_root(&dir->f_path, link->path, O_RDONLY);
	/* A pid namespace without an init yet (before 7.x): ns/pid's check. */
	fallback = PTR_ERR_OR_ZERO(nsfile) == -ENOENT &&
		   link->cmd == PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE;
	if (fallback)
		nsfile = pfd_file_open_root(&dir->f_path, "ns/pid", O_RDONLY);

	after = task_with_namespaces(pid);
	same = after == before && dir_task_has_namespaces(&dir->f_path);
	/* Only ever in our own instance, as pfd_open_procdir() drops. */
	if (!same && after && pfd_nsfd_own_mount(dir->f_path.mnt))
		d_invalidate(dir->f_path.dentry);
	fput(dir);
	put_task_struct(before);
	if (!same) {
		if (!IS_ERR(nsfile))
			fput(nsfile);
		if (!after)
			return -ESRCH;	/* exited meanwhile */
		put_task_struct(after);
		return -EAGAIN;
	}

	if (IS_ERR(nsfile)) {
		fd = PTR_ERR(nsfile);
		/*
		 * Every name on the way exists for a task with namespaces
		 * and a configured type: procfs could not allocate an
		 * inode, which it reports as ENOENT.
		 */
		if (fd == -ENOENT)
			fd = -ENOMEM;
	} else if (fallback) {
		fput(nsfile);
		fd = open_pid_ns_for_children(after);
	} else {
		fd = get_unused_fd_flags(O_CLOEXEC);
		if (fd < 0)
			fput(nsfile);
		else
			fd_install(fd, nsfile);
	}
	put_task_struct(after);
	return fd;
}

/* The namespace ioctl @cmd is, or NULL. */
static const struct ns_link *ns_link_of(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ns_links); i++)
		if (ns_links[i].cmd == cmd)
			return &ns_links[i];
	return NULL;
}

bool pfd_is_ns_ioctl(unsigned int cmd)
{
	return ns_link_of(cmd);
}

long pfd_get_namespace(struct file *file, unsigned int cmd,
		       unsigned long arg)
{
	const struct ns_link *link = ns_link_of(cmd);
	struct pid *pid = pfd_file_pid(file);
	int attempt, fd;

	/*
	 * Upstream's order (fs/pidfs.c, 7.2): a gone process, a bad argument,
	 * a process that has dropped its namespaces, the ptrace check
	 * (procfs's, when the link is opened). A type the kernel lacks has
	 * no procfs entry to ask, so it is answered first
	 * (docs/differences.md).
	 */
	if (!pid_has_task(pid, PIDTYPE_PID))
		return -ESRCH;
	if (arg)
		return -EINVAL;
	if (!link->configured)
		return -EOPNOTSUPP;
	for (attempt = 1; ; attempt++) {
		fd = get_namespace_once(link, pid);
		if (fd != -EAGAIN)
			return fd;
		/* An exec every time: the number cannot be proved. */
		if (attempt == NS_ATTEMPTS)
			return -ESRCH;
	}
}

/*
 * Is @mnt the module's own procfs instance? No path reaches it and no
 * mount covers it, so only there may the module drop a dentry it doubts:
 * never in a procfs a caller named.
 */
bool pfd_nsfd_own_mount(const struct vfsmount *mnt)
{
	return mnt == proc_mnt;
}

int pfd_nsfd_init(void)
{
	struct file_system_type *type;

	/* Built in (no owner), so get_fs_type() took no module reference. */
	type = get_fs_type("proc");
	if (!type)
		return -ENOENT;
	/* Of the pid namespace of the process that loads the module. */
	proc_mnt = kern_mount(type);
	if (IS_ERR(proc_mnt)) {
		int err = PTR_ERR(proc_mnt);

		pr_err("cannot mount an internal procfs instance: %d\n", err);
		return err;
	}
	proof_cred = prepare_kernel_cred(&init_task);
	if (!proof_cred) {
		kern_unmount(proc_mnt);
		return -ENOMEM;
	}
	return 0;
}

void pfd_nsfd_exit(void)
{
	put_cred(proof_cred);
	kern_unmount(proc_mnt);
}
