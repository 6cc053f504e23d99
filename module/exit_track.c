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
 * changes. So targets are hashed by that number, and the free of a
 * task with number N finishes every target numbered N whose pid has no
 * task left: it records the task's exit code if nothing was recorded (the
 * status upstream's pidfs_exit() keeps at release), and wakes the waiters.
 * This covers every way a struct pid loses its task, the ones execve(2)
 * makes included: de_thread() hands the exec'ing thread's struct pid to
 * the old leader and releases that leader, whose ->pid then is the
 * thread's old number.
 *
 * A third probe, on signal_deliver, notes the fatal signal a process is
 * about to dump core for, and its dumpability then: the exit status says
 * only whether a dump was made (PIDFD_INFO_COREDUMP, docs/abi.md).
 *
 * The exit probes run for every exiting task in the system: they return at once
 * when no pidfd is open and otherwise do one or two lockless lookups in an
 * rhashtable (an rhltable: a released pid and a new one may share a
 * number), which stays O(1) as it grows; a lock is taken only on a target
 * that matched, its own.
 *
 * Tracepoint probes may run with preemption disabled (before 7.x they
 * always do), and on PREEMPT_RT the free probe also runs in an RCU
 * callback that must not sleep: so a target's lock
 * is a raw spinlock, and the probes never wake a waitqueue themselves
 * (its lock sleeps on RT). A finished target is handed, with a reference,
 * to an irq_work, which wakes its waiters in hard interrupt context, or on
 * RT in the irq_work thread. The table itself is changed only in process
 * context (rhashtable's bucket locks disable softirqs, and may allocate):
 * a last reference dropped by the irq_work hands the free to a work item.
 *
 * A target also carries its struct pid's identity (docs/design.md,
 * "Process identity"): a number, pid->ino where the kernel has it (6.9+),
 * else from a counter of the module's, and while pidfds of it are open the
 * inode they are files on, numbered so. Without pid->ino the number must
 * outlive the pidfds, for as long as the process lives: there the process
 * itself holds a reference to its target from the target's creation until
 * sched_process_free finishes the target, which hands that reference to
 * the wakeup. The inode goes with the last pidfd, the number stays.
 */
#include <linux/cgroup.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/llist.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rhashtable.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "pidfd_internal.h"
#include "probe_stats.h"

/*
 * One per struct pid that has module pidfds open. All pidfds for the same
 * struct pid share it, so that the exit status recorded when the process
 * exits is seen through each of them.
 */
struct pfd_target {
	struct rhlist_head by_nr;	/* in the table, keyed by pid_nr(@pid) */
	union {
		/* Queued for a wakeup, then for the free (exit_track.c). */
		struct llist_node wake_node;
		/* Out of the table, waiting for lockless readers to leave. */
		struct rcu_head rcu;
	};
	struct pid *pid;		/* counted reference */
	/*
	 * Open pidfd files, a queued wakeup; before 6.9 also the process
	 * until its target is finished (@released).
	 */
	refcount_t users;

	/* Taken in the tracepoint probes (raw: they must not sleep on RT). */
	raw_spinlock_t lock;
	/*
	 * Written and read under @lock. The dump_* fields: the last fatal,
	 * core-dumping signal the process dequeued with a pidfd open
	 * (signal_deliver), and its dumpability then: what a dump it starts
	 * is made with. Recorded on the process's target. Small types, so
	 * that the record stays at 96 bytes: any user can make the kernel
	 * keep one per process.
	 */
	struct inode *inode;		/* counted while @files, else NULL */
	unsigned int files;		/* open pidfds on @inode */
	bool released;			/* the pid's last task was freed */
	bool exit_recorded;
	bool dump_signal_seen;
	s8 dump_mode;			/* PFD_DUMPABLE_*, or -1 */
	int exit_code;			/* wait(2) status */
	u64 exit_cgroupid;
	int dump_signal;
	int dump_code;			/* its si_code */
	u64 ino;			/* the identity, @inode's i_ino */
};

/* The fields others see (pfd_file_pid(), pfd_install()). */
struct pid *pfd_target_pid(const struct pfd_target *target)
{
	return target->pid;
}

/**
 * pfd_target_inode_get - the inode for a new pidfd of @target
 * @target: the target, with a user
 *
 * The inode is made for the first open pidfd and goes with the last
 * (pfd_target_inode_put()); its number is the target's, whenever made.
 *
 * Return: the inode with a reference for the new file, or an ERR_PTR().
 */
