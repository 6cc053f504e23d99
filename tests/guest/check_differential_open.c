// SPDX-License-Identifier: GPL-2.0
/*
 * Differential suite: Opening: the feature probes against the kernel version, open errors and flags, thread IDs.
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
		{ "pidfd_send_signal (5.1)", diff_feat->send_signal, 5, 1 },
		{ "pidfd_open (5.3)", diff_feat->open, 5, 3 },
		{ "waitid(P_PIDFD) (5.4)", diff_feat->waitid, 5, 4 },
		{ "PIDFD_NONBLOCK (5.10)", diff_feat->nonblock, 5, 10 },
		{ "PIDFD_THREAD (6.9)", diff_feat->thread, 6, 9 },
		{ "PIDFD_SIGNAL_* (6.9)", diff_feat->signal_flags, 6, 9 },
		{ "POLLHUP after reap (6.9)", diff_feat->pollhup, 6, 9 },
		{ "PIDFD_GET_INFO (6.13)", diff_feat->get_info, 6, 13 },
		{ "PIDFD_INFO_EXIT (6.15)", diff_feat->info_exit, 6, 15 },
		{ "Landlock signal scope (6.12)", diff_feat->landlock_abi >= 6, 6, 12 },
	};

	ck_assert_msg(libpidfd_probe() == 0, "module not usable: %s",
		      libpidfd_strerror(errno));
	printf("[differential] kernel %d.%d native features:\n", diff_feat->kmajor,
	       diff_feat->kminor);
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		bool want = pt_kernel_at_least(feats[i].maj, feats[i].min);

		printf("[differential]   %-32s %s\n", feats[i].name,
		       feats[i].have ? "yes" : "no (module only)");
		ck_assert_msg(feats[i].have == want,
			      "probe of %s says %d on %d.%d", feats[i].name,
			      feats[i].have, diff_feat->kmajor, diff_feat->kminor);
	}
	printf("[differential]   Landlock ABI %d\n", diff_feat->landlock_abi);
	fflush(stdout);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Opening                                                              */
/* ------------------------------------------------------------------ */

/* pidfd_open (5.3) errors: both backends, same errno. */
START_TEST(test_open_errors)
{
	pid_t reaped = pt_fork_exit(0);
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

	pt_reap(reaped);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pair p = open_pair(cases[i].pid, cases[i].flags);

		ck_assert_msg(p.fd[DB_NATIVE] < 0 && p.err[DB_NATIVE] == cases[i].err,
			      "%s: native %d/%s, want %s", cases[i].what,
			      p.fd[DB_NATIVE], pt_errname(p.err[DB_NATIVE]),
			      pt_errname(cases[i].err));
		ck_assert_msg(p.fd[DB_MODULE] < 0 && p.err[DB_MODULE] == cases[i].err,
			      "%s: module %d/%s, native %s", cases[i].what,
			      p.fd[DB_MODULE], pt_errname(p.err[DB_MODULE]),
			      pt_errname(cases[i].err));
		close_pair(&p);
	}
}
END_TEST

#define FL_MASK (O_ACCMODE | O_NONBLOCK | O_EXCL)

