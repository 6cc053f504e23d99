// SPDX-License-Identifier: GPL-2.0
/*
 * Differential suite (issue 5): the same cases against two backends, the
 * kernel's own pidfd calls (pidfd_open, pidfd_send_signal, poll, waitid,
 * PIDFD_GET_INFO, fdinfo, where the running kernel has them) and the
 * module through libpidfd, asserting the same return values, errno,
 * signals received (which thread, si_code/si_pid/si_uid/si_value), poll
 * events. Then the permission matrix: senders with various credentials
 * against targets with various credentials, every delivery path, compared
 * with kill(2)/tgkill(2)/rt_sigqueueinfo(2)/rt_tgsigqueueinfo(2) and the
 * native pidfd_send_signal(2), and with Landlock's signal scope on 6.12+.
 *
 * Each native feature is probed at run time; the upstream release that
 * brought it is given at each use. When the running kernel lacks it the
 * module is still checked against the documented upstream outcome and a
 * line says the native comparison was skipped (never a silent pass).
 *
 * Where the module differs on purpose (docs/differences.md) the case is in
 * the table `differences` below and both sides are asserted.
 *
 * Signals: every target blocks every signal, so what is sent stays pending
 * where it was queued: the per-thread SigPnd or the process's ShdPnd in
 * /proc/<pid>/task/<tid>/status say exactly where it arrived, and that it
 * arrived nowhere else. The thread it was queued for then takes it with
 * rt_sigtimedwait(2) and reports the siginfo.
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
#include "diff_backend.h"

#define TIMEOUT 120		/* per tcase; TCG is ~10x slower */
#define WAIT_MS 10000

static const struct db_features *F;

/* ------------------------------------------------------------------ */
/* The documented differences (docs/differences.md), each asserted.    */
/* ------------------------------------------------------------------ */

enum diff_id {
	D_SIGCONT_SESSION,
	D_PROCESS_SIGINFO_QUEUE,
	D_POLLHUP,
	D_THREAD_POLL,
	D_FILE_TYPE,
	D_WAITID,
	D_NR
};

static const struct difference {
	const char *id;
	const char *native;
	const char *module;
	const char *reason;
} differences[D_NR] = {
	[D_SIGCONT_SESSION] = {
		"SIGCONT within the session, credentials refuse, thread scope or caller's siginfo",
		"0 (check_kill_permission's same-session exemption)",
		"EPERM",
		"differences.md \"Signals\" 2: permission is asked with signal 0, which has no exemption",
	},
	[D_PROCESS_SIGINFO_QUEUE] = {
		"process scope with a caller's siginfo, every thread blocking it",
		"queued on the process's shared queue (ShdPnd)",
		"queued on the target thread (its SigPnd)",
		"differences.md \"Signals\" 5: send_sig_info() cannot reach the shared queue",
	},
	[D_POLLHUP] = {
		"poll after reap on kernels < 6.9",
		"POLLIN",
		"POLLIN|POLLHUP",
		"differences.md \"Poll\": POLLHUP once reaped on every kernel",
	},
	[D_THREAD_POLL] = {
		"thread pidfd of a non-leader thread on kernels < 6.9",
		"no PIDFD_THREAD (EINVAL)",
		"POLLIN|POLLHUP once the thread is released",
		"differences.md \"Poll\": sched_process_free wakes the thread's wait_pidfd",
	},
	[D_FILE_TYPE] = {
		"module pidfd given to the kernel's pidfd syscalls",
		"accepted (kernel pidfd)",
		"EBADF (pidfd_send_signal, waitid, pidfd_getfd), EINVAL (setns)",
		"differences.md \"The file type\": the kernel recognises only its own file_operations",
	},
	[D_WAITID] = {
		"exit status of a child",
		"waitid(P_PIDFD)",
		"poll, then PIDFD_GET_INFO with PIDFD_INFO_EXIT after the reap",
		"differences.md \"The file type\": kernel_waitid() is not exported",
	},
};