struct inode *pfd_target_inode_get(struct pfd_target *target)
{
	struct inode *fresh = NULL, *inode;

	for (;;) {
		raw_spin_lock_irq(&target->lock);
		inode = target->inode;
		if (!inode && fresh) {
			/* The target's own reference is the one made. */
			target->inode = fresh;
			inode = fresh;
			fresh = NULL;
		}
		if (inode) {
			target->files++;
			ihold(inode);
		}
		raw_spin_unlock_irq(&target->lock);
		if (inode)
			break;
		fresh = pfd_inode_new(target->ino);
		if (IS_ERR(fresh))
			return fresh;
	}
	if (fresh)
		iput(fresh);	/* another pidfd's open made one first */
	return inode;
}

/* A pidfd of @target is gone (process context): the last takes the inode. */
void pfd_target_inode_put(struct pfd_target *target)
{
	struct inode *last = NULL;

	raw_spin_lock_irq(&target->lock);
	if (!--target->files) {
		last = target->inode;
		target->inode = NULL;
	}
	raw_spin_unlock_irq(&target->lock);
	if (last)
		iput(last);
}

/*
 * Before 6.9: the last number given to a target. Numbers only grow, and
 * start at the boot-time clock's reading when the module is loaded: a
 * target is made at most once a nanosecond (each one is an allocation
 * under targets_create_lock), so a number given before an unload is below
 * the clock's reading at the next load, and no number is given twice in
 * one boot.
 */
static atomic64_t last_ino = ATOMIC64_INIT(0);

static u64 target_ino(struct pid *pid)
{
	if (PFD_KERNEL_PID_INO)
		return pfd_kernel_pid_ino(pid);
	return atomic64_inc_return(&last_ino);
}

static u32 nr_hash(pid_t nr, u32 seed)
{
	return jhash_1word((u32)nr, seed);
}

static u32 target_key_hash(const void *key, u32 len, u32 seed)
{
	return nr_hash(*(const pid_t *)key, seed);
}

static u32 target_obj_hash(const void *obj, u32 len, u32 seed)
{
	const struct pfd_target *target = obj;

	return nr_hash(pid_nr(target->pid), seed);
}

static int target_obj_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct pfd_target *target = obj;

	return pid_nr(target->pid) != *(const pid_t *)arg->key;
}

/* The key is the pid's number, read through the target's struct pid. */
static const struct rhashtable_params targets_params = {
	.head_offset		= offsetof(struct pfd_target, by_nr),
	.key_len		= sizeof(pid_t),
	.hashfn			= target_key_hash,
	.obj_hashfn		= target_obj_hash,
	.obj_cmpfn		= target_obj_cmp,
	.automatic_shrinking	= true,
};

static struct rhltable targets;
/* Serialises creation, so that a struct pid has one live target. */
static DEFINE_MUTEX(targets_create_lock);
static struct kmem_cache *target_cache;

/* Finished targets whose waiters are still to be woken (wake_targets). */
static LLIST_HEAD(targets_to_wake);
static void wake_targets(struct irq_work *work);
static struct irq_work wake_work;

/* Targets whose last reference the irq_work dropped (free_targets). */
static LLIST_HEAD(targets_to_free);
static void free_targets(struct work_struct *work);
static DECLARE_WORK(free_work, free_targets);

atomic_t pfd_live_targets = ATOMIC_INIT(0);

/* The targets numbered @nr (several: a released pid and a new one). */
static struct rhlist_head *lookup_nr_rcu(pid_t nr)
{
	return rhltable_lookup(&targets, &nr, targets_params);
}

static u64 task_cgroup_id(struct task_struct *task)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(task));
	rcu_read_unlock();
	return id;
}

static void record_exit(struct pfd_target *target, int code, u64 cgroupid)
{
	lockdep_assert_held(&target->lock);
	target->exit_recorded = true;
	target->exit_code = code;
	target->exit_cgroupid = cgroupid;
}

