// SPDX-License-Identifier: GPL-2.0
/*
 * The table of struct pids that have module pidfds open, and the two
 * scheduler tracepoints that keep it informed about exits.
 *
 * Upstream (6.15) keeps a process's exit status in pidfs for as long as a
 * pidfd is open, so PIDFD_INFO_EXIT works after the process was reaped.
 * Older kernels keep nothing, so the module records it itself:
 * sched_process_exit fires in do_exit() after the exit code is final and
 * before the task is released, for every exiting task.
 *
 * Kernels before 6.9 never wake pid->wait_pidfd when a thread other than
 * the group leader exits, so a PIDFD_THREAD pidfd would never see POLLIN.
 * sched_process_free fires once the task has been released (no task is
 * attached to its struct pid any more); the module wakes the waiters then.
 *
 * Both probes run for every exiting task in the system: they return at once
 * when no pidfd is open and otherwise do one RCU hash lookup.
 */
#include <linux/cgroup.h>
#include <linux/hashtable.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/wait.h>

#include "pidfd_internal.h"

#define PIDFD_TABLE_BITS 8

static DEFINE_HASHTABLE(targets_by_pid, PIDFD_TABLE_BITS);
static DEFINE_HASHTABLE(targets_by_task, PIDFD_TABLE_BITS);
/* Taken from the free tracepoint, which runs in RCU callback context. */
static DEFINE_SPINLOCK(targets_lock);

atomic_t pidfd_live_targets = ATOMIC_INIT(0);

static struct pidfd_target *lookup_rcu(struct pid *pid)
{
	struct pidfd_target *target;

	hash_for_each_possible_rcu(targets_by_pid, target, by_pid,
				   (unsigned long)pid)
		if (target->pid == pid)
			return target;
	return NULL;
}

static u64 task_cgroup_id(struct task_struct *task)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(task));
	rcu_read_unlock();
	return id;
}

/* Called with targets_lock held. */
static void record_exit(struct pidfd_target *target, int code, u64 cgroupid)
{
	target->exit_recorded = true;
	target->exit_code = code;
	target->exit_cgroupid = cgroupid;
}

/*
 * The wait(2) status of @task as far as it is known: the group exit code
 * once its group is being taken down together (exit_group(2), a fatal
 * signal), else its own exit code. For a group leader that wait(2) reports
 * for the whole group, a group exit that comes after the leader has exited
 * is recorded by the group's last thread.
 */
static int wait_status(struct task_struct *task)
{
	struct signal_struct *sig = task->signal;

	if (READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT)
		return READ_ONCE(sig->group_exit_code);
	return READ_ONCE(task->exit_code);
}

/*
 * Have sched_process_free wake the pidfd's waiters once @task is released.
 * Before 6.9 the kernel wakes them only when a whole group dies, so this
 * is for threads other than the leader, and for the thread ID that a
 * leader takes away when another thread execs. Called with targets_lock
 * held.
 */
static void watch_release(struct pidfd_target *target,
			  struct task_struct *task)
{
	if (!hlist_unhashed(&target->by_task))
		return;
	target->exit_task = task;
	hash_add_rcu(targets_by_task, &target->by_task, (unsigned long)task);
}

/*
 * The leader and the last thread of a group can pass this tracepoint in
 * either order, each after it has decremented signal->live. The leader
 * records its own status; the last thread records the group exit code for
 * the leader when there is one.
 */
static void probe_process_exit(void *data, struct task_struct *task)
{
	struct pidfd_target *own, *leader = NULL, *exec_thread = NULL;
	bool is_leader = thread_group_leader(task);
	struct task_struct *exec_task;
	unsigned long irqflags;
	u64 cgroupid;

	/*
	 * Pairs with the barrier in record_if_exiting(): either this probe
	 * sees a target opened meanwhile, or the opener sees this task
	 * exiting with its final exit code.
	 */
	smp_mb();
	if (!atomic_read(&pidfd_live_targets))
		return;

	cgroupid = task_cgroup_id(task);

	rcu_read_lock();
	own = lookup_rcu(task_pid(task));
	if (!is_leader && !atomic_read(&task->signal->live) &&
	    (READ_ONCE(task->signal->flags) & SIGNAL_GROUP_EXIT))
		leader = lookup_rcu(task_tgid(task));
	/*
	 * A leader killed by another thread's execve(2): that thread takes
	 * over the leader's struct pid, and its own goes with this task.
	 */
	exec_task = is_leader ? pidfd_exec_task(task->signal) : NULL;
	if (exec_task && exec_task != task)
		exec_thread = lookup_rcu(task_pid(exec_task));
	if (!own && !leader && !exec_thread)
		goto out;

	spin_lock_irqsave(&targets_lock, irqflags);
	if (own && !hlist_unhashed(&own->by_pid)) {
		record_exit(own, wait_status(task), cgroupid);
		if (!is_leader)
			watch_release(own, task);
	}
	if (leader && !hlist_unhashed(&leader->by_pid))
		record_exit(leader, task->signal->group_exit_code, cgroupid);
	if (exec_thread && !hlist_unhashed(&exec_thread->by_pid))
		watch_release(exec_thread, task);
	spin_unlock_irqrestore(&targets_lock, irqflags);
out:
	rcu_read_unlock();
}

PIDFD_COMPAT_PROBE_PROCESS_EXIT(probe_process_exit)

