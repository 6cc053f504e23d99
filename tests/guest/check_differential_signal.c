// SPDX-License-Identifier: GPL-2.0
/*
 * Differential suite: Signal errors, the file types, the signal policy,
 * the siginfo classes and a child pid namespace.
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
#include "../../lib/pt_policy.h"


/* ------------------------------------------------------------------ */
/* Signal errors and the siginfo classes                                */
/* ------------------------------------------------------------------ */

/* pidfd_send_signal (5.1) argument errors, zombie, reaped, foreign ns. */
START_TEST(test_signal_errors)
{
	pid_t child = pt_fork_sleeper();
	pid_t zombie = pt_fork_exit(0);
	pid_t reaped = pt_fork_exit(0);
	struct pair pc = open_pair(child, 0);
	struct pair pz, pr;
	siginfo_t si;
	struct {
		const char *what;
		int sig;
		unsigned int flags;
		int info_signo;		/* 0: no info */
		int code;
		int err;
	} cases[] = {
		{ "unknown flag 8", 0, 8, 0, 0, EINVAL },
		{ "flag 1<<31", 0, 1U << 31, 0, 0, EINVAL },
		{ "two scope flags", 0, PIDFD_SIGNAL_THREAD |
		  PIDFD_SIGNAL_THREAD_GROUP, 0, 0, EINVAL },
		{ "three scope flags", 0, 7, 0, 0, EINVAL },
		{ "signal 65", 65, 0, 0, 0, EINVAL },
		{ "signal -1", -1, 0, 0, 0, EINVAL },
		{ "si_signo != sig", SIGUSR1, 0, SIGUSR2, SI_QUEUE, EINVAL },
		{ "SI_USER to another", SIGUSR1, 0, SIGUSR1, SI_USER, EPERM },
		{ "SI_KERNEL to another", SIGUSR1, 0, SIGUSR1, SI_KERNEL, EPERM },
		{ "si_code 1 to another", SIGUSR1, 0, SIGUSR1, 1, EPERM },
		{ "SI_TKILL to another", SIGUSR1, 0, SIGUSR1, SI_TKILL, EPERM },
		{ "signal 0 probe", 0, 0, 0, 0, 0 },
		{ "signal 0 with SI_QUEUE info", 0, 0, -100, SI_QUEUE, 0 },
	};

	ck_assert(pc.fd[0] >= 0 && pc.fd[1] >= 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r[2];

		if (cases[i].info_signo)
			pt_siginfo(&si, cases[i].info_signo == -100 ? 0 :
				     cases[i].info_signo, cases[i].code, 5);
		for (int b = 0; b < 2; b++)
			r[b] = CALL(db_send(b, pc.fd[b], cases[i].sig,
					    cases[i].info_signo ? &si : NULL,
					    cases[i].flags));
		ck_assert_msg(r[0] == cases[i].err && r[1] == cases[i].err,
			      "%s: native %s module %s want %s", cases[i].what,
			      pt_errname(r[0]), pt_errname(r[1]), pt_errname(cases[i].err));
	}
	/* PIDFD_SIGNAL_THREAD_GROUP alone: 6.9. */
	{
		int rn = CALL(db_send(DB_NATIVE, pc.fd[0], 0, NULL,
				      PIDFD_SIGNAL_THREAD_GROUP));
		int rm = CALL(db_send(DB_MODULE, pc.fd[1], 0, NULL,
				      PIDFD_SIGNAL_THREAD_GROUP));

		ck_assert_msg(rm == 0, "module THREAD_GROUP probe: %s", pt_errname(rm));
		if (diff_feat->signal_flags) {
			ck_assert_msg(rn == 0, "native: %s", pt_errname(rn));
		} else {
			ck_assert_msg(rn == EINVAL, "native flags before 6.9: %s",
				      pt_errname(rn));
			db_native_skipped("signal scope flags", "PIDFD_SIGNAL_*",
					  pt_kernel_has_signal_scope());
		}
	}

	/* A zombie: 0 and nothing happens; reaped: ESRCH (both). */
	ck_assert_int_eq(pt_wait_zombie(zombie), 0);
	pz = open_pair(zombie, 0);
	pr = open_pair(reaped, 0);
	ck_assert(pz.fd[0] >= 0 && pz.fd[1] >= 0 && pr.fd[0] >= 0 &&
		  pr.fd[1] >= 0);
	pt_reap(reaped);
	for (int b = 0; b < 2; b++) {
		ck_assert_int_eq(CALL(db_send(b, pz.fd[b], SIGKILL, NULL, 0)), 0);
		ck_assert_int_eq(CALL(db_send(b, pz.fd[b], 0, NULL, 0)), 0);
		ck_assert_int_eq(CALL(db_send(b, pr.fd[b], 0, NULL, 0)), ESRCH);
		ck_assert_int_eq(CALL(db_send(b, pr.fd[b], SIGUSR1, NULL, 0)),
				 ESRCH);
		pt_siginfo(&si, SIGUSR1, SI_QUEUE, 1);
		ck_assert_int_eq(CALL(db_send(b, pr.fd[b], SIGUSR1, &si, 0)),
				 ESRCH);
	}
	pt_reap(zombie);
	close_pair(&pz);
	close_pair(&pr);

	/*
	 * From a child pid namespace towards its ancestor's process: EINVAL
	 * on both (access_pidfd_pidns). The grandchild inherits the fds.
	 */
	{
		pid_t mid = pt_fork();

		if (mid == 0) {
			pid_t inner;
			int st;

			if (unshare(CLONE_NEWPID))
				_exit(10);
			inner = fork();
			if (inner == 0) {
				int rn = CALL(db_send(DB_NATIVE, pc.fd[0], 0,
						      NULL, 0));
				int rm = CALL(db_send(DB_MODULE, pc.fd[1], 0,
						      NULL, 0));

				_exit(rn == EINVAL && rm == EINVAL ? 0 :
				      20 + (rn == EINVAL) + 2 * (rm == EINVAL));
			}
			if (inner < 0 || waitpid(inner, &st, 0) != inner)
				_exit(11);
			_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 12);
		}
		int st = pt_reap_status(mid);

		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "foreign pid ns: status %#x (21: module wrong, "
			      "22: native wrong)", st);
	}
	close_pair(&pc);
	pt_kill_reap(child);
}
END_TEST