/*
 * The status to record for @task's own pid, as far as it is known. A group
 * leader's is what wait(2) reports for the whole group: the group exit
 * code once the group is being taken down together (exit_group(2), a
 * fatal signal, or since 5.17 the last thread's exit), else its own code.
 * For a group exit that comes after the leader has exited, the group's
 * last thread records it (probe_process_exit()).
 *
 * Any other thread's is its own exit code: do_exit() was given the group
 * code when the thread went down with its group. The group code can be set
 * by a later thread while this one is between do_exit() and the
 * tracepoint, and must not be taken for its own then.
 */
static int own_status(struct task_struct *task)
{
	struct signal_struct *sig = task->signal;

	if (thread_group_leader(task) &&
	    (READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT))
		return READ_ONCE(sig->group_exit_code);
	return READ_ONCE(task->exit_code);
}

/*
 * Records @code on every target of @pid (a dying one and a new one may be
 * in the table together). The cgroup id is read only once one matched.
 */
static void record_pid_exit(struct pid *pid, int code,
			    struct task_struct *task)
{
	struct pfd_target *target;
	struct rhlist_head *pos;
	unsigned long irqflags;
	bool have_cgroupid = false;
	u64 cgroupid = 0;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "exit recorded outside RCU");

	rhl_for_each_entry_rcu(target, pos, lookup_nr_rcu(pid_nr(pid)), by_nr) {
		if (target->pid != pid)
			continue;
		if (!have_cgroupid) {
			cgroupid = task_cgroup_id(task);
			have_cgroupid = true;
		}
		raw_spin_lock_irqsave(&target->lock, irqflags);
		record_exit(target, code, cgroupid);
		raw_spin_unlock_irqrestore(&target->lock, irqflags);
	}
}

/*
 * The leader and the last thread of a group can pass this tracepoint in
 * either order, each after it has decremented signal->live. The leader
 * records its own status; the last thread records the group exit code for
 * the leader when there is one.
 */
static void probe_process_exit(void *data, struct task_struct *task)
{
	/*
	 * Pairs with the barrier in record_if_exiting(): either this probe
	 * sees a target opened meanwhile, or the opener sees this task
	 * exiting with its final exit code.
	 */
	smp_mb();
	if (!atomic_read(&pfd_live_targets))
		return;

	rcu_read_lock();
	record_pid_exit(task_pid(task), own_status(task), task);
	if (!thread_group_leader(task) && !atomic_read(&task->signal->live) &&
	    (READ_ONCE(task->signal->flags) & SIGNAL_GROUP_EXIT))
		record_pid_exit(task_tgid(task),
				READ_ONCE(task->signal->group_exit_code), task);
	rcu_read_unlock();
}

/* What the probes cost every exit is measured in bench builds. */
static void probe_process_exit_timed(void *data, struct task_struct *task)
{
	u64 begin = pfd_probe_stat_begin();

	probe_process_exit(data, task);
	pfd_probe_stat_end(PFD_PROBE_EXIT, begin);
}

PFD_COMPAT_PROBE_PROCESS_EXIT(probe_process_exit_timed)

/*
 * The pid's last task is gone for good: its status is final. Returns true
 * if the target was queued for wake_targets().
 */
static bool finish_target(struct pfd_target *target,
			  struct task_struct *task)
{
	lockdep_assert_held(&target->lock);
	target->released = true;
	if (!target->exit_recorded)
		record_exit(target, own_status(task), task_cgroup_id(task));
	/* Released only once, so queued at most once. */
	if (!PFD_KERNEL_PID_INO)
		goto queue;	/* with the process's own reference */
	if (!refcount_inc_not_zero(&target->users))
		return false;	/* its last pidfd is being closed */
queue:
	llist_add(&target->wake_node, &targets_to_wake);
	return true;
}

/*
 * A last reference dropped here (the pidfds were closed while the wakeup
 * was queued) cannot take the target out of the table in this context:
 * free_targets() does.
 */
static void wake_targets(struct irq_work *work)
{
	struct llist_node *list = llist_del_all(&targets_to_wake);
	struct pfd_target *target, *next;
	bool queued = false;

	llist_for_each_entry_safe(target, next, list, wake_node) {
		wake_up_all(&target->pid->wait_pidfd);
		if (refcount_dec_and_test(&target->users)) {
			llist_add(&target->wake_node, &targets_to_free);
			queued = true;
		}
	}
	if (queued)
		schedule_work(&free_work);
}

