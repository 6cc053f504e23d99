/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the guest test suites (tests/guest/check_*.c).
 *
 * Everything here talks to the module through the raw ioctls of
 * <linux/pidfd_dev.h>, never through libpidfd: the library is tested on its
 * own. The helpers follow the syscall convention (-1 and errno) so the
 * tests can assert errno values exactly.
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
 * Fork with pt_fork() (or db_fork()), never fork(): a plain child keeps
 * Check's SIGTERM handler, which turns a SIGTERM sent to the child into
 * one for the test's whole process group, the test included.
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
#include <linux/pidfd_dev.h>
#include "pt_rand.h"

#define PT_DEV_PATH		"/dev/pidfd"
#define PT_LIVE_PIDFDS		"/sys/module/pidfd/parameters/live_pidfds"
#define PT_LIVE_PIDS		"/sys/module/pidfd/parameters/live_pids"
#define PT_MODULE_REFCNT	"/sys/module/pidfd/refcnt"
#define PT_NOBODY		65534
#define PT_USER			1000

/* The seed selftests' pid: above RESERVED_PIDS (300) so it can be recycled. */
#define PT_PID_RECYCLE		1000


/* PIDFD_GET_INFO and PIDFD_DEV_OPEN/SEND_SIGNAL with another struct size. */
#define PT_GET_INFO_CMD(size) \
	_IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11, (size))
#define PT_OPEN_CMD(size) \
	_IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 1, (size))
#define PT_SIGNAL_CMD(size) \
	_IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 2, (size))

/* ---- raw ioctls ---------------------------------------------------- */

/* The control fd (opened once per process, O_CLOEXEC); -1 on failure. */
int pt_dev(void);
/* Forget (and close) the cached control fd. */
void pt_dev_close(void);
/* PIDFD_DEV_OPEN: a new pidfd or -1/errno. */
int pt_open(pid_t pid, unsigned int flags);
/* pt_open() that aborts the test on failure. */
int pt_open_ok(pid_t pid, unsigned int flags);
/* PIDFD_DEV_SEND_SIGNAL: 0 or -1/errno. */
int pt_send_signal(int pidfd, int sig, const siginfo_t *info,
		   unsigned int flags);
/* PIDFD_GET_INFO with sizeof(struct pidfd_info). */
int pt_get_info(int pidfd, struct pidfd_info *info, uint64_t mask);
/* PIDFD_GET_PROCFD: a new fd or -1/errno. */
int pt_get_procfd(int pidfd, int procfd);
/* PIDFD_DEV_OPEN_PROCDIR: a new pidfd from a /proc dir fd, or -1/errno. */
int pt_open_procdir(int dirfd, unsigned int flags);
/* PIDFD_DEV_OPEN_PEER. */
int pt_open_peer(int sockfd, unsigned int flags);
/* The Pid: line of @pidfd's fdinfo (in /proc's namespace); 0 if none. */
pid_t pt_pidfd_pid(int pidfd);

/* ---- processes ----------------------------------------------------- */

pid_t pt_gettid(void);
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
 * fork() for tests: the child gets the default action for the signals
 * Check handles (its SIGTERM handler would forward to the whole group)
 * and PR_SET_PDEATHSIG SIGKILL.
 */
pid_t pt_fork(void);
/* The same with clone(2) @flags (CLONE_NEWPID...): fork() when 0. */
pid_t pt_clone(unsigned long flags);
/* A child that waits (pause) until killed; dies with its parent. */
pid_t pt_fork_sleeper(void);
/* A child that exits at once with @code. */
pid_t pt_fork_exit(int code);
/* waitpid() retrying on EINTR; the raw status, or -1. */
int pt_waitpid(pid_t pid, int *status, int options);
/* Reaps @pid: its exit code, 128 + signal if killed, -1 on error. */
int pt_reap(pid_t pid);
/* Waits until @pid is a zombie, without reaping it. 0 or -1. */
int pt_wait_zombie(pid_t pid);
/* Kills and reaps. */
void pt_kill_reap(pid_t pid);
/* setgroups(0), setresgid(gid), setresuid(uid). 0 or -1. */
int pt_drop_privs(uid_t uid, gid_t gid);
/* Does @pid exist and is it not a zombie? (/proc/<pid>/stat state) */
bool pt_alive(pid_t pid);
/*
 * Waits up to 10 s for @pid to be no longer pt_alive() and fails the test
 * if it still is: a leader that has left while its threads live on, which
 * wait(2) does not report yet.
 */
void pt_wait_exited(pid_t pid);
/* Is our child @pid still running (not exited)? Works in any pid ns. */
bool pt_child_running(pid_t pid);

/*
 * Runs @fn in a forked child and waits for it. The child's pt_msg() text
 * lands in @msg. Returns the child's exit code (fn's return value), or
 * 128 + signal if it was killed, or -1 if fork failed.
 */
int pt_run(int (*fn)(void *), void *arg, char *msg, size_t msglen);
/* In a pt_run() child: append a message for the test process. */
void pt_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* In a pt_run() child: pt_msg() and return 1 from the function. */
#define PT_FAIL(...) do { pt_msg(__VA_ARGS__); return 1; } while (0)
/* In a pt_run() child: check a condition. */
#define PT_CHECK(cond, ...) do { \
	if (!(cond)) { pt_msg("%s:%d: %s: ", __FILE__, __LINE__, #cond); \
		       PT_FAIL(__VA_ARGS__); } } while (0)
