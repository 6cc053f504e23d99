// SPDX-License-Identifier: GPL-2.0
/*
 * Differential suite: The permission matrix: senders with various credentials against targets with
 * various credentials, every delivery path, compared with kill(2), tgkill(2),
 * rt_sigqueueinfo(2), rt_tgsigqueueinfo(2) and the native
 * pidfd_send_signal(2); scope overrides; Landlock's signal scope (6.12+).
 *
 * Every target blocks every signal, so what is sent stays pending where it
 * was queued: SigPnd or ShdPnd in /proc/<pid>/task/<tid>/status say where
 * it arrived, and that it arrived nowhere else; the thread it was queued
 * for then takes it with rt_sigtimedwait(2) and reports the siginfo.
 *
 * The same cases against two backends: the kernel's own pidfd calls
 * (where the running kernel has them) and the module through libpidfd,
 * asserting the same return values, errno, signals received, poll events.
 * Each native feature is probed at run time; where the running kernel
 * lacks it the module is checked against the documented upstream outcome
 * and a line says the native comparison was skipped (never a silent
 * pass). Where the module differs on purpose (docs/differences.md) both
 * sides are asserted (lib/differential.c).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>
#include "differential.h"


/* ------------------------------------------------------------------ */
/* The cell runner: one sender, one target, every path                  */
/* ------------------------------------------------------------------ */

enum loc { L_SHARED, L_LEADER, L_WORKER };

struct cell {
	const char *sender_name, *target_name, *session;
	struct db_sender *s;	/* NULL: the test process itself sends */
	struct db_target *t;
	pid_t sender_pid;
	uid_t sender_uid;	/* sender's real uid in the init user ns */
	bool cred_ok;		/* kill_ok_by_cred() or CAP_KILL, the oracle */
	bool same_session;
	bool landlock_refused;
	int fd_nproc, fd_nthr, fd_mproc, fd_mthr;
	int checked, skipped_native;
};

static struct db_rep cell_do(struct cell *c, struct db_req *r)
{
	return c->s ? db_sender_do(c->s, r) : db_do(r);
}

static int cell_open(struct cell *c, enum db_backend b, pid_t pid,
		     unsigned int flags)
{
	struct db_req r = { .op = DB_OP_OPEN, .a = b, .b = pid, .c = (int)flags };
	struct db_rep rep = cell_do(c, &r);

	return rep.ret < 0 ? -rep.err : rep.ret;
}

static void cell_close(struct cell *c, int fd)
{
	struct db_req r = { .op = DB_OP_CLOSE, .a = fd };

	if (fd >= 0)
		cell_do(c, &r);
}

static void cell_setup(struct cell *c)
{
	c->fd_nproc = cell_open(c, DB_NATIVE, c->t->pid, 0);
	c->fd_mproc = cell_open(c, DB_MODULE, c->t->pid, 0);
	c->fd_mthr = cell_open(c, DB_MODULE, c->t->tid, PIDFD_THREAD);
	c->fd_nthr = diff_feat->thread ? cell_open(c, DB_NATIVE, c->t->tid, PIDFD_THREAD)
			       : -EINVAL;
	ck_assert_msg(c->fd_nproc >= 0 && c->fd_mproc >= 0 && c->fd_mthr >= 0 &&
		      (!diff_feat->thread || c->fd_nthr >= 0),
		      "%s -> %s: opening pidfds: native %d/%d module %d/%d",
		      c->sender_name, c->target_name, c->fd_nproc, c->fd_nthr,
		      c->fd_mproc, c->fd_mthr);
}

static void cell_teardown(struct cell *c)
{
	cell_close(c, c->fd_nproc);
	cell_close(c, c->fd_nthr);
	cell_close(c, c->fd_mproc);
	cell_close(c, c->fd_mthr);
}