static void diff_asserted(enum diff_id d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void diff_asserted(enum diff_id d, const char *fmt, ...)
{
	va_list ap;

	printf("[differential] documented difference \"%s\" asserted: "
	       "native %s / module %s (%s); ", differences[d].id,
	       differences[d].native, differences[d].module,
	       differences[d].reason);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */
/* ------------------------------------------------------------------ */

static const char *ename(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case ENOTTY: return "ENOTTY";
	case ECHILD: return "ECHILD";
	case EAGAIN: return "EAGAIN";
	case EPIPE: return "EPIPE";
	case ENOPKG: return "ENOPKG";
	}
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* -1/errno -> errno, >= 0 -> 0 */
static int res(long ret, int err)
{
	return ret < 0 ? err : 0;
}

#define CALL(expr) ({ errno = 0; long __r = (long)(expr); res(__r, errno); })

static pid_t fork_exit(int code)
{
	pid_t pid = db_fork();

	if (pid == 0)
		_exit(code);
	ck_assert_int_gt(pid, 0);
	return pid;
}

static pid_t fork_sleeper(void)
{
	pid_t pid = db_fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	ck_assert_int_gt(pid, 0);
	return pid;
}

static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	db_reap(pid);
}

/* Both backends' pidfds for @pid, @flags. */
struct pair {
	int fd[2];	/* [DB_NATIVE], [DB_MODULE] */
	int err[2];
};

static struct pair open_pair(pid_t pid, unsigned int flags)
{
	struct pair p;

	for (int b = DB_NATIVE; b <= DB_MODULE; b++) {
		errno = 0;
		p.fd[b] = db_open((enum db_backend)b, pid, flags);
		p.err[b] = p.fd[b] < 0 ? errno : 0;
	}
	return p;
}

static void close_pair(struct pair *p)
{
	for (int b = 0; b < 2; b++)
		if (p->fd[b] >= 0)
			close(p->fd[b]);
}

/*
 * An ioctl the kernel's pidfd does not know: ENOTTY, except on 6.11 and
 * 6.12, whose pidfs ioctl handler (namespace ioctls only) refuses a
 * non-zero argument with EINVAL before looking at the command.
 */
static int native_unknown_ioctl_errno(void)
{
	return db_kernel_at_least(6, 11) && !db_kernel_at_least(6, 13) ?
	       EINVAL : ENOTTY;
}

/* ------------------------------------------------------------------ */
/* Features                                                             */
/* ------------------------------------------------------------------ */

/* The probes must agree with the kernel version: the table is checked. */
START_TEST(test_features)
{
	struct {
		const char *name;
		bool have;
		int maj, min;
	} feats[] = {
		{ "pidfd_send_signal (5.1)", F->send_signal, 5, 1 },
		{ "pidfd_open (5.3)", F->open, 5, 3 },
		{ "waitid(P_PIDFD) (5.4)", F->waitid, 5, 4 },
		{ "PIDFD_NONBLOCK (5.10)", F->nonblock, 5, 10 },
		{ "PIDFD_THREAD (6.9)", F->thread, 6, 9 },
		{ "PIDFD_SIGNAL_* (6.9)", F->signal_flags, 6, 9 },
		{ "POLLHUP after reap (6.9)", F->pollhup, 6, 9 },
		{ "PIDFD_GET_INFO (6.13)", F->get_info, 6, 13 },
		{ "PIDFD_INFO_EXIT (6.15)", F->info_exit, 6, 15 },
		{ "Landlock signal scope (6.12)", F->landlock_abi >= 6, 6, 12 },
	};

	ck_assert_msg(libpidfd_probe() == 0, "module not usable: %s",
		      libpidfd_strerror(errno));
	printf("[differential] kernel %d.%d native features:\n", F->kmajor,
	       F->kminor);
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		bool want = db_kernel_at_least(feats[i].maj, feats[i].min);

		printf("[differential]   %-32s %s\n", feats[i].name,
		       feats[i].have ? "yes" : "no (module only)");
		ck_assert_msg(feats[i].have == want,
			      "probe of %s says %d on %d.%d", feats[i].name,
			      feats[i].have, F->kmajor, F->kminor);
	}
	printf("[differential]   Landlock ABI %d\n", F->landlock_abi);
	fflush(stdout);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Opening                                                              */
/* ------------------------------------------------------------------ */

/* pidfd_open (5.3) errors: both backends, same errno. */
START_TEST(test_open_errors)
{
	pid_t reaped = fork_exit(0);
	struct {
		const char *what;
		pid_t pid;
		unsigned int flags;
		int err;
	} cases[] = {
		{ "pid -1", -1, 0, EINVAL },
		{ "pid 0", 0, 0, EINVAL },
		{ "pid INT_MIN", INT_MIN, 0, EINVAL },
		{ "unknown flag 1", getpid(), 1, EINVAL },
		{ "O_CLOEXEC as a flag", getpid(), O_CLOEXEC, EINVAL },
		{ "all flags", getpid(), ~0U, EINVAL },
		{ "reaped child", reaped, 0, ESRCH },
		{ "no such pid", INT_MAX, 0, ESRCH },
	};

	db_reap(reaped);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pair p = open_pair(cases[i].pid, cases[i].flags);

		ck_assert_msg(p.fd[DB_NATIVE] < 0 && p.err[DB_NATIVE] == cases[i].err,
			      "%s: native %d/%s, want %s", cases[i].what,
			      p.fd[DB_NATIVE], ename(p.err[DB_NATIVE]),
			      ename(cases[i].err));
		ck_assert_msg(p.fd[DB_MODULE] < 0 && p.err[DB_MODULE] == cases[i].err,
			      "%s: module %d/%s, native %s", cases[i].what,
			      p.fd[DB_MODULE], ename(p.err[DB_MODULE]),
			      ename(cases[i].err));
		close_pair(&p);
	}
}
END_TEST

#define FL_MASK (O_ACCMODE | O_NONBLOCK | O_EXCL)

static void check_same_file_shape(struct pair *p, const char *what)
{
	char link[2][128];
	char path[64];
	char c;

	for (int b = 0; b < 2; b++) {
		ssize_t n;

		ck_assert_msg(p->fd[b] >= 0, "%s: %s open failed: %s", what,
			      db_backend_name(b), ename(p->err[b]));
		ck_assert_msg(fcntl(p->fd[b], F_GETFD) & FD_CLOEXEC,
			      "%s: %s pidfd not cloexec", what,
			      db_backend_name(b));
		snprintf(path, sizeof(path), "/proc/self/fd/%d", p->fd[b]);
		n = readlink(path, link[b], sizeof(link[b]) - 1);
		ck_assert_int_gt(n, 0);
		link[b][n] = '\0';
		/* read(2) is EINVAL on both */
		ck_assert_msg(read(p->fd[b], &c, 1) < 0 && errno == EINVAL,
			      "%s: %s read: %s", what, db_backend_name(b),
			      ename(errno));
	}
	ck_assert_str_eq(link[DB_NATIVE], "anon_inode:[pidfd]");
	ck_assert_str_eq(link[DB_MODULE], link[DB_NATIVE]);
	ck_assert_msg((fcntl(p->fd[0], F_GETFL) & FL_MASK) ==
		      (fcntl(p->fd[1], F_GETFL) & FL_MASK),
		      "%s: F_GETFL native %#x module %#x", what,
		      fcntl(p->fd[0], F_GETFL), fcntl(p->fd[1], F_GETFL));
}

/* pidfd_open (5.3), PIDFD_NONBLOCK (5.10), PIDFD_THREAD (6.9). */
START_TEST(test_open_flags)
{
	pid_t zombie = fork_exit(3);
	struct pair p;

	p = open_pair(getpid(), 0);
	check_same_file_shape(&p, "self, flags 0");
	ck_assert_int_eq(fcntl(p.fd[1], F_GETFL) & FL_MASK, O_RDWR);
	close_pair(&p);

	p = open_pair(getpid(), PIDFD_NONBLOCK);
	check_same_file_shape(&p, "PIDFD_NONBLOCK");
	ck_assert_int_eq(fcntl(p.fd[1], F_GETFL) & FL_MASK, O_RDWR | O_NONBLOCK);
	close_pair(&p);

	/* A zombie can be opened (both). */
	ck_assert_int_eq(db_wait_zombie(zombie, WAIT_MS), 0);
	p = open_pair(zombie, 0);
	check_same_file_shape(&p, "zombie");
	close_pair(&p);
	db_reap(zombie);

	p = open_pair(getpid(), PIDFD_THREAD);
	if (F->thread) {
		check_same_file_shape(&p, "PIDFD_THREAD");
	} else {
		ck_assert_msg(p.fd[0] < 0 && p.err[0] == EINVAL,
			      "native PIDFD_THREAD before 6.9: %s",
			      ename(p.err[0]));
		ck_assert_msg(p.fd[1] >= 0, "module PIDFD_THREAD: %s",
			      ename(p.err[1]));
		db_native_skipped("open PIDFD_THREAD", "PIDFD_THREAD", "6.9");
	}
	ck_assert_int_eq(fcntl(p.fd[1], F_GETFL) & FL_MASK, O_RDWR | O_EXCL);
	close_pair(&p);
}
END_TEST