static void check_same_file_shape(struct pair *p, const char *what)
{
	char link[2][128];
	char c;

	for (int b = 0; b < 2; b++) {
		ssize_t n;

		ck_assert_msg(p->fd[b] >= 0, "%s: %s open failed: %s", what,
			      db_backend_name(b), pt_errname(p->err[b]));
		ck_assert_msg(fcntl(p->fd[b], F_GETFD) & FD_CLOEXEC,
			      "%s: %s pidfd not cloexec", what,
			      db_backend_name(b));
		n = pt_fd_link(p->fd[b], link[b], sizeof(link[b]));
		ck_assert_int_gt(n, 0);
		/* read(2) is EINVAL on both */
		ck_assert_msg(read(p->fd[b], &c, 1) < 0 && errno == EINVAL,
			      "%s: %s read: %s", what, db_backend_name(b),
			      pt_errname(errno));
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
	pid_t zombie = pt_fork_exit(3);
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
	ck_assert_int_eq(pt_wait_zombie(zombie), 0);
	p = open_pair(zombie, 0);
	check_same_file_shape(&p, "zombie");
	close_pair(&p);
	pt_reap(zombie);

	p = open_pair(getpid(), PIDFD_THREAD);
	if (diff_feat->thread) {
		check_same_file_shape(&p, "PIDFD_THREAD");
	} else {
		ck_assert_msg(p.fd[0] < 0 && p.err[0] == EINVAL,
			      "native PIDFD_THREAD before 6.9: %s",
			      pt_errname(p.err[0]));
		ck_assert_msg(p.fd[1] >= 0, "module PIDFD_THREAD: %s",
			      pt_errname(p.err[1]));
		db_native_skipped("open PIDFD_THREAD", "PIDFD_THREAD",
				  pt_kernel_has_pidfd_thread());
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
	thread_tid = pt_gettid();
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
		      p0.err[0] == (pt_kernel_at_least(6, 15) ? ENOENT : EINVAL),
		      "open(tid, 0): native %d/%s, module %d/%s", p0.fd[0],
		      pt_errname(p0.err[0]), p0.fd[1], pt_errname(p0.err[1]));

	pt = open_pair(tid, PIDFD_THREAD);
	pp = open_pair(mypid, 0);
	ck_assert_msg(pt.fd[1] >= 0, "module open(tid, PIDFD_THREAD): %s",
		      pt_errname(pt.err[1]));
	if (diff_feat->thread)
		ck_assert_msg(pt.fd[0] >= 0, "native open(tid, PIDFD_THREAD): %s",
			      pt_errname(pt.err[0]));
	else
		ck_assert_msg(pt.fd[0] < 0 && pt.err[0] == EINVAL,
			      "native PIDFD_THREAD before 6.9: %s",
			      pt_errname(pt.err[0]));

	/* Alive: nothing to read on any of them. */
	for (int b = 0; b < 2; b++) {
		ck_assert_int_eq(pt_poll1(pp.fd[b], POLLIN, 0), 0);
		if (pt.fd[b] >= 0)
			ck_assert_int_eq(pt_poll1(pt.fd[b], POLLIN, 0), 0);
	}
	stop_idle_thread(th);
	for (int64_t end = pt_now_ms() + WAIT_MS; !task_gone(tid) &&
	     pt_now_ms() < end;)
		usleep(1000);
	ck_assert(task_gone(tid));

	for (int b = 0; b < 2; b++) {
		int ev;

		if (pt.fd[b] < 0)
			continue;
		ev = pt_poll1(pt.fd[b], POLLIN, WAIT_MS);
		ck_assert_msg(ev & POLLIN, "%s thread pidfd after thread exit: "
			      "revents %#x", db_backend_name(b), ev);
		/* The thread has been released: POLLHUP on both (6.9+). */
		ck_assert_msg(pt_poll1(pt.fd[b], POLLIN, WAIT_MS) & POLLHUP,
			      "%s thread pidfd: no POLLHUP once released",
			      db_backend_name(b));
		/* The process lives on. */
		ck_assert_int_eq(pt_poll1(pp.fd[b], POLLIN, 0), 0);
	}
	/* Signals to the gone thread: ESRCH, as tgkill(2) (the process
	 * lives on). */
	ck_assert_int_eq(CALL(db_tgkill(mypid, tid, 0)), ESRCH);
	for (int b = 0; b < 2; b++)
		if (pt.fd[b] >= 0)
			ck_assert_int_eq(CALL(db_send(b, pt.fd[b], SIGUSR1, NULL,
						      0)), ESRCH);
	if (!diff_feat->thread) {
		db_native_skipped("thread pidfd poll", "PIDFD_THREAD",
				  pt_kernel_has_pidfd_thread());
		diff_asserted(D_THREAD_POLL, "module POLLIN|POLLHUP after the "
			      "thread's release");
	}
	close_pair(&pt);
	close_pair(&pp);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("differential_open");

	tcase_add_test(diff_tcase(s, "features"), test_features);
	pt_add_tests(diff_tcase(s, "open"), test_open_errors, test_open_flags,
		     test_open_thread_id);
	return s;
}

int main(void)
{
	return diff_main(suite());
}