/* The module's pidfds are not the kernel's (and vice versa). */
START_TEST(test_file_type)
{
	pid_t child = pt_fork_sleeper();
	struct pair p = open_pair(child, 0);
	siginfo_t si;

	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	ck_assert_int_eq(CALL(db_sys_pidfd_send_signal(p.fd[1], 0, NULL, 0)),
			 EBADF);
	memset(&si, 0, sizeof(si));
	ck_assert_int_eq(CALL(db_sys_waitid_pidfd(p.fd[1], &si,
						  WEXITED | WNOHANG)), EBADF);
	ck_assert_int_eq(CALL(syscall(SYS_pidfd_getfd, p.fd[1], 0, 0)), EBADF);
	ck_assert_int_eq(CALL(setns(p.fd[1], CLONE_NEWUTS)), EINVAL);
	/*
	 * The native pidfd works with the syscall, the module's ioctl not
	 * (libpidfd would convert it: the raw ioctl here).
	 */
	ck_assert_int_eq(CALL(db_sys_pidfd_send_signal(p.fd[0], 0, NULL, 0)), 0);
	ck_assert_int_eq(CALL(ioctl(p.fd[0], PIDFD_DEV_SEND_SIGNAL,
				    &(struct pidfd_signal_args){ 0 })),
			 native_unknown_ioctl_errno());
	diff_asserted(D_FILE_TYPE, "pidfd_send_signal/waitid/pidfd_getfd "
		      "EBADF, setns EINVAL; module ioctl on a kernel pidfd "
		      "%s", pt_errname(native_unknown_ioctl_errno()));
	close_pair(&p);
	pt_kill_reap(child);
}
END_TEST