static int tid_pipe[2];
static volatile pid_t thread_tid;

static void *idle_thread(void *arg)
{
	char c;

	(void)arg;
	thread_tid = db_gettid();
	/* Runs until the pipe's write end is closed. */
	while (read(tid_pipe[0], &c, 1) > 0)
		;
	return NULL;
}

static pid_t start_idle_thread(pthread_t *th)
{
	ck_assert_int_eq(pipe2(tid_pipe, O_CLOEXEC), 0);
	thread_tid = 0;
	ck_assert_int_eq(pthread_create(th, NULL, idle_thread, NULL), 0);
	while (!thread_tid)
		usleep(100);
	return thread_tid;
}

static void stop_idle_thread(pthread_t th)
{
	close(tid_pipe[1]);
	pthread_join(th, NULL);
	close(tid_pipe[0]);
}

static bool task_gone(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	return access(path, F_OK) != 0;
}

/*
 * A non-leader thread ID: flags 0 is refused by both with the running
 * kernel's errno, PIDFD_THREAD (6.9) works on both; poll on the thread
 * pidfds fires at thread exit on both (module on every kernel:
 * D_THREAD_POLL), never on the process's.
 */
START_TEST(test_open_thread_id)
{
	pid_t tid, mypid = getpid();
	struct pair p0, pt, pp;
	pthread_t th;

	tid = start_idle_thread(&th);
	p0 = open_pair(tid, 0);
	ck_assert_msg(p0.fd[0] < 0 && p0.fd[1] < 0 && p0.err[0] == p0.err[1] &&
		      p0.err[0] == (db_kernel_at_least(6, 15) ? ENOENT : EINVAL),
		      "open(tid, 0): native %d/%s, module %d/%s", p0.fd[0],
		      ename(p0.err[0]), p0.fd[1], ename(p0.err[1]));

	pt = open_pair(tid, PIDFD_THREAD);
	pp = open_pair(mypid, 0);
	ck_assert_msg(pt.fd[1] >= 0, "module open(tid, PIDFD_THREAD): %s",
		      ename(pt.err[1]));
	if (F->thread)
		ck_assert_msg(pt.fd[0] >= 0, "native open(tid, PIDFD_THREAD): %s",
			      ename(pt.err[0]));
	else
		ck_assert_msg(pt.fd[0] < 0 && pt.err[0] == EINVAL,
			      "native PIDFD_THREAD before 6.9: %s",
			      ename(pt.err[0]));

	/* Alive: nothing to read on any of them. */
	for (int b = 0; b < 2; b++) {
		ck_assert_int_eq(db_poll(pp.fd[b], 0), 0);
		if (pt.fd[b] >= 0)
			ck_assert_int_eq(db_poll(pt.fd[b], 0), 0);
	}
	stop_idle_thread(th);
	for (int64_t end = db_now_ms() + WAIT_MS; !task_gone(tid) &&
	     db_now_ms() < end;)
		usleep(1000);
	ck_assert(task_gone(tid));

	for (int b = 0; b < 2; b++) {
		int ev;

		if (pt.fd[b] < 0)
			continue;
		ev = db_poll(pt.fd[b], WAIT_MS);
		ck_assert_msg(ev & POLLIN, "%s thread pidfd after thread exit: "
			      "revents %#x", db_backend_name(b), ev);
		/* The thread has been released: POLLHUP on both (6.9+). */
		ck_assert_msg(db_poll(pt.fd[b], WAIT_MS) & POLLHUP,
			      "%s thread pidfd: no POLLHUP once released",
			      db_backend_name(b));
		/* The process lives on. */
		ck_assert_int_eq(db_poll(pp.fd[b], 0), 0);
	}
	/* Signals to the gone thread: ESRCH, as tgkill(2) (the process
	 * lives on). */
	ck_assert_int_eq(CALL(db_tgkill(mypid, tid, 0)), ESRCH);
	for (int b = 0; b < 2; b++)
		if (pt.fd[b] >= 0)
			ck_assert_int_eq(CALL(db_send(b, pt.fd[b], SIGUSR1, NULL,
						      0)), ESRCH);
	if (!F->thread) {
		db_native_skipped("thread pidfd poll", "PIDFD_THREAD", "6.9");
		diff_asserted(D_THREAD_POLL, "module POLLIN|POLLHUP after the "
			      "thread's release");
	}
	close_pair(&pt);
	close_pair(&pp);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Signal errors and the siginfo classes                                */
/* ------------------------------------------------------------------ */

/* pidfd_send_signal (5.1) argument errors, zombie, reaped, foreign ns. */
START_TEST(test_signal_errors)
{
	pid_t child = fork_sleeper();
	pid_t zombie = fork_exit(0);
	pid_t reaped = fork_exit(0);
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
			db_make_info(&si, cases[i].info_signo == -100 ? 0 :
				     cases[i].info_signo, cases[i].code, 5);
		for (int b = 0; b < 2; b++)
			r[b] = CALL(db_send(b, pc.fd[b], cases[i].sig,
					    cases[i].info_signo ? &si : NULL,
					    cases[i].flags));
		ck_assert_msg(r[0] == cases[i].err && r[1] == cases[i].err,
			      "%s: native %s module %s want %s", cases[i].what,
			      ename(r[0]), ename(r[1]), ename(cases[i].err));
	}
	/* PIDFD_SIGNAL_THREAD_GROUP alone: 6.9. */
	{
		int rn = CALL(db_send(DB_NATIVE, pc.fd[0], 0, NULL,
				      PIDFD_SIGNAL_THREAD_GROUP));
		int rm = CALL(db_send(DB_MODULE, pc.fd[1], 0, NULL,
				      PIDFD_SIGNAL_THREAD_GROUP));

		ck_assert_msg(rm == 0, "module THREAD_GROUP probe: %s", ename(rm));
		if (F->signal_flags) {
			ck_assert_msg(rn == 0, "native: %s", ename(rn));
		} else {
			ck_assert_msg(rn == EINVAL, "native flags before 6.9: %s",
				      ename(rn));
			db_native_skipped("signal scope flags", "PIDFD_SIGNAL_*",
					  "6.9");
		}
	}

	/* A zombie: 0 and nothing happens; reaped: ESRCH (both). */
	ck_assert_int_eq(db_wait_zombie(zombie, WAIT_MS), 0);
	pz = open_pair(zombie, 0);
	pr = open_pair(reaped, 0);
	ck_assert(pz.fd[0] >= 0 && pz.fd[1] >= 0 && pr.fd[0] >= 0 &&
		  pr.fd[1] >= 0);
	db_reap(reaped);
	for (int b = 0; b < 2; b++) {
		ck_assert_int_eq(CALL(db_send(b, pz.fd[b], SIGKILL, NULL, 0)), 0);
		ck_assert_int_eq(CALL(db_send(b, pz.fd[b], 0, NULL, 0)), 0);
		ck_assert_int_eq(CALL(db_send(b, pr.fd[b], 0, NULL, 0)), ESRCH);
		ck_assert_int_eq(CALL(db_send(b, pr.fd[b], SIGUSR1, NULL, 0)),
				 ESRCH);
		db_make_info(&si, SIGUSR1, SI_QUEUE, 1);
		ck_assert_int_eq(CALL(db_send(b, pr.fd[b], SIGUSR1, &si, 0)),
				 ESRCH);
	}
	db_reap(zombie);
	close_pair(&pz);
	close_pair(&pr);

	/*
	 * From a child pid namespace towards its ancestor's process: EINVAL
	 * on both (access_pidfd_pidns). The grandchild inherits the fds.
	 */
	{
		pid_t mid = db_fork();

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
		int st = db_reap(mid);

		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "foreign pid ns: status %#x (21: module wrong, "
			      "22: native wrong)", st);
	}
	close_pair(&pc);
	kill_reap(child);
}
END_TEST