static void probe_process_free(void *data, struct task_struct *task)
{
	struct pidfd_target *target, *found = NULL;
	unsigned long irqflags;

	if (!atomic_read(&pidfd_live_targets))
		return;

	spin_lock_irqsave(&targets_lock, irqflags);
	hash_for_each_possible(targets_by_task, target, by_task,
			       (unsigned long)task) {
		if (target->exit_task == task) {
			found = target;
			break;
		}
	}
	if (found) {
		hash_del_rcu(&found->by_task);
		found->exit_task = NULL;
		/* The target holds a reference on the pid: safe to wake. */
		wake_up_all(&found->pid->wait_pidfd);
	}
	spin_unlock_irqrestore(&targets_lock, irqflags);
}

/*
 * A task that was already exiting when its first pidfd was opened may have
 * passed sched_process_exit before its target was in the table, or before
 * the module was loaded. Its exit code is final by then: record it now.
 * If the task has not reached the tracepoint yet, what is recorded here is
 * provisional and the tracepoint overwrites it.
 */
static void record_if_exiting(struct pidfd_target *target)
{
	struct task_struct *task;
	unsigned long irqflags;

	/* Pairs with the barrier in probe_process_exit(). */
	smp_mb();
	rcu_read_lock();
	task = pid_task(target->pid, PIDTYPE_PID);
	if (task && (READ_ONCE(task->flags) & PF_EXITING)) {
		u64 cgroupid = cgroup_id(task_dfl_cgroup(task));

		/*
		 * Under rcu_read_lock(), so sched_process_free cannot run for
		 * the task before it is watched.
		 */
		spin_lock_irqsave(&targets_lock, irqflags);
		if (!target->exit_recorded)
			record_exit(target, wait_status(task), cgroupid);
		if (!thread_group_leader(task))
			watch_release(target, task);
		spin_unlock_irqrestore(&targets_lock, irqflags);
	}
	rcu_read_unlock();
}

/**
 * pidfd_target_get - find or create the target of @pid, and take a user
 * @pid: the struct pid; the target takes its own reference
 *
 * Return: the target, or NULL when out of memory.
 */
struct pidfd_target *pidfd_target_get(struct pid *pid)
{
	struct pidfd_target *target, *fresh;

	rcu_read_lock();
	target = lookup_rcu(pid);
	if (target && !refcount_inc_not_zero(&target->users))
		target = NULL;
	rcu_read_unlock();
	if (target)
		return target;

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return NULL;
	fresh->pid = get_pid(pid);
	refcount_set(&fresh->users, 1);
	INIT_HLIST_NODE(&fresh->by_task);

	spin_lock_irq(&targets_lock);
	target = lookup_rcu(pid);
	if (target && refcount_inc_not_zero(&target->users)) {
		spin_unlock_irq(&targets_lock);
		put_pid(fresh->pid);
		kfree(fresh);
		return target;
	}
	hash_add_rcu(targets_by_pid, &fresh->by_pid, (unsigned long)pid);
	atomic_inc(&pidfd_live_targets);
	spin_unlock_irq(&targets_lock);

	record_if_exiting(fresh);
	return fresh;
}

void pidfd_target_put(struct pidfd_target *target)
{
	unsigned long irqflags;

	if (!refcount_dec_and_lock_irqsave(&target->users, &targets_lock,
					   &irqflags))
		return;
	hash_del_rcu(&target->by_pid);
	if (!hlist_unhashed(&target->by_task))
		hash_del_rcu(&target->by_task);
	atomic_dec(&pidfd_live_targets);
	spin_unlock_irqrestore(&targets_lock, irqflags);

	put_pid(target->pid);
	kfree_rcu(target, rcu);
}

/**
 * pidfd_target_exit_status - the recorded exit of @target
 * @target: the target
 * @code: the wait(2) status, if recorded
 * @cgroupid: the cgroup the process exited in
 *
 * Return: true if the exit was recorded.
 */
bool pidfd_target_exit_status(struct pidfd_target *target, int *code,
			      u64 *cgroupid)
{
	bool recorded;

	spin_lock_irq(&targets_lock);
	recorded = target->exit_recorded;
	*code = target->exit_code;
	*cgroupid = target->exit_cgroupid;
	spin_unlock_irq(&targets_lock);
	return recorded;
}

struct tracepoint_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct tracepoint_hook hooks[] = {
	{ .name = "sched_process_exit", .probe = probe_process_exit_compat },
	{ .name = "sched_process_free", .probe = probe_process_free },
};

static void find_tracepoint(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!strcmp(tp->name, hooks[i].name))
			hooks[i].tp = tp;
}

static void unregister_hooks(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (hooks[i].tp)
			tracepoint_probe_unregister(hooks[i].tp,
						    hooks[i].probe, NULL);
		hooks[i].tp = NULL;
	}
	tracepoint_synchronize_unregister();
}

int pidfd_exit_track_init(void)
{
	int i, err;

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (!hooks[i].tp) {
			pr_err("kernel tracepoint %s not found\n",
			       hooks[i].name);
			err = -ENOENT;
			goto err_unregister;
		}
		err = tracepoint_probe_register(hooks[i].tp, hooks[i].probe,
						NULL);
		if (err) {
			pr_err("cannot attach to tracepoint %s: %d\n",
			       hooks[i].name, err);
			hooks[i].tp = NULL;
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	unregister_hooks();
	return err;
}

void pidfd_exit_track_exit(void)
{
	unregister_hooks();
	/* Every pidfd pins the module, so the table is empty by now. */
	WARN_ON_ONCE(atomic_read(&pidfd_live_targets));
}