static void probe_process_free(void *data, struct task_struct *task)
{
	struct pfd_target *target;
	struct rhlist_head *pos;
	unsigned long irqflags;
	bool queued = false;

	if (!atomic_read(&pfd_live_targets))
		return;

	rcu_read_lock();
	rhl_for_each_entry_rcu(target, pos, lookup_nr_rcu(READ_ONCE(task->pid)),
			       by_nr) {
		raw_spin_lock_irqsave(&target->lock, irqflags);
		if (!target->released &&
		    !pid_has_task(target->pid, PIDTYPE_PID))
			queued |= finish_target(target, task);
		raw_spin_unlock_irqrestore(&target->lock, irqflags);
	}
	rcu_read_unlock();
	if (queued)
		irq_work_queue(&wake_work);
}

static void probe_process_free_timed(void *data, struct task_struct *task)
{
	u64 begin = pfd_probe_stat_begin();

	probe_process_free(data, task);
	pfd_probe_stat_end(PFD_PROBE_FREE, begin);
}

/*
 * A task that was already exiting when its first pidfd was opened may have
 * passed sched_process_exit before its target was in the table, or before
 * the module was loaded. Its exit code is final by then: record it now.
 * If the task has not reached the tracepoint yet, what is recorded here is
 * provisional and the tracepoint overwrites it.
 */
static void record_if_exiting(struct pfd_target *target)
{
	struct task_struct *task;

	/* Pairs with the barrier in probe_process_exit(). */
	smp_mb();
	rcu_read_lock();
	task = pid_task(target->pid, PIDTYPE_PID);
	if (task && (READ_ONCE(task->flags) & PF_EXITING)) {
		u64 cgroupid = task_cgroup_id(task);

		raw_spin_lock_irq(&target->lock);
		if (!target->exit_recorded)
			record_exit(target, own_status(task), cgroupid);
		raw_spin_unlock_irq(&target->lock);
	}
	rcu_read_unlock();
}

/* A live target of @pid with a new user, or NULL. */
static struct pfd_target *target_find_get(struct pid *pid)
{
	struct pfd_target *target;
	struct rhlist_head *pos;

	rcu_read_lock();
	rhl_for_each_entry_rcu(target, pos, lookup_nr_rcu(pid_nr(pid)), by_nr)
		if (target->pid == pid && refcount_inc_not_zero(&target->users))
			goto out;
	target = NULL;
out:
	rcu_read_unlock();
	return target;
}

/*
 * Before 6.9, the reference of a target's process goes when its target is
 * finished: by finish_target(), or here if the process was gone before
 * its target could be found. Whoever marks the target released owns it.
 */
static void target_put_process_ref(struct pfd_target *target)
{
	bool owner;

	raw_spin_lock_irq(&target->lock);
	owner = !target->released;
	target->released = true;
	raw_spin_unlock_irq(&target->lock);
	if (owner)
		pfd_target_put(target);
}

static struct pfd_target *target_create(struct pid *pid)
{
	struct pfd_target *fresh;
	pid_t nr = pid_nr(pid);
	bool has_task;
	int err;

	fresh = kmem_cache_zalloc(target_cache, GFP_KERNEL);
	if (!fresh)
		return ERR_PTR(-ENOMEM);
	fresh->ino = target_ino(pid);
	fresh->pid = get_pid(pid);
	/* The opener's pidfd, and before 6.9 the process (finish_target). */
	refcount_set(&fresh->users, PFD_KERNEL_PID_INO ? 1 : 2);
	raw_spin_lock_init(&fresh->lock);

	/* Before the insert: a probe that finds the target must not skip. */
	atomic_inc(&pfd_live_targets);
	/*
	 * In one RCU read section with the check for a task: a task released
	 * after the check is freed after the section, when the target is in
	 * the table for sched_process_free to find.
	 */
	rcu_read_lock();
	err = rhltable_insert_key(&targets, &nr, &fresh->by_nr, targets_params);
	has_task = !err && pid_has_task(pid, PIDTYPE_PID);
	rcu_read_unlock();
	if (err) {
		atomic_dec(&pfd_live_targets);
		put_pid(fresh->pid);
		kmem_cache_free(target_cache, fresh);
		return ERR_PTR(-ENOMEM);	/* the table could not grow */
	}
	if (!has_task) {
		/*
		 * Reaped since the opener looked: the process is gone, as for
		 * pidfd_open(2) losing the same race. Its task's free may still
		 * be coming and find the target, so it leaves the table the way
		 * every target does.
		 */
		if (!PFD_KERNEL_PID_INO)
			target_put_process_ref(fresh);
		pfd_target_put(fresh);
		return ERR_PTR(-ESRCH);
	}
	return fresh;
}

