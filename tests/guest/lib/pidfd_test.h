/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the guest test suites (tests/guest/check_*.c).
 *
 * The layers below it, in tests/lib, need no Check: pt_ioctl.h (the
 * module's ioctls, raw), pt_process.h (processes, threads, time) and
 * pt_files.h (/proc, sysfs), pt_kernel.h (what the running kernel has,
 * probed). check_glue.h is the Check glue. This header
 * adds what asserts through Check or knows the running kernel.
 *
 * Processes forked by a test must never return into Check: they end with
 * _exit(). Failures inside a child are reported to the test process through
 * pt_run()'s message pipe (pt_msg()) and the child's exit code.
 *
 * A child must not call Check at all, not even a passing ck_assert*():
 * every assertion writes a record into the message file the test shares
 * with Check's runner, and a child killed in the middle of that write
 * leaves a torn record ("Bad message type" when the runner reads it).
 * So assert on fork()'s result after the child's branch, never before:
 *
 *	pid = pt_fork();
 *	if (pid == 0) { ...; _exit(0); }
 *	ck_assert_int_gt(pid, 0);
 *
 * Fork with pt_fork(), never fork() (pt_process.h says why).
 */
#ifndef PIDFD_TEST_H
#define PIDFD_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <check.h>

#include "../../lib/check_glue.h"
#include "../../lib/pt_files.h"
#include "../../lib/pt_ioctl.h"
#include "../../lib/pt_kernel.h"
#include "../../lib/pt_process.h"
#include "pt_rand.h"

#define PT_NOBODY		65534
#define PT_USER			1000

/* The seed selftests' pid: above RESERVED_PIDS (300) so it can be recycled. */
#define PT_PID_RECYCLE		1000

/* pt_open() that aborts the test on failure. */
int pt_open_ok(pid_t pid, unsigned int flags);

/*
 * The errno the running kernel's pidfd_open(2) gives for @tid, a thread
 * other than the leader, without PIDFD_THREAD (EINVAL, ENOENT from 6.15).
 */
int pt_kernel_tid_open_errno(pid_t tid);
/* Is the running kernel @major.@minor or newer? */
bool pt_kernel_at_least(int major, int minor);
/*
 * What pidfd_open(2), and so PIDFD_DEV_OPEN, says for a number that is
 * still allocated but whose task is reaped: EINVAL, ESRCH from 6.15.
 */
int pt_reaped_open_errno(void);
/*
 * Is @err what PIDFD_DEV_OPEN(nr, 0) may say for a number whose process
 * is gone: ESRCH, the reaped errno, or (the number now a thread's) the
 * thread errno?
 */
bool pt_open_gone_errno(int err);
/*
 * Waits up to 10 s for @pid to be no longer pt_alive() and fails the test
 * if it still is: a leader that has left while its threads live on, which
 * wait(2) does not report yet.
 */
void pt_wait_exited(pid_t pid);
/*
 * In a pt_run() child that owns its pid namespace: a module pidfd of a
 * process that had number PT_PID_RECYCLE and is reaped, so that the number
 * is free for the next pt_fork_at(). Ends the child on failure.
 */
int pt_open_reaped_recycled(void);
/* unshare(CLONE_NEWPID): our next child is pid 1 of a new pid namespace. */
void pt_unshare_pidns(void);

/* Runs fn as a pt_run() child and asserts it returned 0. */
#define pt_assert_child(fn, arg) do { \
	char __msg[4096] = ""; \
	int __rc = pt_run((fn), (arg), __msg, sizeof(__msg)); \
	ck_assert_msg(__rc == 0, "child %s exited %d: %s", #fn, __rc, __msg); \
} while (0)

/*
 * Runs @fn as a pt_run() child that is pid 1 of a new pid namespace,
 * /dev/pidfd opened before (the recycling tests' setting).
 */
#define pt_assert_child_in_new_pidns(fn, arg) do { \
	ck_assert_ok(pt_dev()); \
	pt_unshare_pidns(); \
	pt_assert_child((fn), (arg)); \
} while (0)

/*
 * A child process with a second thread that calls execve(2) on command
 * (the exec corner of docs/differences.md, "Poll"). The leader idles until
 * pt_exec_child_leader_exit(); the thread until pt_exec_child_exec(), then
 * it execs /bin/sleep 30, taking over the process's PID while its own
 * thread ID goes away with the old leader.
 */
struct pt_exec_child {
	pid_t pid;		/* the process (its leader's TID) */
	pid_t tid;		/* the thread that execs */
	struct pt_sync ready;	/* child to test: the thread's TID */
	struct pt_sync leave;	/* test to leader: SYS_exit(code) */
	struct pt_sync exec;	/* test to thread: exec after N ms */
};
void pt_fork_exec_child(struct pt_exec_child *c);
/* The leader alone leaves with SYS_exit(@code); returns once it is a zombie. */
void pt_exec_child_leader_exit(struct pt_exec_child *c, int code);
/* The thread execs @delay_ms from now. */
void pt_exec_child_exec(struct pt_exec_child *c, int delay_ms);
/* Kills and reaps the process, closes the pipes. */
void pt_exec_child_end(struct pt_exec_child *c);

/*
 * Asserts @info's real, effective and saved uids, and its fsuid as the
 * effective one (as setresuid() leaves it); the same for its gids.
 */
void pt_assert_uids(const struct pidfd_dev_info *info, uid_t r, uid_t e,
		    uid_t s);
void pt_assert_gids(const struct pidfd_dev_info *info, gid_t r, gid_t e,
		    gid_t s);

/*
 * Asserts that the status file of @procdir, a /proc/<pid> directory,
 * shows "Pid:\t@pid": the directory is the process's.
 */
void pt_assert_status_pid(int procdir, pid_t pid);

#endif /* PIDFD_TEST_H */
