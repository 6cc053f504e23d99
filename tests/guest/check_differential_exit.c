// SPDX-License-Identifier: GPL-2.0
/*
 * Differential suite: Exit: poll, waitid against PIDFD_INFO_EXIT, GET_INFO, fdinfo.
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
/* Exit: poll, waitid vs PIDFD_INFO_EXIT, GET_INFO, fdinfo              */
/* ------------------------------------------------------------------ */

/* poll (5.3 POLLIN; POLLHUP 6.9) alive, zombie, reaped. */
START_TEST(test_poll_exit)
{
	pid_t child = pt_fork_sleeper();
	struct pair p = open_pair(child, 0);
	int ev[2];

	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	for (int b = 0; b < 2; b++)
		ck_assert_int_eq(pt_poll1(p.fd[b], POLLIN, 0), 0);
	kill(child, SIGKILL);
	ck_assert_int_eq(pt_wait_zombie(child), 0);
	for (int b = 0; b < 2; b++) {
		ev[b] = pt_poll1(p.fd[b], POLLIN, WAIT_MS);
		ck_assert_msg(ev[b] & POLLIN, "%s zombie: %#x",
			      db_backend_name(b), ev[b]);
		ck_assert_msg(!(ev[b] & POLLHUP), "%s zombie: POLLHUP",
			      db_backend_name(b));
	}
	ck_assert_int_eq(ev[0], ev[1]);
	pt_reap(child);
	for (int b = 0; b < 2; b++)
		ev[b] = pt_poll1(p.fd[b], POLLIN, WAIT_MS);
	ck_assert_int_eq(ev[1], POLLIN | POLLHUP);
	if (diff_feat->pollhup) {
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
	pid_t child = pt_fork();
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
	t0 = pt_now_ms();
	for (int b = 0; b < 2; b++)
		ck_assert_int_eq(pt_poll1(p.fd[b], POLLIN, 300), 0);
	for (int b = 0; b < 2; b++)
		ck_assert(pt_poll1(p.fd[b], POLLIN, WAIT_MS) & POLLIN);
	/* Not before the other thread's exit (3 s after the start). */
	ck_assert_int_ge(pt_now_ms() - t0, 300);
	pt_reap(child);
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
		struct pidfd_dev_info ni, mi;
		siginfo_t si;
		int status = -1, ready[2];
		pid_t child;
		char c;

		ck_assert_int_eq(pipe2(ready, O_CLOEXEC), 0);
		child = pt_fork();
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
		ck_assert(pt_poll1(p.fd[0], POLLIN, WAIT_MS) & POLLIN);
		/* A zombie: not yet (module EAGAIN; native no EXIT bit). */
		ck_assert_int_eq(CALL(libpidfd_exit_status(p.fd[1], &status)),
				 EAGAIN);
		if (diff_feat->get_info) {
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
				      how[i], pt_errname(r));
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
			struct pidfd_dev_info none;

			/* Reaped, EXIT not asked: ESRCH. */
			ck_assert_int_eq(CALL(db_get_info(DB_MODULE, p.fd[1],
							  &none, 0)), ESRCH);
		}
		if (diff_feat->info_exit) {
			ck_assert_int_eq(db_get_info(DB_NATIVE, p.fd[0], &ni,
						     PIDFD_INFO_EXIT), 0);
			ck_assert(ni.mask & PIDFD_INFO_EXIT);
			ck_assert_int_eq(ni.exit_code, mi.exit_code);
			ck_assert_int_eq(ni.mask & (PIDFD_INFO_EXIT | PIDFD_INFO_CREDS),
					 mi.mask & (PIDFD_INFO_EXIT | PIDFD_INFO_CREDS));
		} else if (i == 0) {
			db_native_skipped("exit status after reap",
					  "PIDFD_INFO_EXIT",
					  pt_kernel_has_info_exit());
		}
		if (diff_feat->get_info)
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
		pid_t child = pt_fork();
		int fd, status = -1, r;
		siginfo_t si;

		if (child == 0)
			_exit(i & 0x7f);
		ck_assert_int_gt(child, 0);
		fd = libpidfd_open(child, 0);
		ck_assert_msg(fd >= 0, "open: %s", pt_errname(errno));
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
		      lost, n, pt_errname(first_err));
}
END_TEST

