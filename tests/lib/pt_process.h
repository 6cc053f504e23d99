/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Processes, threads, waiting and time for tests. No Check: the fuzzer,
 * the stress test, the benchmark and the 32-bit programs link it as the
 * Check suites do.
 *
 * Fork with pt_fork(), never fork(): a plain child of a Check test keeps
 * Check's SIGTERM handler, which turns a SIGTERM sent to the child into
 * one for the test's whole process group, the test included.
 */
#ifndef PT_PROCESS_H
#define PT_PROCESS_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

pid_t pt_gettid(void);
/*
 * fork() for tests: the child gets the default action for the signals
 * Check handles (its SIGTERM handler would forward to the whole group) and
 * those a test may catch, and PR_SET_PDEATHSIG SIGKILL.
 */
pid_t pt_fork(void);
/* The same with clone(2) @flags (CLONE_NEWPID...): fork() when 0. */
pid_t pt_clone(unsigned long flags);
/* A child that waits (pause) until killed; dies with its parent. */
pid_t pt_fork_sleeper(void);
/* A child that exits at once with @code. */
pid_t pt_fork_exit(int code);
/*
 * pt_fork() for pid number @nr of the caller's pid namespace (which it
 * must own, e.g. as its init): the child's number, which the caller
 * compares with @nr; -1 if ns_last_pid cannot be set.
 */
pid_t pt_fork_at(pid_t nr);
/* pt_fork_sleeper() and pt_fork_exit() for pid number @nr, as above. */
pid_t pt_fork_sleeper_at(pid_t nr);
pid_t pt_fork_exit_at(pid_t nr, int code);
/* waitpid() retrying on EINTR; the raw status, or -1. */
int pt_waitpid(pid_t pid, int *status, int options);
/* Reaps @pid: its raw wait status, or -1. */
int pt_reap_status(pid_t pid);
/* Reaps @pid: its exit code, 128 + signal if killed, -1 on error. */
int pt_reap(pid_t pid);
/* Waits until @pid is a zombie, without reaping it. 0 or -1. */
int pt_wait_zombie(pid_t pid);
/* Kills and reaps. */
void pt_kill_reap(pid_t pid);
/* setgroups(0), setresgid(gid), setresuid(uid). 0 or -1. */
int pt_drop_privs(uid_t uid, gid_t gid);
/*
 * In a test's child: become uid 65534 (still dumpable) in a user and
 * mount namespace of its own, its mounts private: the attacker of the
 * hostile-caller suites. Exits the child (PT_REQUIRE) if it cannot.
 */
void pt_become_hostile(void);
/*
 * In a pt_run() child: pt_become_hostile(), then run @init_main as init of
 * a pid namespace of its own. Returns 0 if it returned 0.
 */
int pt_run_hostile_init(int (*init_main)(void));
/*
 * no_new_privs, then seccomp(2) installs the BPF filter of @len
 * instructions @code on this thread with @flags (SECCOMP_FILTER_FLAG_*):
 * its result (with NEW_LISTENER, the listener's fd), or -1.
 */
struct sock_filter;
int pt_seccomp_filter(struct sock_filter *code, unsigned short len,
		      unsigned int flags);
/* Is capability @cap (CAP_SYS_ADMIN...) in our effective set? */
bool pt_has_cap(int cap);
/* Does @pid exist and is it not a zombie? (/proc/<pid>/stat state) */
bool pt_alive(pid_t pid);
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

/* A pipe used to say "ready" / "go" between processes. */
struct pt_sync { int fd[2]; };
void pt_sync_init(struct pt_sync *s);
/* Writes an int; reads one (-1 on EOF/timeout, after @timeout_ms). */
void pt_sync_put(struct pt_sync *s, int v);
int pt_sync_get(struct pt_sync *s, int timeout_ms);
void pt_sync_close(struct pt_sync *s);
/*
 * A process that is not our child: our child @mid forks @pid, and reaps
 * it once it exits. @pid waits for pt_non_child_go(), then raises @sig if
 * nonzero, else exits with @code. Returns @pid, -1 if it was not forked.
 */
struct pt_non_child { pid_t pid, mid; struct pt_sync go; };
pid_t pt_fork_non_child(struct pt_non_child *nc, int code, int sig);
void pt_non_child_go(struct pt_non_child *nc);
/* Reaps @mid: 0 if it reaped @pid, which ended as asked; else nonzero. */
int pt_non_child_end(struct pt_non_child *nc);
/* In a child: says 1 through @ready, then waits to be killed. */
void pt_ready_then_pause(struct pt_sync *ready) __attribute__((noreturn));
/*
 * A child that runs @prepare(@arg), says it is ready and waits to be
 * killed: its pid once it is ready, or -1 (the child reaped) if it could
 * not be forked or @prepare returned nonzero.
 */
pid_t pt_fork_prepared(int (*prepare)(void *), void *arg);
/* A thread body: reports its TID through the pt_sync @arg, then idles. */
void *pt_idle_thread(void *arg);
/* Starts a detached pt_idle_thread(): its TID, or -1. */
pid_t pt_start_idle_thread(void);

/*
 * Counts, atomically, the result of a call that races an exit: into @ok
 * if it worked, into @esrch for ESRCH. False for any other result, which
 * the caller reports.
 */
struct pt_race_counts { unsigned long ok, esrch; };
bool pt_race_count(struct pt_race_counts *c, int ret, int err);

/* CLOCK_MONOTONIC in milliseconds. */
int64_t pt_now_ms(void);
/* poll() one fd for @events: revents, 0 on timeout, -1 on error. */
int pt_poll1(int fd, short events, int timeout_ms);
/*
 * rt_sigtimedwait(2) without glibc, which folds SI_TKILL into SI_USER.
 * The signal number, or -1/errno (EAGAIN on timeout).
 */
int pt_sigtimedwait(const sigset_t *set, siginfo_t *si, int timeout_ms);

/*
 * Fills @si as a caller of rt_sigqueueinfo(2) does: @sig, @code, our pid
 * and uid, and @value. Returns @si.
 */
siginfo_t *pt_siginfo(siginfo_t *si, int sig, int code, int value);

/* An address that is never mapped (for EFAULT). */
void *pt_bad_ptr(void);
/* "EINVAL" for EINVAL, "0" for 0, never NULL. */
const char *pt_errname(int err);

/*
 * fork() of a child that pauses until killed, for a test's own child to
 * make: no PDEATHSIG, so that it outlives its parent (an heir holding a
 * file, the init of a pid namespace the parent made). -1 if fork failed.
 */
pid_t pt_fork_lasting_sleeper(void);

#endif /* PT_PROCESS_H */