/*
 * The module's signal policy (security.md "The signal policy",
 * differences.md "Signals" 1) beside the kernel's own call, towards a
 * target whose two threads block every signal, so that what is sent
 * stays pending where it was queued. kill(2)'s paths (process and
 * process-group scope without a siginfo, SIGKILL at any scope with or
 * without one) deliver under every policy, and signal 0 answers on every
 * path. The approximate ones (thread scope, a caller's siginfo) deliver
 * as the kernel's call does where nothing that may tell signals apart
 * stands in the way (5.10, whose AppArmor does not mediate unconfined
 * processes; any kernel with the LSMs trusted), and are refused
 * otherwise, through libpidfd and the raw ioctl alike: EACCES, nothing
 * pending on either thread, and a log line for each.
 */
START_TEST(test_signal_policy)
{
	enum { LEADER, WORKER };
	static const struct {
		const char *what;
		int fd;			/* LEADER: process pidfd; WORKER: thread pidfd */
		unsigned int flags;
		bool info;
		bool approx;		/* the module's approximate path */
		bool thread;		/* thread-directed */
		int receiver;		/* the thread, or LEADER */
		int code;
	} paths[] = {
		{ "process scope", LEADER, 0, false, false, false, LEADER,
		  SI_USER },
		{ "process-group scope", LEADER, PIDFD_SIGNAL_PROCESS_GROUP,
		  false, false, false, LEADER, SI_USER },
		{ "thread pidfd, thread-group scope", WORKER,
		  PIDFD_SIGNAL_THREAD_GROUP, false, false, false, LEADER, SI_USER },
		{ "process scope with a siginfo", LEADER, 0, true, true, false,
		  LEADER, SI_QUEUE },
		{ "thread pidfd", WORKER, 0, false, true, true, WORKER, SI_TKILL },
		{ "PIDFD_SIGNAL_THREAD", LEADER, PIDFD_SIGNAL_THREAD, false, true,
		  true, LEADER, SI_TKILL },
		{ "thread pidfd with a siginfo", WORKER, 0, true, true, true,
		  WORKER, SI_QUEUE },
	};
	enum { H_NATIVE, H_LIBPIDFD, H_IOCTL, H_N };
	static const char *const how[H_N] = {
		"native", "module (libpidfd)", "module (ioctl)",
	};
	static const struct db_creds root = { .name = "root" };
	bool refuses = pt_policy_refuses_approx();
	int sig = SIGUSR1, status, refused = 0;
	struct pair pp, pt;
	struct db_target t;
	siginfo_t si;

	start_target(&t, &root, false);
	pp = open_pair(t.pid, 0);
	pt = open_pair(t.tid, PIDFD_THREAD);
	ck_assert(pp.fd[0] >= 0 && pp.fd[1] >= 0 && pt.fd[1] >= 0);
	ck_assert_msg(diff_feat->thread == (pt.fd[0] >= 0),
		      "native PIDFD_THREAD: %s", pt_errname(pt.err[0]));
	if (refuses)
		pt_policy_log_ready(8);	/* two ways for each approximate path */

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const struct pair *fds = paths[i].fd == LEADER ? &pp : &pt;
		pid_t judged = paths[i].fd == LEADER ? t.pid : t.tid;
		pid_t receiver = paths[i].receiver == LEADER ? t.pid : t.tid;

		for (int h = 0; h < H_N; h++) {
			int fd = fds->fd[h == H_NATIVE ? DB_NATIVE : DB_MODULE];
			bool refuse = refuses && paths[i].approx && h != H_NATIVE;
			/*
			 * On the receiving thread's own queue, or the shared
			 * one; the module queues a process-directed siginfo
			 * on a thread (D_PROCESS_SIGINFO_QUEUE).
			 */
			bool own = paths[i].thread ||
				   (paths[i].info && h != H_NATIVE);
			struct db_dequeued d;
			uint64_t sp[2], sh;
			int r;

			/* The kernel's thread pidfds and scopes: 6.9. */
			if (h == H_NATIVE && (fd < 0 || (paths[i].flags &&
						!diff_feat->signal_flags)))
				continue;
			for (int probe = 1; probe >= 0; probe--) {
				int s = probe ? 0 : sig;

				pt_siginfo(&si, s, SI_QUEUE, 100 + (int)i);
				r = CALL(h == H_IOCTL ?
					 pt_send_signal(fd, s, paths[i].info ? &si : NULL,
							paths[i].flags) :
					 db_send(h == H_NATIVE ? DB_NATIVE : DB_MODULE,
						 fd, s, paths[i].info ? &si : NULL,
						 paths[i].flags));
				ck_assert_msg(r == (refuse && !probe ? EACCES : 0),
					      "%s, %s, signal %d: %s (%s)",
					      paths[i].what, how[h], s, pt_errname(r),
					      pt_policy_describe());
			}
			for (int k = LEADER; k <= WORKER; k++)
				ck_assert_int_eq(pt_thread_pending(t.pid,
					k == WORKER ? t.tid : t.pid, &sp[k], &sh), 0);
			if (refuse) {
				ck_assert_msg(!((sp[LEADER] | sp[WORKER] | sh) &
						DB_BIT(sig)),
					      "%s, %s: pending though refused",
					      paths[i].what, how[h]);
				ck_assert_msg(pt_policy_refusal_logged(sig, pt_gettid(),
								       judged),
					      "%s, %s: no log line for the refusal",
					      paths[i].what, how[h]);
				refused++;
				continue;
			}
			ck_assert_msg(own ? (sp[paths[i].receiver] & DB_BIT(sig)) &&
					    !(sp[!paths[i].receiver] & DB_BIT(sig)) &&
					    !(sh & DB_BIT(sig))
					  : (sh & DB_BIT(sig)) &&
					    !((sp[LEADER] | sp[WORKER]) & DB_BIT(sig)),
				      "%s, %s: SigPnd %llx/%llx ShdPnd %llx",
				      paths[i].what, how[h],
				      (unsigned long long)sp[LEADER],
				      (unsigned long long)sp[WORKER],
				      (unsigned long long)sh);
			ck_assert_int_eq(db_target_dequeue(&t, paths[i].receiver,
							   sig, &d), 0);
			ck_assert_msg(d.ret == sig && d.code == paths[i].code &&
				      (!paths[i].info || d.value == 100 + (int)i),
				      "%s, %s: %d dequeued by %d: code %d value %d "
				      "(want code %d)", paths[i].what, how[h],
				      d.ret, receiver, d.code, d.value,
				      paths[i].code);
			/* Once: nothing left. */
			for (int k = LEADER; k <= WORKER; k++) {
				ck_assert_int_eq(pt_thread_pending(t.pid,
					k == WORKER ? t.tid : t.pid, &sp[k], &sh), 0);
				ck_assert_msg(!((sp[k] | sh) & DB_BIT(sig)),
					      "%s, %s: pending twice",
					      paths[i].what, how[h]);
			}
		}
	}
	if (!diff_feat->signal_flags)
		db_native_skipped("the signal policy's thread paths",
				  "PIDFD_THREAD, PIDFD_SIGNAL_*",
				  pt_kernel_has_signal_scope());
	if (refuses)
		diff_asserted(D_SIGNAL_POLICY, "%d module sends refused, the "
			      "kernel's delivered; kill(2)'s paths delivered by "
			      "both (%s)", refused, pt_policy_describe());

	/* SIGKILL with a siginfo at thread scope: kill(2)'s, any policy. */
	pt_siginfo(&si, SIGKILL, SI_QUEUE, 1);
	ck_assert_int_eq(CALL(pt_send_signal(pt.fd[DB_MODULE], SIGKILL, &si, 0)), 0);
	ck_assert_int_eq(waitpid(t.pid, &status, 0), t.pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "status %#x", status);
	t.started = false;	/* reaped: nothing left to kill */
	db_target_stop(&t, false);
	close_pair(&pp);
	close_pair(&pt);
}
END_TEST