/* The module's pidfds are not the kernel's (and vice versa). */
START_TEST(test_file_type)
{
	pid_t child = fork_sleeper();
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
		      "%s", ename(native_unknown_ioctl_errno()));
	close_pair(&p);
	kill_reap(child);
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

	db_make_info(&si, o->sig, SI_USER, 1);
	o->r_rt = CALL(db_sigqueueinfo(getpid(), o->sig, &si));
	o->r_n = CALL(db_send(DB_NATIVE, o->fd[0], o->sig, &si, 0));
	o->r_m = CALL(db_send(DB_MODULE, o->fd[1], o->sig, &si, 0));
	db_make_info(&si, o->sig, SI_QUEUE, 2);
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
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, &set, NULL), 0);
	ck_assert(pp.fd[0] >= 0 && pp.fd[1] >= 0 && pt.fd[1] >= 0);
	/* The Check child leads its process group; that group is just us. */
	ck_assert_int_eq(getpgrp(), me);

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
			int want = pgrp && forged(code) ? EPERM :
				   v == V_MPGRP ? EOPNOTSUPP : 0;
			uint64_t sp, sh;
			siginfo_t si, got;
			int r;

			if (native_flags && !F->signal_flags)
				continue;
			db_make_info(&si, sig, code, 1000 + (int)i);
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
			ck_assert_msg(r == want, "self, %s, %s: %s want %s",
				      si_codes[i].name, vname[v], ename(r),
				      ename(want));
			ck_assert_int_eq(db_pending(me, me, &sp, &sh), 0);
			if (want) {
				ck_assert(!((sp | sh) & DB_BIT(sig)));
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
			ck_assert_int_eq(db_sigtimedwait(&set, &got, 0), sig);
			ck_assert_msg(got.si_code == code && got.si_pid == 4242 &&
				      got.si_value.sival_int == 1000 + (int)i,
				      "self, %s, %s: got code %d pid %d value %d",
				      si_codes[i].name, vname[v], got.si_code,
				      got.si_pid, got.si_value.sival_int);
			ck_assert_int_eq(db_pending(me, me, &sp, &sh), 0);
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
			      "native %s module %s", ename(o.r_rt), ename(o.r_n),
			      ename(o.r_m));
		ck_assert_msg(o.q_rt == 0 && o.q_n == 0 && o.q_m == 0,
			      "SI_QUEUE from another thread: rt_sigqueueinfo %s "
			      "native %s module %s", ename(o.q_rt), ename(o.q_n),
			      ename(o.q_m));
		/* Real-time signals queue: three of them, all SI_QUEUE. */
		for (int k = 0; k < 3; k++) {
			memset(&got, 0, sizeof(got));
			ck_assert_int_eq(db_sigtimedwait(&set, &got, 0), sig);
			ck_assert_int_eq(got.si_code, SI_QUEUE);
			ck_assert_int_eq(got.si_value.sival_int, 2);
		}
		ck_assert_int_eq(CALL(db_sigtimedwait(&set, &got, 0)), EAGAIN);
	}
	if (!F->signal_flags)
		db_native_skipped("si_code classes to self, thread and "
				  "process-group scope", "PIDFD_SIGNAL_*", "6.9");
	diff_asserted(D_PROCESS_SIGINFO_QUEUE, "to self: module SigPnd, "
		      "rt_sigqueueinfo/native ShdPnd");
	close_pair(&pp);
	close_pair(&pt);
}
END_TEST

struct nsrec {
	int code, pid, uid, value;
};

