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
 * sched_process_free fires once for every released task, one RCU grace
 * period after release_task() detached it from its struct pid. The task no
 * longer points to that struct pid then, but its ->pid still holds the
 * pid's number in the initial namespace, and a struct pid's number never
 * changes. So each target is also hashed by that number, and the free of a
 * task with number N finishes every target numbered N whose pid has no
 * task left: it records the task's exit code if nothing was recorded (the
 * status upstream's pidfs_exit() keeps at release), and wakes the waiters.
 * This covers every way a struct pid loses its task, the ones execve(2)
 * makes included: de_thread() hands the exec'ing thread's struct pid to
 * the old leader and releases that leader, whose ->pid then is the
 * thread's old number.
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
static DEFINE_HASHTABLE(targets_by_nr, PIDFD_TABLE_BITS);
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
 * The leader and the last thread of a group can pass this tracepoint in
 * either order, each after it has decremented signal->live. The leader
 * records its own status; the last thread records the group exit code for
 * the leader when there is one.
 */
static void probe_process_exit(void *data, struct task_struct *task)
{
	struct pidfd_target *own, *leader = NULL;
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
	if (!thread_group_leader(task) && !atomic_read(&task->signal->live) &&
	    (READ_ONCE(task->signal->flags) & SIGNAL_GROUP_EXIT))
		leader = lookup_rcu(task_tgid(task));
	if (!own && !leader)
		goto out;

	spin_lock_irqsave(&targets_lock, irqflags);
	if (own && !hlist_unhashed(&own->by_pid))
		record_exit(own, wait_status(task), cgroupid);
	if (leader && !hlist_unhashed(&leader->by_pid))
		record_exit(leader, task->signal->group_exit_code, cgroupid);
	spin_unlock_irqrestore(&targets_lock, irqflags);
out:
	rcu_read_unlock();
}

PIDFD_COMPAT_PROBE_PROCESS_EXIT(probe_process_exit)

/* The pid's last task is gone for good: its status is final. */
static void finish_target(struct pidfd_target *target,
			  struct task_struct *task)
{
	target->released = true;
	if (!target->exit_recorded)
		record_exit(target, READ_ONCE(task->exit_code),
			    task_cgroup_id(task));
	/* The target holds a reference on the pid: safe to wake. */
	wake_up_all(&target->pid->wait_pidfd);
}

static void probe_process_free(void *data, struct task_struct *task)
{
	struct pidfd_target *target;
	unsigned long irqflags;
	pid_t nr;

	if (!atomic_read(&pidfd_live_targets))
		return;

	nr = READ_ONCE(task->pid);
	rcu_read_lock();
	spin_lock_irqsave(&targets_lock, irqflags);
	hash_for_each_possible(targets_by_nr, target, by_nr, nr)
		if (pid_nr(target->pid) == nr && !target->released &&
		    !pid_has_task(target->pid, PIDTYPE_PID))
			finish_target(target, task);
	spin_unlock_irqrestore(&targets_lock, irqflags);
	rcu_read_unlock();
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

		spin_lock_irqsave(&targets_lock, irqflags);
		if (!target->exit_recorded)
			record_exit(target, wait_status(task), cgroupid);
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

	/*
	 * In one RCU read section with the check for a task: a task released
	 * after the check is freed after the section, when the target is in
	 * the table for sched_process_free to find. Without a task, no free
	 * will come for it.
	 */
	rcu_read_lock();
	spin_lock_irq(&targets_lock);
	target = lookup_rcu(pid);
	if (target && refcount_inc_not_zero(&target->users)) {
		spin_unlock_irq(&targets_lock);
		rcu_read_unlock();
		put_pid(fresh->pid);
		kfree(fresh);
		return target;
	}
	fresh->released = !pid_has_task(pid, PIDTYPE_PID);
	hash_add_rcu(targets_by_pid, &fresh->by_pid, (unsigned long)pid);
	hash_add(targets_by_nr, &fresh->by_nr, pid_nr(pid));
	atomic_inc(&pidfd_live_targets);
	spin_unlock_irq(&targets_lock);
	rcu_read_unlock();

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
	hash_del(&target->by_nr);
	atomic_dec(&pidfd_live_targets);
	spin_unlock_irqrestore(&targets_lock, irqflags);

	put_pid(target->pid);
	kfree_rcu(target, rcu);
}

static bool target_finished(struct pidfd_target *target)
{
	bool finished;

	spin_lock_irq(&targets_lock);
	finished = target->released ||
		   pid_has_task(target->pid, PIDTYPE_PID);
	spin_unlock_irq(&targets_lock);
	return finished;
}

/**
 * pidfd_target_exit_status - the recorded exit of a reaped @target
 * @target: the target, whose pid has no task any more
 * @code: the wait(2) status, if recorded
 * @cgroupid: the cgroup the process exited in
 *
 * Between the release of the pid's last task and sched_process_free (one
 * RCU grace period) the status may still be coming: wait for it then.
 *
 * Return: 0 if the exit was recorded, -ESRCH if it never will be, -EINTR
 * if a fatal signal came first.
 */
int pidfd_target_exit_status(struct pidfd_target *target, int *code,
			     u64 *cgroupid)
{
	int err;

	if (wait_event_killable(target->pid->wait_pidfd,
				target_finished(target)))
		return -EINTR;
	spin_lock_irq(&targets_lock);
	err = target->exit_recorded ? 0 : -ESRCH;
	*code = target->exit_code;
	*cgroupid = target->exit_cgroupid;
	spin_unlock_irq(&targets_lock);
	return err;
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