static void pending3(struct db_target *t, uint64_t *lead, uint64_t *work,
		     uint64_t *shd)
{
	uint64_t dummy;

	ck_assert_msg(pt_thread_pending(t->pid, t->pid, lead, shd) == 0 &&
		      pt_thread_pending(t->pid, t->tid, work, &dummy) == 0,
		      "cannot read the pending signals of %d/%d", t->pid, t->tid);
}

enum path {
	P_KILL, P_TGKILL, P_KILLPG, P_SIGQUEUE, P_TGSIGQUEUE,
	P_N_PROC, P_N_THR, P_N_PGRP, P_N_PROC_INFO, P_N_THR_INFO, P_N_PGRP_INFO,
	P_M_PROC, P_M_THR, P_M_THR_FLAG, P_M_PGRP, P_M_PROC_INFO, P_M_THR_INFO,
	P_M_PGRP_INFO, P_N
};

static const struct path_desc {
	const char *name;
	bool native;		/* a native pidfd path */
	bool flags69;		/* needs PIDFD_THREAD / PIDFD_SIGNAL_* (6.9) */
	bool module;
	bool strict;		/* module path asking signal 0 (no SIGCONT exemption) */
	bool info;
	enum loc loc;
} paths[P_N] = {
	[P_KILL] = { "kill(pid)", 0, 0, 0, 0, 0, L_SHARED },
	[P_TGKILL] = { "tgkill(pid, tid)", 0, 0, 0, 0, 0, L_WORKER },
	[P_KILLPG] = { "kill(-pgrp)", 0, 0, 0, 0, 0, L_SHARED },
	[P_SIGQUEUE] = { "rt_sigqueueinfo", 0, 0, 0, 0, 1, L_SHARED },
	[P_TGSIGQUEUE] = { "rt_tgsigqueueinfo", 0, 0, 0, 0, 1, L_WORKER },
	[P_N_PROC] = { "native process", 1, 0, 0, 0, 0, L_SHARED },
	[P_N_THR] = { "native thread", 1, 1, 0, 0, 0, L_WORKER },
	[P_N_PGRP] = { "native pgrp", 1, 1, 0, 0, 0, L_SHARED },
	[P_N_PROC_INFO] = { "native process+siginfo", 1, 0, 0, 0, 1, L_SHARED },
	[P_N_THR_INFO] = { "native thread+siginfo", 1, 1, 0, 0, 1, L_WORKER },
	[P_N_PGRP_INFO] = { "native pgrp+siginfo", 1, 1, 0, 0, 1, L_SHARED },
	[P_M_PROC] = { "module process", 0, 0, 1, 0, 0, L_SHARED },
	[P_M_THR] = { "module thread", 0, 0, 1, 1, 0, L_WORKER },
	[P_M_THR_FLAG] = { "module PIDFD_SIGNAL_THREAD", 0, 0, 1, 1, 0, L_WORKER },
	[P_M_PGRP] = { "module pgrp", 0, 0, 1, 0, 0, L_SHARED },
	/* D_PROCESS_SIGINFO_QUEUE: the target thread, not the shared queue */
	[P_M_PROC_INFO] = { "module process+siginfo", 0, 0, 1, 1, 1, L_LEADER },
	[P_M_THR_INFO] = { "module thread+siginfo", 0, 0, 1, 1, 1, L_WORKER },
	[P_M_PGRP_INFO] = { "module pgrp+siginfo", 0, 0, 1, 1, 1, L_LEADER },
};

static struct db_req path_req(struct cell *c, enum path p, int sig)
{
	struct db_req r = { .sig = sig, .code = SI_QUEUE, .value = 777 };
	pid_t pid = c->t->pid, tid = c->t->tid;