/*
 * A receiver that is pid 2 of a child pid namespace: the sender (us) is
 * not visible there, so si_pid is 0 for every path, even a caller's
 * siginfo that names us (the kernel clears it). Native and module agree.
 */
START_TEST(test_siginfo_child_pidns)
{
	enum { N_KILL, N_RT, N_TGKILL, N_NPROC, N_NINFO, N_MPROC, N_MINFO,
	       N_MTHR, N_N };
	static const char *const name[N_N] = {
		"kill", "rt_sigqueueinfo", "tgkill", "native", "native+siginfo",
		"module", "module+siginfo", "module thread",
	};
	int sig = SIGRTMIN + 4, rep[2], mid_pipe[2];
	pid_t mid, outer = 0;
	struct pair p;
	int mthr;

	ck_assert_int_eq(pipe2(rep, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(mid_pipe, O_CLOEXEC), 0);
	mid = db_fork();
	if (mid == 0) {
		pid_t init, recv;
		sigset_t set;

		if (unshare(CLONE_NEWPID))
			_exit(1);
		init = fork();
		if (init == 0) {
			for (;;)
				pause();
		}
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_BLOCK, &set, NULL);
		recv = fork();
		if (recv == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (int k = 0; k < N_N; k++) {
				siginfo_t si;
				struct nsrec r = { 0 };

				memset(&si, 0, sizeof(si));
				if (db_sigtimedwait(&set, &si, WAIT_MS) != sig)
					r.code = 9999;
				else
					r = (struct nsrec){ si.si_code, si.si_pid,
							    (int)si.si_uid,
							    si.si_value.sival_int };
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
	for (int k = 0; k < N_N; k++) {
		struct nsrec r;
		siginfo_t si;
		int ret;
		int code = k == N_RT || k == N_NINFO || k == N_MINFO ? SI_QUEUE :
			   k == N_TGKILL || k == N_MTHR ? SI_TKILL : SI_USER;

		db_make_info(&si, sig, SI_QUEUE, 50 + k);
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
		ck_assert_msg(ret == 0, "%s: %s", name[k], ename(ret));
		ck_assert_int_eq(read(rep[0], &r, sizeof(r)), sizeof(r));
		ck_assert_msg(r.code == code && r.pid == 0 && r.uid == 0 &&
			      (code != SI_QUEUE || r.value == 50 + k),
			      "%s into a child pid ns: code %d pid %d uid %d "
			      "value %d (want code %d, pid 0)", name[k], r.code,
			      r.pid, r.uid, r.value, code);
	}
	close_pair(&p);
	close(mthr);
	db_reap(mid);
	close(rep[0]);
	close(rep[1]);
	close(mid_pipe[0]);
	close(mid_pipe[1]);
}
END_TEST

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
	c->fd_nthr = F->thread ? cell_open(c, DB_NATIVE, c->t->tid, PIDFD_THREAD)
			       : -EINVAL;
	ck_assert_msg(c->fd_nproc >= 0 && c->fd_mproc >= 0 && c->fd_mthr >= 0 &&
		      (!F->thread || c->fd_nthr >= 0),
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

	ck_assert_msg(db_pending(t->pid, t->pid, lead, shd) == 0 &&
		      db_pending(t->pid, t->tid, work, &dummy) == 0,
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

	if (d->native && d->flags69 && !F->signal_flags) {
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
		      ename(got), ename(want),
		      results[P_KILL] >= 0 ? ename(results[P_KILL]) : "-",
		      results[P_TGKILL] >= 0 ? ename(results[P_TGKILL]) : "-",
		      results[P_KILLPG] >= 0 ? ename(results[P_KILLPG]) : "-",
		      results[P_SIGQUEUE] >= 0 ? ename(results[P_SIGQUEUE]) : "-");
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
		      ename(dq.err), dq.signo, dq.tid);
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

static void start_target(struct db_target *t, const struct db_creds *c,
			 bool setsid)
{
	struct db_target_opts o = { .creds = c->ruid || c->euid ? c : NULL,
				    .setsid = setsid };

	ck_assert_int_eq(db_target_prepare(t), 0);
	ck_assert_int_gt(db_target_fork(t, &o), 0);
	ck_assert_msg(db_target_hello(t, WAIT_MS) == 0, "target %s: %s",
		      c->name, ename(errno));
}

/* Loop test over the senders: every target, both session cases. */
START_TEST(test_matrix)
{
	const struct db_creds *sc = &senders[_i];
	static const int sigs[] = { 0, SIGUSR1, SIGCONT };
	struct db_sender s;
	char why[256] = "";
	int checked = 0, skipped = 0;
	int64_t t0 = db_now_ms();

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
	       sc->name, checked, (long long)(db_now_ms() - t0));
	if (skipped)
		db_native_skipped("permission matrix, native thread and "
				  "process-group scope paths (module compared "
				  "with tgkill/rt_tgsigqueueinfo/kill(-pgrp))",
				  "PIDFD_THREAD, PIDFD_SIGNAL_*", "6.9");
	fflush(stdout);
}
END_TEST

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
	uint64_t lead, work, shd;
	int sig = SIGRTMIN + 3;

	start_target(&t, &targets[0], false);
	pp = open_pair(t.pid, 0);
	pt = open_pair(t.tid, PIDFD_THREAD);
	ck_assert(pp.fd[1] >= 0 && pt.fd[1] >= 0);

	/* PIDFD_SIGNAL_THREAD on a process pidfd: the leader thread;
	 * PIDFD_SIGNAL_THREAD_GROUP on a thread pidfd: the process. */
	for (int b = 0; b < 2; b++) {
		struct db_dequeued dq;

		if (b == DB_NATIVE && (!F->signal_flags || !F->thread)) {
			db_native_skipped("scope overrides", "PIDFD_THREAD, "
					  "PIDFD_SIGNAL_*", "6.9");
			continue;
		}
		ck_assert_int_eq(CALL(db_send(b, pp.fd[b], sig, NULL,
					      PIDFD_SIGNAL_THREAD)), 0);
		pending3(&t, &lead, &work, &shd);
		ck_assert_msg((lead & DB_BIT(sig)) && !((work | shd) & DB_BIT(sig)),
			      "%s THREAD override: %llx %llx %llx",
			      db_backend_name(b), (unsigned long long)lead,
			      (unsigned long long)work, (unsigned long long)shd);
		ck_assert_int_eq(db_target_dequeue(&t, 0, sig, &dq), 0);
		ck_assert_int_eq(dq.code, SI_TKILL);
		ck_assert_int_eq(dq.pid, getpid());

		ck_assert_int_eq(CALL(db_send(b, pt.fd[b], sig, NULL,
					      PIDFD_SIGNAL_THREAD_GROUP)), 0);
		pending3(&t, &lead, &work, &shd);
		ck_assert_msg((shd & DB_BIT(sig)) && !((work | lead) & DB_BIT(sig)),
			      "%s THREAD_GROUP override: %llx %llx %llx",
			      db_backend_name(b), (unsigned long long)lead,
			      (unsigned long long)work, (unsigned long long)shd);
		ck_assert_int_eq(db_target_dequeue(&t, 1, sig, &dq), 0);
		ck_assert_int_eq(dq.code, SI_USER);
		ck_assert_int_eq(dq.pid, getpid());
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

	if (F->landlock_abi < 6) {
		ck_assert_msg(!db_kernel_at_least(6, 12),
			      "Landlock ABI %d on %d.%d", F->landlock_abi,
			      F->kmajor, F->kminor);
		printf("[differential] Landlock signal scope: NOT APPLICABLE on "
		       "%d.%d (LANDLOCK_SCOPE_SIGNAL arrived in 6.12; ABI %d)\n",
		       F->kmajor, F->kminor, F->landlock_abi);
		fflush(stdout);
		return;
	}
	start_target(&out, &targets[0], false);
	ck_assert_int_eq(db_target_prepare(&in), 0);
	db_spawnable[0] = &in;
	db_spawn_opts[0] = (struct db_target_opts){ .creds = NULL };
	ck_assert_msg(db_sender_start(&s, NULL, why, sizeof(why)) == 0, "%s", why);

	r = (struct db_req){ .op = DB_OP_LANDLOCK };
	rep = db_sender_do(&s, &r);
	ck_assert_msg(rep.ret == 0, "landlock_restrict_self: %s", ename(rep.err));
	/* A child created after restrict_self is inside the domain. */
	r = (struct db_req){ .op = DB_OP_SPAWN, .a = 0 };
	rep = db_sender_do(&s, &r);
	ck_assert_msg(rep.ret > 0, "spawn: %s", ename(rep.err));
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
					  "PIDFD_SIGNAL_*", "6.9");
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
		      "%d/%s", rep.ret, ename(rep.err));
	db_target_stop(&in, false);
	db_sender_stop(&s);
	db_target_stop(&out, true);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Exit: poll, waitid vs PIDFD_INFO_EXIT, GET_INFO, fdinfo              */
/* ------------------------------------------------------------------ */

/* poll (5.3 POLLIN; POLLHUP 6.9) alive, zombie, reaped. */
START_TEST(test_poll_exit)
{
	pid_t child = fork_sleeper();
	struct pair p = open_pair(child, 0);
	int ev[2];

	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	for (int b = 0; b < 2; b++)
		ck_assert_int_eq(db_poll(p.fd[b], 0), 0);
	kill(child, SIGKILL);
	ck_assert_int_eq(db_wait_zombie(child, WAIT_MS), 0);
	for (int b = 0; b < 2; b++) {
		ev[b] = db_poll(p.fd[b], WAIT_MS);
		ck_assert_msg(ev[b] & POLLIN, "%s zombie: %#x",
			      db_backend_name(b), ev[b]);
		ck_assert_msg(!(ev[b] & POLLHUP), "%s zombie: POLLHUP",
			      db_backend_name(b));
	}
	ck_assert_int_eq(ev[0], ev[1]);
	db_reap(child);
	for (int b = 0; b < 2; b++)
		ev[b] = db_poll(p.fd[b], WAIT_MS);
	ck_assert_int_eq(ev[1], POLLIN | POLLHUP);
	if (F->pollhup) {
		ck_assert_int_eq(ev[0], ev[1]);
	} else {
		ck_assert_int_eq(ev[0], POLLIN);
		diff_asserted(D_POLLHUP, "after reap: native %#x, module %#x",
			      ev[0], ev[1]);
	}
	close_pair(&p);
}
END_TEST

static void *exit_after(void *arg)
{
	usleep((useconds_t)(uintptr_t)arg * 1000);
	syscall(SYS_exit, 0);
	return NULL;
}

/* The leader exits first: no POLLIN until the whole group is dead. */
START_TEST(test_poll_leader_first)
{
	pid_t child = db_fork();
	struct pair p;
	int64_t t0;

	if (child == 0) {
		pthread_t th;

		/* long enough for the 2 x 300 ms checks below, under TCG */
		if (pthread_create(&th, NULL, exit_after, (void *)(uintptr_t)3000))
			_exit(1);
		syscall(SYS_exit, 0);	/* the leader only */
	}
	p = open_pair(child, 0);
	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	t0 = db_now_ms();
	for (int b = 0; b < 2; b++)
		ck_assert_int_eq(db_poll(p.fd[b], 300), 0);
	for (int b = 0; b < 2; b++)
		ck_assert(db_poll(p.fd[b], WAIT_MS) & POLLIN);
	/* Not before the other thread's exit (3 s after the start). */
	ck_assert_int_ge(db_now_ms() - t0, 300);
	db_reap(child);
	close_pair(&p);
}
END_TEST

/*
 * Exit status: native waitid(P_PIDFD) (5.4) and PIDFD_INFO_EXIT (6.15)
 * against the module's poll + PIDFD_INFO_EXIT (D_WAITID).
 */
START_TEST(test_exit_status)
{
	static const int how[] = { 42, -SIGKILL, 0, -SIGTERM };

	for (size_t i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		struct pair p;
		struct pidfd_info ni, mi;
		siginfo_t si;
		int status = -1, ready[2];
		pid_t child;
		char c;

		ck_assert_int_eq(pipe2(ready, O_CLOEXEC), 0);
		child = db_fork();
		if (child == 0) {
			if (how[i] >= 0)
				_exit(how[i]);
			/* Only now is Check's SIGTERM handler gone. */
			if (write(ready[1], "r", 1) != 1)
				_exit(99);
			for (;;)
				pause();
		}
		ck_assert_int_gt(child, 0);
		close(ready[1]);
		if (how[i] < 0)
			ck_assert_int_eq(read(ready[0], &c, 1), 1);
		close(ready[0]);
		p = open_pair(child, 0);
		ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
		if (how[i] < 0)
			kill(child, -how[i]);
		ck_assert_int_eq(libpidfd_wait_exit(p.fd[1], WAIT_MS), 0);
		ck_assert(db_poll(p.fd[0], WAIT_MS) & POLLIN);
		/* A zombie: not yet (module EAGAIN; native no EXIT bit). */
		ck_assert_int_eq(CALL(libpidfd_exit_status(p.fd[1], &status)),
				 EAGAIN);
		if (F->get_info) {
			ck_assert_int_eq(db_get_info(DB_NATIVE, p.fd[0], &ni,
						     PIDFD_INFO_EXIT), 0);
			ck_assert(!(ni.mask & PIDFD_INFO_EXIT));
		}
		memset(&si, 0, sizeof(si));
		ck_assert_int_eq(db_sys_waitid_pidfd(p.fd[0], &si, WEXITED), 0);
		ck_assert_int_eq(si.si_pid, child);
		{
			int r = CALL(libpidfd_exit_status(p.fd[1], &status));

			ck_assert_msg(r == 0, "case %d (exit %d): module exit "
				      "status after waitid reaped it: %s", (int)i,
				      how[i], ename(r));
		}
		if (how[i] >= 0) {
			ck_assert_int_eq(si.si_code, CLD_EXITED);
			ck_assert_int_eq(si.si_status, how[i]);
			ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == how[i]);
		} else {
			ck_assert_int_eq(si.si_code, CLD_KILLED);
			ck_assert_int_eq(si.si_status, -how[i]);
			ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == -how[i]);
		}
		ck_assert_int_eq(db_get_info(DB_MODULE, p.fd[1], &mi,
					     PIDFD_INFO_EXIT), 0);
		ck_assert(mi.mask & PIDFD_INFO_EXIT);
		ck_assert(!(mi.mask & PIDFD_INFO_CREDS));
		{
			struct pidfd_info none;

			/* Reaped, EXIT not asked: ESRCH. */
			ck_assert_int_eq(CALL(db_get_info(DB_MODULE, p.fd[1],
							  &none, 0)), ESRCH);
		}
		if (F->info_exit) {
			ck_assert_int_eq(db_get_info(DB_NATIVE, p.fd[0], &ni,
						     PIDFD_INFO_EXIT), 0);
			ck_assert(ni.mask & PIDFD_INFO_EXIT);
			ck_assert_int_eq(ni.exit_code, mi.exit_code);
			ck_assert_int_eq(ni.mask & (PIDFD_INFO_EXIT | PIDFD_INFO_CREDS),
					 mi.mask & (PIDFD_INFO_EXIT | PIDFD_INFO_CREDS));
		} else if (i == 0) {
			db_native_skipped("exit status after reap",
					  "PIDFD_INFO_EXIT", "6.15");
		}
		if (F->get_info)
			ck_assert_int_eq(CALL(db_get_info(DB_NATIVE, p.fd[0],
							  &ni, 0)), ESRCH);
		/* The module's fd is refused by waitid (file type). */
		ck_assert_int_eq(CALL(db_sys_waitid_pidfd(p.fd[1], &si, WEXITED)),
				 EBADF);
		close_pair(&p);
	}
	diff_asserted(D_WAITID, "exited 42/0, SIGKILL, SIGTERM: same status");
}
END_TEST