static const struct {
	const char *name;
	int code;
} si_codes[] = {
	{ "SI_USER", SI_USER },
	{ "SI_KERNEL", SI_KERNEL },
	{ "positive (1)", 1 },
	{ "SI_QUEUE", SI_QUEUE },
	{ "SI_TIMER", SI_TIMER },
	{ "SI_MESGQ", SI_MESGQ },
	{ "SI_ASYNCIO", SI_ASYNCIO },
	{ "SI_SIGIO", SI_SIGIO },
	{ "SI_TKILL", SI_TKILL },
	{ "SI_DETHREAD", -7 },
	{ "SI_ASYNCNL", SI_ASYNCNL },
};

#define NCODES (sizeof(si_codes) / sizeof(si_codes[0]))

static bool forged(int code)
{
	return code >= 0 || code == SI_TKILL;
}

struct other_thread_sends {
	int fd[2];		/* process pidfds of our own process */
	int sig;
	int r_rt, r_n, r_m;	/* SI_USER from a non-main thread */
	int q_rt, q_n, q_m;	/* SI_QUEUE from a non-main thread */
};

static void *send_from_other_thread(void *arg)
{
	struct other_thread_sends *o = arg;
	siginfo_t si;

	pt_siginfo(&si, o->sig, SI_USER, 1);
	o->r_rt = CALL(db_sigqueueinfo(getpid(), o->sig, &si));
	o->r_n = CALL(db_send(DB_NATIVE, o->fd[0], o->sig, &si, 0));
	o->r_m = CALL(db_send(DB_MODULE, o->fd[1], o->sig, &si, 0));
	pt_siginfo(&si, o->sig, SI_QUEUE, 2);
	o->q_rt = CALL(db_sigqueueinfo(getpid(), o->sig, &si));
	o->q_n = CALL(db_send(DB_NATIVE, o->fd[0], o->sig, &si, 0));
	o->q_m = CALL(db_send(DB_MODULE, o->fd[1], o->sig, &si, 0));
	return NULL;
}