	switch (p) {
	case P_KILL: r.op = DB_OP_KILL; r.b = pid; break;
	case P_TGKILL: r.op = DB_OP_TGKILL; r.b = pid; r.c = tid; break;
	case P_KILLPG: r.op = DB_OP_KILL; r.b = -pid; break;
	case P_SIGQUEUE: r.op = DB_OP_SIGQUEUE; r.b = pid; break;
	case P_TGSIGQUEUE: r.op = DB_OP_TGSIGQUEUE; r.b = pid; r.c = tid; break;
	default:
		r.op = DB_OP_PIDFD_SEND;
		r.a = paths[p].native ? DB_NATIVE : DB_MODULE;
		r.with_info = paths[p].info;
		switch (p) {
		case P_N_PROC: case P_N_PROC_INFO: r.b = c->fd_nproc; break;
		case P_N_THR: case P_N_THR_INFO: r.b = c->fd_nthr; break;
		case P_N_PGRP: case P_N_PGRP_INFO:
			r.b = c->fd_nproc;
			r.c = PIDFD_SIGNAL_PROCESS_GROUP;
			break;
		case P_M_PROC: case P_M_PROC_INFO: r.b = c->fd_mproc; break;
		case P_M_THR: case P_M_THR_INFO: r.b = c->fd_mthr; break;
		case P_M_THR_FLAG:
			r.b = c->fd_mthr;
			r.c = PIDFD_SIGNAL_THREAD;
			break;
		default:
			r.b = c->fd_mproc;
			r.c = PIDFD_SIGNAL_PROCESS_GROUP;
			break;
		}
	}
	return r;
}

/* What kill(2) decides, from the oracle (kernel/signal.c, §3.1). */
static int want_result(const struct cell *c, enum path p, int sig)
{
	/* Refused whoever asks (no exact group walk for a module); no
	 * SIGKILL here, which would be kill(2)'s. */
	if (p == P_M_PGRP_INFO)
		return EOPNOTSUPP;
	if (c->landlock_refused)
		return EPERM;
	if (c->cred_ok)
		return 0;
	if (sig == SIGCONT && c->same_session && !paths[p].strict)
		return 0;
	return EPERM;
}

/* Sends @sig on path @p and checks result, where it landed, its siginfo. */
static void cell_path(struct cell *c, enum path p, int sig, int *results)
{
	const struct path_desc *d = &paths[p];
	uint64_t lead, work, shd, bit = sig ? DB_BIT(sig) : 0;
	struct db_req req;
	struct db_rep rep;
	int want = want_result(c, p, sig), got, which;
	struct db_dequeued dq;
	bool ok_loc;

	if (d->native && d->flags69 && !diff_feat->signal_flags) {
		c->skipped_native++;
		results[p] = -1;
		return;
	}
	pending3(c->t, &lead, &work, &shd);
	ck_assert_msg(!((lead | work | shd) & bit), "%s -> %s: signal %d "
		      "pending before %s", c->sender_name, c->target_name, sig,
		      d->name);
	req = path_req(c, p, sig);
	rep = cell_do(c, &req);
	got = rep.ret < 0 ? rep.err : 0;
	results[p] = got;
	c->checked++;
	ck_assert_msg(got == want,
		      "%s -> %s (%s), sig %d, %s: got %s, want %s "
		      "[kill %s, tgkill %s, kill(-pgrp) %s, rt_sigqueueinfo %s]",
		      c->sender_name, c->target_name, c->session, sig, d->name,
		      pt_errname(got), pt_errname(want),
		      results[P_KILL] >= 0 ? pt_errname(results[P_KILL]) : "-",
		      results[P_TGKILL] >= 0 ? pt_errname(results[P_TGKILL]) : "-",
		      results[P_KILLPG] >= 0 ? pt_errname(results[P_KILLPG]) : "-",
		      results[P_SIGQUEUE] >= 0 ? pt_errname(results[P_SIGQUEUE]) : "-");
	pending3(c->t, &lead, &work, &shd);
	if (!sig || got) {
		ck_assert_msg(!((lead | work | shd) & bit),
			      "%s -> %s, %s refused but signal %d pending",
			      c->sender_name, c->target_name, d->name, sig);
		return;
	}
	switch (d->loc) {
	case L_SHARED:
		ok_loc = (shd & bit) && !(lead & bit) && !(work & bit);
		which = 0;
		break;
	case L_LEADER:
		ok_loc = (lead & bit) && !(shd & bit) && !(work & bit);
		which = 0;
		break;
	default:
		ok_loc = (work & bit) && !(shd & bit) && !(lead & bit);
		which = 1;
		break;
	}
	ck_assert_msg(ok_loc, "%s -> %s, sig %d, %s: leader %llx worker %llx "
		      "shared %llx, want it on the %s", c->sender_name,
		      c->target_name, sig, d->name, (unsigned long long)lead,
		      (unsigned long long)work, (unsigned long long)shd,
		      d->loc == L_SHARED ? "shared queue" :
		      d->loc == L_LEADER ? "leader" : "worker thread");
	ck_assert_int_eq(db_target_dequeue(c->t, which, sig, &dq), 0);
	ck_assert_msg(dq.ret == sig && dq.signo == sig &&
		      dq.tid == (which ? c->t->tid : c->t->pid),
		      "%s: dequeue %d/%s signo %d by %d", d->name, dq.ret,
		      pt_errname(dq.err), dq.signo, dq.tid);
	{
		int code = d->info ? SI_QUEUE :
			   d->loc == L_WORKER ? SI_TKILL : SI_USER;

		ck_assert_msg(dq.code == code && dq.pid == c->sender_pid &&
			      dq.uid == (int)c->sender_uid &&
			      (!d->info || dq.value == 777),
			      "%s -> %s, sig %d, %s: si_code %d pid %d uid %d "
			      "value %d; want %d %d %u%s", c->sender_name,
			      c->target_name, sig, d->name, dq.code, dq.pid,
			      dq.uid, dq.value, code, c->sender_pid,
			      c->sender_uid, d->info ? " 777" : "");
	}
	pending3(c->t, &lead, &work, &shd);
	ck_assert_msg(!((lead | work | shd) & bit), "%s: signal %d still "
		      "pending after dequeue (sent twice?)", d->name, sig);
}