/**
 * pfd_target_get - find or create the target of @pid, and take a user
 * @pid: the struct pid; the target takes its own reference
 *
 * Return: the target, or an ERR_PTR() (-ENOMEM).
 */
struct pfd_target *pfd_target_get(struct pid *pid)
{
	struct pfd_target *target;

	target = target_find_get(pid);
	if (target)
		return target;

	mutex_lock(&targets_create_lock);
	target = target_find_get(pid);
	if (!target)
		target = target_create(pid);
	mutex_unlock(&targets_create_lock);
	if (!IS_ERR(target))
		record_if_exiting(target);
	return target;
}

static void target_free_rcu(struct rcu_head *rcu)
{
	struct pfd_target *target = container_of(rcu, struct pfd_target, rcu);

	/* The probes may still have compared with or locked it until now. */
	put_pid(target->pid);
	kmem_cache_free(target_cache, target);
}

/* Out of the table; freed once no lockless reader can see it. */
static void target_free(struct pfd_target *target)
{
	WARN_ON_ONCE(target->inode);	/* its pidfds are all gone */
	rhltable_remove(&targets, &target->by_nr, targets_params);
	atomic_dec(&pfd_live_targets);
	call_rcu(&target->rcu, target_free_rcu);
}

static void free_targets(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&targets_to_free);
	struct pfd_target *target, *next;

	llist_for_each_entry_safe(target, next, list, wake_node)
		target_free(target);
}

/* Process context only (pfd_release(), error paths). */
void pfd_target_put(struct pfd_target *target)
{
	if (refcount_dec_and_test(&target->users))
		target_free(target);
}

static bool target_finished(struct pfd_target *target)
{
	bool finished;

	raw_spin_lock_irq(&target->lock);
	finished = target->released ||
		   pid_has_task(target->pid, PIDTYPE_PID);
	raw_spin_unlock_irq(&target->lock);
	return finished;
}

static void copy_record(struct pfd_target *target,
			struct pfd_exit_record *rec)
{
	lockdep_assert_held(&target->lock);
	rec->code = target->exit_code;
	rec->cgroupid = target->exit_cgroupid;
	rec->dump_signal_seen = target->dump_signal_seen;
	rec->dump_mode = target->dump_mode;
	rec->dump_signal = target->dump_signal;
	rec->dump_code = target->dump_code;
}

/**
 * pfd_target_exit_status - the recorded exit of a reaped @target
 * @target: the target, whose pid has no task any more
 * @rec: the record, if there is one
 *
 * Between the release of the pid's last task and sched_process_free (one
 * RCU grace period) the status may still be coming: wait for it then.
 *
 * Return: 0 if the exit was recorded, -ESRCH if it never will be, -EINTR
 * if a fatal signal came first.
 */
int pfd_target_exit_status(struct pfd_target *target,
			   struct pfd_exit_record *rec)
{
	int err;

	if (wait_event_killable(target->pid->wait_pidfd,
				target_finished(target)))
		return -EINTR;
	raw_spin_lock_irq(&target->lock);
	err = target->exit_recorded ? 0 : -ESRCH;
	copy_record(target, rec);
	raw_spin_unlock_irq(&target->lock);
	return err;
}

/**
 * pfd_target_exit_record - the exit recorded so far, without waiting
 * @target: the target, of a task that has exited (a zombie)
 * @rec: the record, if there is one
 *
 * Return: whether an exit was recorded.
 */
bool pfd_target_exit_record(struct pfd_target *target,
			    struct pfd_exit_record *rec)
{
	bool recorded;

	raw_spin_lock_irq(&target->lock);
	recorded = target->exit_recorded;
	copy_record(target, rec);
	raw_spin_unlock_irq(&target->lock);
	return recorded;
}

/*
 * A thread dequeued a signal whose default action is a core dump, and
 * takes that action: the dump it goes on to make (if any) is made in the
 * process's dumpability of now, for this signal and si_code. Whether it
 * was made shows only in the exit status (WCOREDUMP), so this is kept on
 * the process's target until then. get_signal() holds the siglock, with
 * interrupts off (on PREEMPT_RT, siglock sleeps and they are on).
 */