/* The same in a helper of a pt_run() child: ends the child with 1. */
#define PT_REQUIRE(cond, ...) do { \
	if (!(cond)) { pt_msg("%s:%d: %s: ", __FILE__, __LINE__, #cond); \
		       pt_msg(__VA_ARGS__); _exit(1); } } while (0)

/* Runs fn as a pt_run() child and asserts it returned 0. */
#define pt_assert_child(fn, arg) do { \
	char __msg[4096] = ""; \
	int __rc = pt_run((fn), (arg), __msg, sizeof(__msg)); \
	ck_assert_msg(__rc == 0, "child %s exited %d: %s", #fn, __rc, __msg); \
} while (0)

/* A pipe used to say "ready" / "go" between processes. */
struct pt_sync { int fd[2]; };
void pt_sync_init(struct pt_sync *s);
/* Writes an int; reads one (-1 on EOF/timeout, after @timeout_ms). */
void pt_sync_put(struct pt_sync *s, int v);
int pt_sync_get(struct pt_sync *s, int timeout_ms);
void pt_sync_close(struct pt_sync *s);
/* A thread body: reports its TID through the pt_sync @arg, then idles. */
void *pt_idle_thread(void *arg);

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

/* ---- /proc and friends --------------------------------------------- */

/* A small file's text, trailing newlines cut, NUL-terminated. 0 or -1. */
int pt_read_text(const char *path, char *buf, size_t len);
/*
 * Reads the line starting with @key from @path (e.g. "Pid:") into @out,
 * without the key and without the trailing newline, the tab kept as is.
 * 0 on success, -1 if the file cannot be read or the key is absent.
 */
int pt_read_field(const char *path, const char *key, char *out, size_t len);
/* The same, for a file relative to a directory fd. */
int pt_read_field_at(int dirfd, const char *path, const char *key,
		     char *out, size_t len);
/* The fdinfo field @key for descriptor @fd of process @pid ("self" if 0)
 * as the procfs at @procroot ("/proc" when NULL) shows it. */
int pt_fdinfo_field(const char *procroot, pid_t pid, int fd, const char *key,
		    char *out, size_t len);
/* Pending-signal masks of a thread: SigPnd and ShdPnd of its status. */
int pt_thread_pending(pid_t pid, pid_t tid, uint64_t *sigpnd,
		      uint64_t *shdpnd);
/* Writes @last to /proc/sys/kernel/ns_last_pid. 0 or -1. */
int pt_set_ns_last_pid(pid_t last);
/*
 * pt_fork() for pid number @nr of the caller's pid namespace (which it
 * must own, e.g. as its init): the child's number, which the caller
 * compares with @nr; -1 if ns_last_pid cannot be set.
 */
pid_t pt_fork_at(pid_t nr);
/* pt_fork_sleeper() and pt_fork_exit() for pid number @nr, as above. */
pid_t pt_fork_sleeper_at(pid_t nr);
pid_t pt_fork_exit_at(pid_t nr, int code);
/* Reads a decimal number from a file. 0 or -1. */
int pt_read_long(const char *path, long *val);
/* The number in environment variable @name (any base strtoul takes), or
 * @dflt when it is unset or empty: the knobs of the long-running suites. */
unsigned long pt_env_ulong(const char *name, unsigned long dflt);
/*
 * delete_module("pidfd", O_NONBLOCK): 0 or -1/errno. Only ever call it
 * while the caller holds something that pins the module (a pidfd, or
 * /dev/pidfd open; PT_MODULE_REFCNT > 0), so that it must fail: the
 * harness does the real rmmod.
 */
int pt_try_unload(void);
/*
 * unshare(CLONE_NEWNS) and make every mount private, so that mounts made
 * afterwards stay in this test. 0 or -1.
 */
int pt_private_mounts(void);
/* Makes a fresh temporary directory; its path in @buf. 0 or -1. */
int pt_tmpdir(char *buf, size_t len);

/* ---- time ---------------------------------------------------------- */

/* CLOCK_MONOTONIC in milliseconds. */
int64_t pt_now_ms(void);
/* poll() one fd for @events: revents, 0 on timeout, -1 on error. */
int pt_poll1(int fd, short events, int timeout_ms);

/*
 * rt_sigtimedwait(2) without glibc, which folds SI_TKILL into SI_USER.
 * The signal number, or -1/errno (EAGAIN on timeout).
 */
int pt_sigtimedwait(const sigset_t *set, siginfo_t *si, int timeout_ms);

/* An address that is never mapped (for EFAULT). */
void *pt_bad_ptr(void);

/* ---- Check glue ---------------------------------------------------- */

/* "EINVAL" for EINVAL, "0" for 0, never NULL. */
const char *pt_errname(int err);

/* Asserts that @expr returned -1 with errno @err. */
#define ck_assert_errno(expr, err) do { \
	errno = 0; \
	long __r = (long)(expr); \
	int __e = errno; \
	ck_assert_msg(__r == -1 && __e == (err), \
		      "%s: expected -1/%s, got %ld/%s", #expr, \
		      pt_errname(err), __r, \
		      __r == -1 ? pt_errname(__e) : "-"); \
} while (0)

/* Asserts that @expr returned >= 0, reporting errno otherwise. */
#define ck_assert_ok(expr) ({ \
	errno = 0; \
	long __r = (long)(expr); \
	int __e = errno; \
	ck_assert_msg(__r >= 0, "%s failed: %ld/%s", #expr, __r, \
		      pt_errname(__e)); \
	__r; \
})


#endif /* PIDFD_TEST_H */