static void run_cell(struct cell *c, const int *sigs, size_t nsigs)
{
	int results[P_N];

	cell_setup(c);
	for (size_t i = 0; i < nsigs; i++) {
		for (int p = 0; p < P_N; p++)
			results[p] = -1;
		for (int p = 0; p < P_N; p++)
			cell_path(c, (enum path)p, sigs[i], results);
		/* The native pidfd paths agree with the classic syscalls. */
		if (results[P_N_PROC] >= 0)
			ck_assert_int_eq(results[P_N_PROC], results[P_KILL]);
		if (results[P_N_PROC_INFO] >= 0)
			ck_assert_int_eq(results[P_N_PROC_INFO], results[P_SIGQUEUE]);
		if (results[P_N_THR] >= 0)
			ck_assert_int_eq(results[P_N_THR], results[P_TGKILL]);
		if (results[P_N_THR_INFO] >= 0)
			ck_assert_int_eq(results[P_N_THR_INFO], results[P_TGSIGQUEUE]);
		if (results[P_N_PGRP] >= 0)
			ck_assert_int_eq(results[P_N_PGRP], results[P_KILLPG]);
		/* The module's exact paths are kill(2)'s. */
		ck_assert_int_eq(results[P_M_PROC], results[P_KILL]);
		ck_assert_int_eq(results[P_M_PGRP], results[P_KILLPG]);
		if (sigs[i] == SIGCONT && c->same_session && !c->cred_ok &&
		    !c->landlock_refused) {
			ck_assert_int_eq(results[P_KILL], 0);
			ck_assert_int_eq(results[P_TGKILL], 0);
			ck_assert_int_eq(results[P_SIGQUEUE], 0);
			ck_assert_int_eq(results[P_M_THR], EPERM);
			ck_assert_int_eq(results[P_M_PROC_INFO], EPERM);
			ck_assert_int_eq(results[P_M_PGRP_INFO], EOPNOTSUPP);
			diff_asserted(D_SIGCONT_SESSION, "%s -> %s: kill/tgkill/"
				      "rt_sigqueueinfo 0, module thread/siginfo "
				      "paths EPERM, module process/pgrp 0",
				      c->sender_name, c->target_name);
		} else {
			/* Otherwise every module path is kill(2)'s verdict. */
			ck_assert_int_eq(results[P_M_THR], results[P_TGKILL]);
			ck_assert_int_eq(results[P_M_THR_INFO], results[P_TGSIGQUEUE]);
			ck_assert_int_eq(results[P_M_PROC_INFO], results[P_SIGQUEUE]);
		}
	}
	cell_teardown(c);
}