static void probe_signal_deliver(void *data, int sig,
				 struct kernel_siginfo *info,
				 struct k_sigaction *ka)
{
	struct pfd_target *target;
	struct rhlist_head *pos;
	unsigned long irqflags;
	struct pid *tgid;
	int mode;

	lockdep_assert_held(&current->sighand->siglock);

	if (!atomic_read(&pfd_live_targets))
		return;
	if (!sig_kernel_coredump(sig) || ka->sa.sa_handler != SIG_DFL ||
	    (current->flags & PF_KTHREAD))
		return;

	mode = pfd_task_dumpable(current);
	rcu_read_lock();
	tgid = task_tgid(current);
	rhl_for_each_entry_rcu(target, pos, lookup_nr_rcu(pid_nr(tgid)),
			       by_nr) {
		if (target->pid != tgid)
			continue;
		raw_spin_lock_irqsave(&target->lock, irqflags);
		target->dump_signal_seen = true;
		target->dump_mode = mode;
		target->dump_signal = sig;
		target->dump_code = info->si_code;
		raw_spin_unlock_irqrestore(&target->lock, irqflags);
	}
	rcu_read_unlock();
}

static void probe_signal_deliver_timed(void *data, int sig,
				       struct kernel_siginfo *info,
				       struct k_sigaction *ka)
{
	u64 begin = pfd_probe_stat_begin();

	probe_signal_deliver(data, sig, info, ka);
	pfd_probe_stat_end(PFD_PROBE_SIGNAL, begin);
}

struct tracepoint_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct tracepoint_hook hooks[] = {
	{ .name = "sched_process_exit",
	  .probe = probe_process_exit_timed_compat },
	{ .name = "sched_process_free", .probe = probe_process_free_timed },
	{ .name = "signal_deliver", .probe = probe_signal_deliver_timed },
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

/* At unload: a target no pidfd uses any more, and no reader sees. */
static void target_free_unused(void *ptr, void *arg)
{
	struct pfd_target *target = ptr;

	WARN_ON_ONCE(refcount_read(&target->users) != 1 || target->inode);
	put_pid(target->pid);
	atomic_dec(&pfd_live_targets);
	kmem_cache_free(target_cache, target);
}

int pfd_exit_track_init(void)
{
	int i, err;

	/* The record's layout keeps it at 96 bytes (pidfd_internal.h). */
	BUILD_BUG_ON(!IS_ENABLED(CONFIG_DEBUG_SPINLOCK) &&
		     !IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) &&
		     sizeof(struct pfd_target) > 96);
	/* An identity is 64 bits wide, and i_ino must hold it. */
	BUILD_BUG_ON(sizeof(((struct inode *)NULL)->i_ino) < sizeof(u64));
	atomic64_set(&last_ino, ktime_get_boottime_ns());

	/*
	 * Any user can make the module allocate targets: charge them to the
	 * caller's memory cgroup, as the kernel charges its files. The
	 * cache keeps the name /proc/slabinfo has always shown for it.
	 */
	target_cache = kmem_cache_create("pidfd_target",
					 sizeof(struct pfd_target),
					 __alignof__(struct pfd_target),
					 SLAB_ACCOUNT, NULL);
	if (!target_cache)
		return -ENOMEM;
	err = rhltable_init(&targets, &targets_params);
	if (err)
		goto err_cache;
	init_irq_work(&wake_work, wake_targets);
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
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	/* Only the hooks before the i-th were registered. */
	for (; i < ARRAY_SIZE(hooks); i++)
		hooks[i].tp = NULL;
	unregister_hooks();
	rhltable_destroy(&targets);
err_cache:
	kmem_cache_destroy(target_cache);
	return err;
}

void pfd_exit_track_exit(void)
{
	unregister_hooks();
	/* The probes are gone: no more work can be queued. */
	irq_work_sync(&wake_work);
	flush_work(&free_work);
	/*
	 * Every pidfd pins the module, so what is left are the targets that
	 * live processes hold (before 6.9), unfinished: no probe runs now.
	 */
	rhltable_free_and_destroy(&targets, target_free_unused, NULL);
	WARN_ON_ONCE(atomic_read(&pfd_live_targets));
	/* target_free_rcu() is module code. */
	rcu_barrier();
	kmem_cache_destroy(target_cache);
}