/* PIDFD_GET_INFO (6.13): the same fields from both. */
START_TEST(test_get_info)
{
	static const struct db_creds c = { .name = "info target", .ruid = 1001,
		.euid = 1002, .suid = 1003, .gid = 2001 };
	struct db_target t;
	struct pair p, pt;
	struct pidfd_dev_info ni, mi;

	start_target(&t, &c, false);
	p = open_pair(t.pid, 0);
	pt = open_pair(t.tid, PIDFD_THREAD);
	ck_assert(p.fd[1] >= 0 && pt.fd[1] >= 0);
	ck_assert_int_eq(db_get_info(DB_MODULE, p.fd[1], &mi, 0), 0);
	ck_assert(mi.mask & PIDFD_INFO_PID && mi.mask & PIDFD_INFO_CREDS);
	ck_assert_int_eq(mi.pid, t.pid);
	ck_assert_int_eq(mi.tgid, t.pid);
	ck_assert_int_eq(mi.ppid, getpid());
	pt_assert_uids(&mi, 1001, 1002, 1003);
	ck_assert_int_eq(mi.rgid, 2001);
	if (diff_feat->get_info) {
		ck_assert_int_eq(db_get_info(DB_NATIVE, p.fd[0], &ni, 0), 0);
		ck_assert_int_eq(ni.mask & ~(uint64_t)PIDFD_INFO_SUPPORTED_MASK,
				 mi.mask & ~(uint64_t)PIDFD_INFO_SUPPORTED_MASK);
		ck_assert(!memcmp(&ni.cgroupid, &mi.cgroupid,
				  offsetof(struct pidfd_dev_info, exit_code) -
				  offsetof(struct pidfd_dev_info, cgroupid)));
		if (diff_feat->thread && pt.fd[0] >= 0) {
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
		db_native_skipped("PIDFD_GET_INFO", "PIDFD_GET_INFO",
				  pt_kernel_has_get_info());
	}
	close_pair(&p);
	close_pair(&pt);
	db_target_stop(&t, true);
}
END_TEST

/* fdinfo Pid:/NSpid: (5.x): the same lines, alive, in a child pid ns, dead. */
START_TEST(test_fdinfo)
{
	pid_t child = pt_fork_sleeper();
	struct pair p = open_pair(child, 0);
	char v[2][128];
	const char *keys[] = { "Pid:", "NSpid:" };
	int sync[2];
	pid_t mid, inner = 0;

	ck_assert(p.fd[0] >= 0 && p.fd[1] >= 0);
	for (size_t k = 0; k < 2; k++) {
		for (int b = 0; b < 2; b++)
			ck_assert_int_eq(pt_fdinfo_field(NULL, 0, p.fd[b],
							 keys[k], v[b], 128), 0);
		ck_assert_str_eq(v[0], v[1]);
	}
	ck_assert_int_eq(atoi(v[1]), child);
	pt_kill_reap(child);
	for (size_t k = 0; k < 2; k++) {
		for (int b = 0; b < 2; b++) {
			ck_assert_int_eq(pt_fdinfo_field(NULL, 0, p.fd[b],
							 keys[k], v[b], 128), 0);
			ck_assert_str_eq(v[b], "\t-1");
		}
	}
	close_pair(&p);

	/* A process that is pid 1 of a child pid namespace. */
	ck_assert_int_eq(pipe2(sync, O_CLOEXEC), 0);
	mid = pt_fork();
	if (mid == 0) {
		pid_t c;

		if (unshare(CLONE_NEWPID))
			_exit(1);
		c = pt_fork_lasting_sleeper();
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
		ck_assert_int_eq(pt_fdinfo_field(NULL, 0, p.fd[b], "NSpid:",
						 v[b], 128), 0);
	ck_assert_str_eq(v[0], v[1]);
	{
		char want[64];

		snprintf(want, sizeof(want), "\t%d\t1", inner);
		ck_assert_str_eq(v[1], want);
	}
	close_pair(&p);
	kill(inner, SIGKILL);
	pt_reap(mid);
	close(sync[0]);
	close(sync[1]);
}
END_TEST

PT_SUITE_MAIN_WITH(diff_main, TIMEOUT, "differential_exit", test_poll_exit,
		   test_poll_leader_first, test_exit_status,
		   test_exit_status_open_race, test_get_info, test_fdinfo)