/* ------------------------------------------------------------------ */
/* The permission matrix                                                */
/* ------------------------------------------------------------------ */

static const struct db_creds senders[] = {
	{ .name = "root", .ruid = 0, .euid = 0, .suid = 0, .gid = 0 },
	{ .name = "uid 1000", .ruid = 1000, .euid = 1000, .suid = 1000, .gid = 1000 },
	{ .name = "uid 2000", .ruid = 2000, .euid = 2000, .suid = 2000, .gid = 2000 },
	{ .name = "ruid 1000 euid 2000", .ruid = 1000, .euid = 2000, .suid = 2000,
	  .gid = 2000 },
	{ .name = "uid 2000 + CAP_KILL only", .ruid = 2000, .euid = 2000,
	  .suid = 2000, .gid = 2000, .cap_kill_only = true },
	{ .name = "uid 1000 as root of a child user ns", .ruid = 1000,
	  .euid = 1000, .suid = 1000, .gid = 1000, .userns = true },
	{ .name = "uid 2000 as root of a child user ns", .ruid = 2000,
	  .euid = 2000, .suid = 2000, .gid = 2000, .userns = true },
};

#define NSENDERS (sizeof(senders) / sizeof(senders[0]))

static const struct db_creds targets[] = {
	{ .name = "root target", .ruid = 0, .euid = 0, .suid = 0, .gid = 0 },
	{ .name = "uid 1000 target", .ruid = 1000, .euid = 1000, .suid = 1000,
	  .gid = 1000 },
	{ .name = "uid 3000 target", .ruid = 3000, .euid = 3000, .suid = 3000,
	  .gid = 3000 },
	{ .name = "uid 3000 saved uid 1000", .ruid = 3000, .euid = 3000,
	  .suid = 1000, .gid = 3000 },
	{ .name = "uid 3000 euid 1000", .ruid = 3000, .euid = 1000,
	  .suid = 3000, .gid = 3000 },
};

#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

/* kill_ok_by_cred() (kernel/signal.c), or CAP_KILL in the init user ns. */
static bool oracle_cred_ok(const struct db_creds *s, const struct db_creds *t)
{
	bool root = s->euid == 0 && !s->userns;

	if (root || s->cap_kill_only)
		return true;
	return s->euid == t->suid || s->euid == t->ruid ||
	       s->ruid == t->suid || s->ruid == t->ruid;
}