/*
 * Every si_code class towards the caller itself (process and thread
 * scope: allowed, delivered as given; process-group scope: forged codes
 * EPERM), compared with rt_sigqueueinfo/rt_tgsigqueueinfo and the native
 * pidfd_send_signal (5.1; scopes 6.9).
 */
START_TEST(test_si_codes_self)
{
	int sig = SIGRTMIN + 2;
	pid_t me = getpid();
	struct pair pp = open_pair(me, 0), pt = open_pair(me, PIDFD_THREAD);
	/* The module's siginfo paths, to oneself too (differences.md 1). */
	bool refuses = pt_policy_refuses_approx();
	bool log_checked = false;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, &set, NULL), 0);
	ck_assert(pp.fd[0] >= 0 && pp.fd[1] >= 0 && pt.fd[1] >= 0);
	/* The Check child leads its process group; that group is just us. */
	ck_assert_int_eq(getpgrp(), me);
	if (refuses)
		pt_policy_log_ready(1);

	for (size_t i = 0; i < NCODES; i++) {
		int code = si_codes[i].code;
		enum { V_RT, V_RTTG, V_NPROC, V_NTHR, V_NPGRP, V_MPROC, V_MTHR,
		       V_MPGRP, V_N } v;
		static const char *const vname[] = {
			"rt_sigqueueinfo", "rt_tgsigqueueinfo", "native process",
			"native thread", "native pgrp", "module process",
			"module thread", "module pgrp",
		};

		for (v = 0; v < V_N; v++) {
			bool pgrp = v == V_NPGRP || v == V_MPGRP;
			bool native_flags = v == V_NTHR || v == V_NPGRP;
			/* The group refusals come before the policy. */
			int want = pgrp && forged(code) ? EPERM :
				   v == V_MPGRP ? EOPNOTSUPP :
				   refuses && (v == V_MPROC || v == V_MTHR) ?
				   EACCES : 0;
			uint64_t sp, sh;
			siginfo_t si, got;
			int r;

			if (native_flags && !diff_feat->signal_flags)
				continue;
			pt_siginfo(&si, sig, code, 1000 + (int)i);
			si.si_pid = 4242;	/* kept as given */
			switch (v) {
			case V_RT: r = CALL(db_sigqueueinfo(me, sig, &si)); break;
			case V_RTTG: r = CALL(db_tgsigqueueinfo(me, me, sig, &si)); break;
			case V_NPROC: r = CALL(db_send(DB_NATIVE, pp.fd[0], sig, &si, 0)); break;
			case V_NTHR: r = CALL(db_send(DB_NATIVE, pp.fd[0], sig, &si,
						      PIDFD_SIGNAL_THREAD)); break;
			case V_NPGRP: r = CALL(db_send(DB_NATIVE, pp.fd[0], sig, &si,
						       PIDFD_SIGNAL_PROCESS_GROUP)); break;
			case V_MPROC: r = CALL(db_send(DB_MODULE, pp.fd[1], sig, &si, 0)); break;
			case V_MTHR: r = CALL(db_send(DB_MODULE, pt.fd[1], sig, &si, 0)); break;
			default: r = CALL(db_send(DB_MODULE, pp.fd[1], sig, &si,
						  PIDFD_SIGNAL_PROCESS_GROUP)); break;
			}
			ck_assert_msg(r == want, "self, %s, %s: %s want %s (%s)",
				      si_codes[i].name, vname[v], pt_errname(r),
				      pt_errname(want), pt_policy_describe());
			ck_assert_int_eq(pt_thread_pending(me, me, &sp, &sh), 0);
			if (want) {
				ck_assert(!((sp | sh) & DB_BIT(sig)));
				/* The first refusal's line (rate-limited). */
				if (want == EACCES && !log_checked) {
					ck_assert_msg(pt_policy_refusal_logged(sig, me, me),
						      "no log line for the refusal");
					log_checked = true;
				}
				continue;
			}
			/* Where: shared for the kernel's process paths;
			 * the thread for thread scope and for the module's
			 * process scope with siginfo (D_PROCESS_SIGINFO_QUEUE). */
			{
				bool shared = v == V_RT || v == V_NPROC ||
					      v == V_NPGRP;

				ck_assert_msg(shared ? (sh & DB_BIT(sig)) && !(sp & DB_BIT(sig))
						     : (sp & DB_BIT(sig)) && !(sh & DB_BIT(sig)),
					      "self, %s, %s: SigPnd %llx ShdPnd %llx",
					      si_codes[i].name, vname[v],
					      (unsigned long long)sp,
					      (unsigned long long)sh);
			}
			memset(&got, 0, sizeof(got));
			ck_assert_int_eq(pt_sigtimedwait(&set, &got, 0), sig);
			ck_assert_msg(got.si_code == code && got.si_pid == 4242 &&
				      got.si_value.sival_int == 1000 + (int)i,
				      "self, %s, %s: got code %d pid %d value %d",
				      si_codes[i].name, vname[v], got.si_code,
				      got.si_pid, got.si_value.sival_int);
			ck_assert_int_eq(pt_thread_pending(me, me, &sp, &sh), 0);
			ck_assert(!((sp | sh) & DB_BIT(sig)));
		}
	}
	/*
	 * "Self" is the calling thread: from another thread of the same
	 * process a forged code is EPERM too (task_pid(current) != pid);
	 * SI_QUEUE goes through.
	 */
	{
		struct other_thread_sends o = { .fd = { pp.fd[0], pp.fd[1] },
						.sig = sig };
		pthread_t th;
		siginfo_t got;

		ck_assert_int_eq(pthread_create(&th, NULL,
						send_from_other_thread, &o), 0);
		pthread_join(th, NULL);
		ck_assert_msg(o.r_rt == EPERM && o.r_n == EPERM && o.r_m == EPERM,
			      "SI_USER from another thread: rt_sigqueueinfo %s "
			      "native %s module %s", pt_errname(o.r_rt), pt_errname(o.r_n),
			      pt_errname(o.r_m));
		ck_assert_msg(o.q_rt == 0 && o.q_n == 0 &&
			      o.q_m == (refuses ? EACCES : 0),
			      "SI_QUEUE from another thread: rt_sigqueueinfo %s "
			      "native %s module %s (%s)", pt_errname(o.q_rt),
			      pt_errname(o.q_n), pt_errname(o.q_m),
			      pt_policy_describe());
		/*
		 * Real-time signals queue: three of them, all SI_QUEUE (two
		 * where the policy refused the module's).
		 */
		for (int k = 0; k < (refuses ? 2 : 3); k++) {
			memset(&got, 0, sizeof(got));
			ck_assert_int_eq(pt_sigtimedwait(&set, &got, 0), sig);
			ck_assert_int_eq(got.si_code, SI_QUEUE);
			ck_assert_int_eq(got.si_value.sival_int, 2);
		}
		ck_assert_int_eq(CALL(pt_sigtimedwait(&set, &got, 0)), EAGAIN);
	}
	if (!diff_feat->signal_flags)
		db_native_skipped("si_code classes to self, thread and "
				  "process-group scope", "PIDFD_SIGNAL_*",
				  pt_kernel_has_signal_scope());
	if (refuses)
		diff_asserted(D_SIGNAL_POLICY, "to self, every si_code: module "
			      "process and thread scope EACCES, nothing pending; "
			      "rt_sigqueueinfo/native delivered (%s)",
			      pt_policy_describe());
	else
		diff_asserted(D_PROCESS_SIGINFO_QUEUE, "to self: module SigPnd, "
			      "rt_sigqueueinfo/native ShdPnd");
	close_pair(&pp);
	close_pair(&pt);
}
END_TEST