/*
 * A pidfd opened while its process is exiting: the status must still be
 * there after the reap, as the kernel's waitid() has it (and native
 * PIDFD_INFO_EXIT, 6.15, always has it). The child exits at once, so the
 * open races with do_exit(): before it, in the middle, or on the zombie.
 * docs/abi.md allows ESRCH only when the module was loaded after the exit.
 */
START_TEST(test_exit_status_open_race)
{
	int lost = 0, first_err = 0, n = 150;

	for (int i = 0; i < n; i++) {
		pid_t child = db_fork();
		int fd, status = -1, r;
		siginfo_t si;

		if (child == 0)
			_exit(i & 0x7f);
		ck_assert_int_gt(child, 0);
		fd = libpidfd_open(child, 0);
		ck_assert_msg(fd >= 0, "open: %s", ename(errno));
		memset(&si, 0, sizeof(si));
		ck_assert_int_eq(waitid(P_PID, child, &si, WEXITED), 0);
		ck_assert_int_eq(si.si_status, i & 0x7f);
		r = CALL(libpidfd_exit_status(fd, &status));
		if (r) {
			if (!lost)
				first_err = r;
			lost++;
		} else {
			ck_assert_msg(WIFEXITED(status) &&
				      WEXITSTATUS(status) == (i & 0x7f),
				      "iteration %d: status %#x", i, status);
		}
		close(fd);
	}
	ck_assert_msg(lost == 0, "exit status lost for %d of %d children whose "
		      "module pidfd was opened while they exited (first: %s)",
		      lost, n, ename(first_err));
}
END_TEST