/* Loop test over the senders: every target, both session cases. */
START_TEST(test_matrix)
{
	const struct db_creds *sc = &senders[_i];
	static const int sigs[] = { 0, SIGUSR1, SIGCONT };
	struct db_sender s;
	char why[256] = "";
	int checked = 0, skipped = 0;
	int64_t t0 = pt_now_ms();

	ck_assert_msg(db_sender_start(&s, sc->ruid || sc->euid ||
				      sc->cap_kill_only || sc->userns ? sc : NULL,
				      why, sizeof(why)) == 0, "%s", why);
	for (size_t ti = 0; ti < NTARGETS; ti++) {
		for (int across = 0; across < 2; across++) {
			struct db_target t;
			struct cell c = {
				.sender_name = sc->name,
				.target_name = targets[ti].name,
				.session = across ? "across sessions" :
						    "same session",
				.s = &s,
				.t = &t,
				.sender_pid = s.pid,
				.sender_uid = sc->ruid,
				.cred_ok = oracle_cred_ok(sc, &targets[ti]),
				.same_session = !across,
			};

			start_target(&t, &targets[ti], across);
			/* Across sessions only SIGCONT can differ. */
			if (across)
				run_cell(&c, sigs + 2, 1);
			else
				run_cell(&c, sigs, sizeof(sigs) / sizeof(sigs[0]));
			checked += c.checked;
			skipped += c.skipped_native;
			db_target_stop(&t, true);
		}
	}
	db_sender_stop(&s);
	printf("[differential] matrix, sender %s: %d sends checked in %lld ms\n",
	       sc->name, checked, (long long)(pt_now_ms() - t0));
	if (skipped)
		db_native_skipped("permission matrix, native thread and "
				  "process-group scope paths (module compared "
				  "with tgkill/rt_tgsigqueueinfo/kill(-pgrp))",
				  "PIDFD_THREAD, PIDFD_SIGNAL_*",
				  pt_kernel_has_signal_scope());
	fflush(stdout);
}
END_TEST

/*
 * Sends @sig with scope @flag through @fd of backend @b and asserts that
 * it is pending only on the leader thread (@which 0) or only on the
 * process (@which 1), then dequeues it from there into @dq, sent by us.
 */
static void assert_override(struct db_target *t, int b, int fd, int sig,
			    unsigned int flag, int which,
			    struct db_dequeued *dq)
{
	uint64_t lead, work, shd, want, other;

	ck_assert_int_eq(CALL(db_send(b, fd, sig, NULL, flag)), 0);
	pending3(t, &lead, &work, &shd);
	want = which ? shd : lead;
	other = work | (which ? lead : shd);
	ck_assert_msg((want & DB_BIT(sig)) && !(other & DB_BIT(sig)),
		      "%s %s override: %llx %llx %llx", db_backend_name(b),
		      which ? "THREAD_GROUP" : "THREAD",
		      (unsigned long long)lead, (unsigned long long)work,
		      (unsigned long long)shd);
	ck_assert_int_eq(db_target_dequeue(t, which, sig, dq), 0);
	ck_assert_int_eq(dq->pid, getpid());
}

/*
 * The scope flags (6.9) override the pidfd's default: PIDFD_SIGNAL_THREAD
 * on a process pidfd reaches the leader thread, PIDFD_SIGNAL_THREAD_GROUP
 * on a thread pidfd the process; PIDFD_SIGNAL_PROCESS_GROUP on a thread
 * that leads no group is ESRCH.
 */