struct nsrec {
	int code, pid, uid, value;
	int pending;		/* for 'p': the signal is pending */
};

/*
 * A receiver that is pid 2 of a child pid namespace: the sender (us) is
 * not visible there, so si_pid is 0 for every path, even a caller's
 * siginfo that names us (the kernel clears it). Native and module agree.
 * Where the module's policy refuses its approximate paths (siginfo,
 * thread scope), those two are EACCES and leave nothing pending. The
 * receiver does as told, one byte each: 'w' takes the next signal, 'p'
 * says whether one is pending, 'q' ends.
 */
START_TEST(test_siginfo_child_pidns)
{
	enum { N_KILL, N_RT, N_TGKILL, N_NPROC, N_NINFO, N_MPROC, N_MINFO,
	       N_MTHR, N_N };
	static const char *const name[N_N] = {
		"kill", "rt_sigqueueinfo", "tgkill", "native", "native+siginfo",
		"module", "module+siginfo", "module thread",
	};
	int sig = SIGRTMIN + 4, rep[2], mid_pipe[2], cmd[2];
	bool refuses = pt_policy_refuses_approx();
	pid_t mid, outer = 0;
	struct pair p;
	int mthr;

	ck_assert_int_eq(pipe2(rep, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(mid_pipe, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(cmd, O_CLOEXEC), 0);
	mid = pt_fork();
	if (mid == 0) {
		pid_t init, recv;
		sigset_t set;

		close(cmd[1]);
		if (unshare(CLONE_NEWPID))
			_exit(1);
		init = pt_fork_lasting_sleeper();
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_BLOCK, &set, NULL);
		recv = fork();
		if (recv == 0) {
			char what;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			while (read(cmd[0], &what, 1) == 1 && what != 'q') {
				siginfo_t si;
				sigset_t pending;
				struct nsrec r = { 0 };

				memset(&si, 0, sizeof(si));
				if (what == 'p')
					r.pending = sigpending(&pending) ||
						    sigismember(&pending, sig);
				else if (pt_sigtimedwait(&set, &si, WAIT_MS) != sig)
					r.code = 9999;
				else
					r = (struct nsrec){ si.si_code, si.si_pid,
							    (int)si.si_uid,
							    si.si_value.sival_int, 0 };
				if (write(rep[1], &r, sizeof(r)) != sizeof(r))
					_exit(1);
			}
			_exit(0);
		}
		if (write(mid_pipe[1], &recv, sizeof(recv)) != sizeof(recv))
			_exit(2);
		waitpid(recv, NULL, 0);
		kill(init, SIGKILL);
		_exit(0);
	}
	ck_assert_int_eq(read(mid_pipe[0], &outer, sizeof(outer)), sizeof(outer));
	ck_assert_int_gt(outer, 0);
	p = open_pair(outer, 0);
	mthr = libpidfd_open(outer, PIDFD_THREAD);
	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0 && mthr >= 0);
	if (refuses)
		pt_policy_log_ready(2);
	for (int k = 0; k < N_N; k++) {
		bool refused = refuses && (k == N_MINFO || k == N_MTHR);
		struct nsrec r;
		siginfo_t si;
		int ret;
		int code = k == N_RT || k == N_NINFO || k == N_MINFO ? SI_QUEUE :
			   k == N_TGKILL || k == N_MTHR ? SI_TKILL : SI_USER;

		pt_siginfo(&si, sig, SI_QUEUE, 50 + k);
		switch (k) {
		case N_KILL: ret = CALL(kill(outer, sig)); break;
		case N_RT: ret = CALL(db_sigqueueinfo(outer, sig, &si)); break;
		case N_TGKILL: ret = CALL(db_tgkill(outer, outer, sig)); break;
		case N_NPROC: ret = CALL(db_send(DB_NATIVE, p.fd[0], sig, NULL, 0)); break;
		case N_NINFO: ret = CALL(db_send(DB_NATIVE, p.fd[0], sig, &si, 0)); break;
		case N_MPROC: ret = CALL(db_send(DB_MODULE, p.fd[1], sig, NULL, 0)); break;
		case N_MINFO: ret = CALL(db_send(DB_MODULE, p.fd[1], sig, &si, 0)); break;
		default: ret = CALL(db_send(DB_MODULE, mthr, sig, NULL, 0)); break;
		}
		if (refused) {
			ck_assert_msg(ret == EACCES, "%s: %s want EACCES (%s)",
				      name[k], pt_errname(ret),
				      pt_policy_describe());
			ck_assert_int_eq(write(cmd[1], "p", 1), 1);
			ck_assert_int_eq(read(rep[0], &r, sizeof(r)), sizeof(r));
			ck_assert_msg(!r.pending, "%s: pending though refused",
				      name[k]);
			ck_assert_msg(pt_policy_refusal_logged(sig, getpid(), outer),
				      "%s: no log line for the refusal", name[k]);
			diff_asserted(D_SIGNAL_POLICY, "%s into a child pid ns: "
				      "EACCES, nothing pending", name[k]);
			continue;
		}
		ck_assert_msg(ret == 0, "%s: %s (%s)", name[k], pt_errname(ret),
			      pt_policy_describe());
		ck_assert_int_eq(write(cmd[1], "w", 1), 1);
		ck_assert_int_eq(read(rep[0], &r, sizeof(r)), sizeof(r));
		ck_assert_msg(r.code == code && r.pid == 0 && r.uid == 0 &&
			      (code != SI_QUEUE || r.value == 50 + k),
			      "%s into a child pid ns: code %d pid %d uid %d "
			      "value %d (want code %d, pid 0)", name[k], r.code,
			      r.pid, r.uid, r.value, code);
	}
	ck_assert_int_eq(write(cmd[1], "q", 1), 1);
	close_pair(&p);
	close(mthr);
	pt_reap(mid);
	pt_close_all(rep[0], rep[1], mid_pipe[0], mid_pipe[1], cmd[0], cmd[1]);
}
END_TEST

PT_SUITE_MAIN_WITH(diff_main, TIMEOUT, "differential_signal",
		   test_signal_errors, test_file_type, test_signal_policy,
		   test_si_codes_self, test_siginfo_child_pidns)