/* PIDFD_GET_INFO (6.13): the same fields from both. */
START_TEST(test_get_info)
{
	static const struct db_creds c = { .name = "info target", .ruid = 1001,
		.euid = 1002, .suid = 1003, .gid = 2001 };
	struct db_target t;
	struct pair p, pt;
	struct pidfd_info ni, mi;

	start_target(&t, &c, false);
	p = open_pair(t.pid, 0);
	pt = open_pair(t.tid, PIDFD_THREAD);
	ck_assert(p.fd[1] >= 0 && pt.fd[1] >= 0);
	ck_assert_int_eq(db_get_info(DB_MODULE, p.fd[1], &mi, 0), 0);
	ck_assert(mi.mask & PIDFD_INFO_PID && mi.mask & PIDFD_INFO_CREDS);
	ck_assert_int_eq(mi.pid, t.pid);
	ck_assert_int_eq(mi.tgid, t.pid);
	ck_assert_int_eq(mi.ppid, getpid());
	ck_assert_int_eq(mi.ruid, 1001);
	ck_assert_int_eq(mi.euid, 1002);
	ck_assert_int_eq(mi.suid, 1003);
	ck_assert_int_eq(mi.fsuid, 1002);
	ck_assert_int_eq(mi.rgid, 2001);
	if (F->get_info) {
		ck_assert_int_eq(db_get_info(DB_NATIVE, p.fd[0], &ni, 0), 0);
		ck_assert_int_eq(ni.mask & ~(uint64_t)PIDFD_INFO_SUPPORTED_MASK,
				 mi.mask & ~(uint64_t)PIDFD_INFO_SUPPORTED_MASK);
		ck_assert(!memcmp(&ni.cgroupid, &mi.cgroupid,
				  offsetof(struct pidfd_info, exit_code) -
				  offsetof(struct pidfd_info, cgroupid)));
		if (F->thread && pt.fd[0] >= 0) {
			ck_assert_int_eq(db_get_info(DB_NATIVE, pt.fd[0], &ni, 0), 0);
			ck_assert_int_eq(db_get_info(DB_MODULE, pt.fd[1], &mi, 0), 0);
			ck_assert_int_eq(mi.pid, t.tid);
			ck_assert_int_eq(mi.tgid, t.pid);
			ck_assert_int_eq(ni.pid, mi.pid);
			ck_assert_int_eq(ni.tgid, mi.tgid);
			ck_assert_int_eq(ni.ppid, mi.ppid);
		}
	} else {
		ck_assert_int_eq(CALL(db_get_info(DB_NATIVE, p.fd[0], &ni, 0)),
				 native_unknown_ioctl_errno());
		db_native_skipped("PIDFD_GET_INFO", "PIDFD_GET_INFO", "6.13");
	}
	close_pair(&p);
	close_pair(&pt);
	db_target_stop(&t, true);
}
END_TEST