START_TEST(test_scope_overrides)
{
	struct db_target t;
	struct pair pp, pt;
	int sig = SIGRTMIN + 3;

	start_target(&t, &targets[0], false);
	pp = open_pair(t.pid, 0);
	pt = open_pair(t.tid, PIDFD_THREAD);
	ck_assert(pp.fd[1] >= 0 && pt.fd[1] >= 0);

	/* PIDFD_SIGNAL_THREAD on a process pidfd: the leader thread;
	 * PIDFD_SIGNAL_THREAD_GROUP on a thread pidfd: the process. */
	for (int b = 0; b < 2; b++) {
		struct db_dequeued dq;

		if (b == DB_NATIVE && (!diff_feat->signal_flags || !diff_feat->thread)) {
			db_native_skipped("scope overrides", "PIDFD_THREAD, "
					  "PIDFD_SIGNAL_*",
					  pt_kernel_has_signal_scope());
			continue;
		}
		assert_override(&t, b, pp.fd[b], sig, PIDFD_SIGNAL_THREAD, 0,
				&dq);
		ck_assert_int_eq(dq.code, SI_TKILL);

		assert_override(&t, b, pt.fd[b], sig,
				PIDFD_SIGNAL_THREAD_GROUP, 1, &dq);
		ck_assert_int_eq(dq.code, SI_USER);
		ck_assert_int_eq(dq.uid, 0);

		/* Process group of a non-leader? The thread's tid leads no
		 * group: ESRCH on both. */
		ck_assert_int_eq(CALL(db_send(b, pt.fd[b], 0, NULL,
					      PIDFD_SIGNAL_PROCESS_GROUP)), ESRCH);
	}
	close_pair(&pp);
	close_pair(&pt);
	db_target_stop(&t, true);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Landlock signal scope (6.12+)                                        */
/* ------------------------------------------------------------------ */

START_TEST(test_landlock)
{
	static const int sigs[] = { 0, SIGUSR1, SIGCONT };
	struct db_target out, in;
	struct db_sender s;
	struct db_req r;
	struct db_rep rep;
	char why[256] = "";

	/* LANDLOCK_SCOPE_SIGNAL: Landlock ABI 6 (6.12). */
	PT_SKIP_UNLESS(diff_feat->landlock_abi >= 6, pt_landlock_abi() >= 6,
		       "LANDLOCK_SCOPE_SIGNAL (Landlock ABI 6)");
	start_target(&out, &targets[0], false);
	ck_assert_int_eq(db_target_prepare(&in), 0);
	db_spawnable[0] = &in;
	db_spawn_opts[0] = (struct db_target_opts){ .creds = NULL };
	ck_assert_msg(db_sender_start(&s, NULL, why, sizeof(why)) == 0, "%s", why);

	r = (struct db_req){ .op = DB_OP_LANDLOCK };
	rep = db_sender_do(&s, &r);
	ck_assert_msg(rep.ret == 0, "landlock_restrict_self: %s", pt_errname(rep.err));
	/* A child created after restrict_self is inside the domain. */
	r = (struct db_req){ .op = DB_OP_SPAWN, .a = 0 };
	rep = db_sender_do(&s, &r);
	ck_assert_msg(rep.ret > 0, "spawn: %s", pt_errname(rep.err));
	ck_assert_int_eq(db_target_hello(&in, WAIT_MS), 0);

	for (int inside = 0; inside < 2; inside++) {
		struct cell c = {
			.sender_name = "root under LANDLOCK_SCOPE_SIGNAL",
			.target_name = inside ? "its own child (inside the domain)" :
						"root process outside the domain",
			.session = "same session",
			.s = &s,
			.t = inside ? &in : &out,
			.sender_pid = s.pid,
			.sender_uid = 0,
			.cred_ok = true,
			.same_session = true,
			.landlock_refused = !inside,
		};

		run_cell(&c, sigs, sizeof(sigs) / sizeof(sigs[0]));
		if (c.skipped_native)
			db_native_skipped("Landlock, native thread/pgrp paths",
					  "PIDFD_SIGNAL_*",
					  pt_kernel_has_signal_scope());
		printf("[differential] Landlock scope, %s: %d sends checked, "
		       "every path %s\n", c.target_name, c.checked,
		       inside ? "allowed" : "refused (EPERM) as kill(2)");
	}
	fflush(stdout);
	kill(in.pid, SIGKILL);
	r = (struct db_req){ .op = DB_OP_REAP, .b = in.pid };
	rep = db_sender_do(&s, &r);
	ck_assert_msg(rep.ret >= 0 && WIFSIGNALED(rep.ret) &&
		      WTERMSIG(rep.ret) == SIGKILL, "reaping the inside target: "
		      "%d/%s", rep.ret, pt_errname(rep.err));
	db_target_stop(&in, false);
	db_sender_stop(&s);
	db_target_stop(&out, true);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("differential_matrix");
	TCase *tc;

	tc = diff_tcase(s, "matrix");
	tcase_add_loop_test(tc, test_matrix, 0, (int)NSENDERS);
	tcase_add_test(tc, test_landlock);

	tc = diff_tcase(s, "scope");
	tcase_add_test(tc, test_scope_overrides);
	return s;
}

int main(void)
{
	return diff_main(suite());
}
