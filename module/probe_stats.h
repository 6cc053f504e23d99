/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long the tracepoint probes take, for bench_pidfd: every task's exit
 * passes through them, whether a pidfd names it or not. Only a bench build
 * (make PIDFD_PROBE_STATS=y, vm/build-module --probe-stats) keeps the
 * figures; in every other build these are empty and the probes are what
 * they would be without them.
 */
#ifndef PFD_PROBE_STATS_H
#define PFD_PROBE_STATS_H

#include <linux/types.h>

enum pfd_probe_stat {
	PFD_PROBE_EXIT,		/* sched_process_exit */
	PFD_PROBE_FREE,		/* sched_process_free */
	PFD_PROBE_SIGNAL,	/* signal_deliver */
	PFD_PROBE_EMPTY,	/* nothing between the two clock reads */
	PFD_NR_PROBE_STATS,
};

/* The figures outlive the probes: init before them, exit after. */
#ifdef PIDFD_PROBE_STATS
int pfd_probe_stats_init(void);
void pfd_probe_stats_exit(void);
u64 pfd_probe_stat_begin(void);
void pfd_probe_stat_end(enum pfd_probe_stat stat, u64 begin);
#else
static inline int pfd_probe_stats_init(void)
{
	return 0;
}

static inline void pfd_probe_stats_exit(void)
{
}

static inline u64 pfd_probe_stat_begin(void)
{
	return 0;
}

static inline void pfd_probe_stat_end(enum pfd_probe_stat stat,
				      u64 begin)
{
}
#endif

#endif /* PFD_PROBE_STATS_H */