/* fdinfo Pid:/NSpid: (5.x): the same lines, alive, in a child pid ns, dead. */
START_TEST(test_fdinfo)
{
	pid_t child = fork_sleeper();
	struct pair p = open_pair(child, 0);
	char v[2][128];
	const char *keys[] = { "Pid:", "NSpid:" };
	int sync[2];
	pid_t mid, inner = 0;

	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	for (size_t k = 0; k < 2; k++) {
		for (int b = 0; b < 2; b++)
			ck_assert_int_eq(db_fdinfo(p.fd[b], keys[k], v[b], 128), 0);
		ck_assert_str_eq(v[0], v[1]);
	}
	ck_assert_int_eq(atoi(v[1]), child);
	kill_reap(child);
	for (size_t k = 0; k < 2; k++) {
		for (int b = 0; b < 2; b++) {
			ck_assert_int_eq(db_fdinfo(p.fd[b], keys[k], v[b], 128), 0);
			ck_assert_str_eq(v[b], "-1");
		}
	}
	close_pair(&p);

	/* A process that is pid 1 of a child pid namespace. */
	ck_assert_int_eq(pipe2(sync, O_CLOEXEC), 0);
	mid = db_fork();
	if (mid == 0) {
		pid_t c;

		if (unshare(CLONE_NEWPID))
			_exit(1);
		c = fork();
		if (c == 0) {
			for (;;)
				pause();
		}
		if (write(sync[1], &c, sizeof(c)) != sizeof(c))
			_exit(2);
		waitpid(c, NULL, 0);
		_exit(0);
	}
	ck_assert_int_eq(read(sync[0], &inner, sizeof(inner)), sizeof(inner));
	/* @inner is its number in our namespace? No: in the child's parent's,
	 * which is ours (unshare changes only the children's namespace). */
	p = open_pair(inner, 0);
	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	for (int b = 0; b < 2; b++)
		ck_assert_int_eq(db_fdinfo(p.fd[b], "NSpid:", v[b], 128), 0);
	ck_assert_str_eq(v[0], v[1]);
	{
		char want[64];

		snprintf(want, sizeof(want), "%d\t1", inner);
		ck_assert_str_eq(v[1], want);
	}
	close_pair(&p);
	kill(inner, SIGKILL);
	db_reap(mid);
	close(sync[0]);
	close(sync[1]);
}
END_TEST

/* ------------------------------------------------------------------ */

static Suite *differential_suite(void)
{
	Suite *s = suite_create("differential");
	TCase *tc;

	tc = tcase_create("features");
	tcase_set_timeout(tc, TIMEOUT);
	tcase_add_test(tc, test_features);
	suite_add_tcase(s, tc);

	tc = tcase_create("open");
	tcase_set_timeout(tc, TIMEOUT);
	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_open_flags);
	tcase_add_test(tc, test_open_thread_id);
	suite_add_tcase(s, tc);

	tc = tcase_create("signal");
	tcase_set_timeout(tc, TIMEOUT);
	tcase_add_test(tc, test_signal_errors);
	tcase_add_test(tc, test_file_type);
	tcase_add_test(tc, test_si_codes_self);
	tcase_add_test(tc, test_scope_overrides);
	tcase_add_test(tc, test_siginfo_child_pidns);
	suite_add_tcase(s, tc);

	tc = tcase_create("matrix");
	tcase_set_timeout(tc, TIMEOUT);
	tcase_add_loop_test(tc, test_matrix, 0, (int)NSENDERS);
	tcase_add_test(tc, test_landlock);
	suite_add_tcase(s, tc);

	tc = tcase_create("exit");
	tcase_set_timeout(tc, TIMEOUT);
	tcase_add_test(tc, test_poll_exit);
	tcase_add_test(tc, test_poll_leader_first);
	tcase_add_test(tc, test_exit_status);
	tcase_add_test(tc, test_exit_status_open_race);
	tcase_add_test(tc, test_get_info);
	tcase_add_test(tc, test_fdinfo);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* libpidfd is the module's side here: never the kernel's pidfds. */
	if (libpidfd_set_backend(LIBPIDFD_BACKEND_MODULE) < 0)
		return 1;
	F = db_features();
	sr = srunner_create(differential_suite());
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
