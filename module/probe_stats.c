// SPDX-License-Identifier: GPL-2.0
/*
 * Bench builds only: the time each tracepoint probe takes, per call, read
 * with local_clock() around the probe. A histogram per probe gives the
 * median, which a vCPU descheduled mid-call (under emulation, often) moves
 * far less than the mean. The "empty" row is two clock reads with nothing
 * between them: what the measurement itself adds to each call.
 *
 *   cat /sys/module/pidfd/parameters/probe_stats
 *   echo reset >/sys/module/pidfd/parameters/probe_stats
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "probe_stats.h"

#define BUCKET_NS	8
#define NR_BUCKETS	1024	/* the last one takes everything slower */
#define EMPTY_SAMPLES	1000

struct probe_stat {
	u64 calls;
	u64 ns;
	u32 hist[NR_BUCKETS];
};

struct probe_stats {
	struct probe_stat stat[PFD_NR_PROBE_STATS];
};

/*
 * Too big for the module's static per-CPU area: allocated at load. Set
 * and cleared under the module's parameter lock, which the parameter's
 * readers and writers hold: a load-time argument comes before init, and
 * sysfs outlives exit until the module is freed.
 */
static struct probe_stats __percpu *probe_stats;

static const char *const stat_names[PFD_NR_PROBE_STATS] = {
	[PFD_PROBE_EXIT] = "sched_process_exit",
	[PFD_PROBE_FREE] = "sched_process_free",
	[PFD_PROBE_SIGNAL] = "signal_deliver",
	[PFD_PROBE_EMPTY] = "empty",
};

int pfd_probe_stats_init(void)
{
	struct probe_stats __percpu *stats = alloc_percpu(struct probe_stats);

	if (!stats)
		return -ENOMEM;
	kernel_param_lock(THIS_MODULE);
	probe_stats = stats;
	kernel_param_unlock(THIS_MODULE);
	return 0;
}

void pfd_probe_stats_exit(void)
{
	struct probe_stats __percpu *stats;

	kernel_param_lock(THIS_MODULE);
	stats = probe_stats;
	probe_stats = NULL;
	kernel_param_unlock(THIS_MODULE);
	free_percpu(stats);
}

u64 pfd_probe_stat_begin(void)
{
	return local_clock();
}

/* The probes run with preemption off: the whole call on one CPU. */
void pfd_probe_stat_end(enum pfd_probe_stat stat, u64 begin)
{
	u64 ns = local_clock() - begin;
	struct probe_stat *ps = &this_cpu_ptr(probe_stats)->stat[stat];

	ps->calls++;
	ps->ns += ns;
	ps->hist[min_t(u64, ns / BUCKET_NS, NR_BUCKETS - 1)]++;
}

/* Nanoseconds below which @permille of the calls took. */
static u64 stat_percentile(const u32 *hist, u64 calls, unsigned int permille)
{
	u64 want = div_u64(calls * permille, 1000), seen = 0;
	int i;

	for (i = 0; i < NR_BUCKETS; i++) {
		seen += hist[i];
		if (seen > want)
			break;
	}
	return (u64)i * BUCKET_NS + BUCKET_NS / 2;
}

static int probe_stats_get(char *buf, const struct kernel_param *kp)
{
	static u32 hist[NR_BUCKETS];
	int stat, cpu, len = 0;

	lockdep_assert_held(&THIS_MODULE->param_lock);
	if (!probe_stats)
		return -ENODEV;
	for (stat = 0; stat < PFD_NR_PROBE_STATS; stat++) {
		u64 calls = 0, ns = 0;
		int i;

		memset(hist, 0, sizeof(hist));
		for_each_possible_cpu(cpu) {
			const struct probe_stat *ps =
				&per_cpu_ptr(probe_stats, cpu)->stat[stat];

			calls += ps->calls;
			ns += ps->ns;
			for (i = 0; i < NR_BUCKETS; i++)
				hist[i] += ps->hist[i];
		}
		len += sysfs_emit_at(buf, len,
				     "%s calls=%llu mean_ns=%llu median_ns=%llu p90_ns=%llu\n",
				     stat_names[stat], calls,
				     calls ? div64_u64(ns, calls) : 0,
				     calls ? stat_percentile(hist, calls, 500) : 0,
				     calls ? stat_percentile(hist, calls, 900) : 0);
	}
	return len;
}

/*
 * Clears every figure (a probe running meanwhile may leave one call
 * counted), then takes the empty row's samples.
 */
static int probe_stats_set(const char *val, const struct kernel_param *kp)
{
	int cpu, i;

	lockdep_assert_held(&THIS_MODULE->param_lock);
	if (!sysfs_streq(val, "reset"))
		return -EINVAL;
	if (!probe_stats)
		return -ENODEV;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(probe_stats, cpu), 0,
		       sizeof(struct probe_stats));
	for (i = 0; i < EMPTY_SAMPLES; i++) {
		u64 t0;

		preempt_disable();
		t0 = pfd_probe_stat_begin();
		pfd_probe_stat_end(PFD_PROBE_EMPTY, t0);
		preempt_enable();
	}
	return 0;
}

static const struct kernel_param_ops probe_stats_ops = {
	.get = probe_stats_get,
	.set = probe_stats_set,
};
module_param_cb(probe_stats, &probe_stats_ops, NULL, 0600);
MODULE_PARM_DESC(probe_stats,
		 "bench build: time per call of the tracepoint probes; write reset to clear");
