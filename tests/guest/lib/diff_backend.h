/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the differential suite (tests/guest/check_differential_*.c):
 * the two backends (the kernel's own pidfd calls, and the module through
 * libpidfd), run-time probes of the native features, and small "servers"
 * (a signal target and a signal sender with given credentials) that the
 * test process drives over pipes.
 *
 * Everything follows the syscall convention: -1 and errno.
 * All names start with db_ so that they cannot clash with the other
 * helpers linked into every guest suite.
 */
#ifndef DIFF_BACKEND_H
#define DIFF_BACKEND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/pidfd_dev.h>

enum db_backend { DB_NATIVE, DB_MODULE };

const char *db_backend_name(enum db_backend b);

/* ---- native features, probed at run time ---------------------------- */

struct db_features {
	int kmajor, kminor;	/* from uname(2) */
	bool open;		/* pidfd_open(2): 5.3 */
	bool send_signal;	/* pidfd_send_signal(2): 5.1 */
	bool waitid;		/* waitid(P_PIDFD): 5.4 */
	bool nonblock;		/* PIDFD_NONBLOCK: 5.10 */
	bool thread;		/* PIDFD_THREAD: 6.9 */
	bool signal_flags;	/* PIDFD_SIGNAL_*: 6.9 */
	bool pollhup;		/* POLLHUP once reaped: 6.9 */
	bool get_info;		/* PIDFD_GET_INFO: 6.13 */
	bool info_exit;		/* PIDFD_INFO_EXIT: 6.15 */
	/* PIDFD_INFO_SUPPORTED_MASK names PIDFD_INFO_EXIT (what libpidfd asks) */
	bool supported_exit;
	int landlock_abi;	/* 0: none; >= 6: LANDLOCK_SCOPE_SIGNAL (6.12) */
};

/* Probes once (forks a child for the reap-dependent probes). */
const struct db_features *db_features(void);

/*
 * The native half of @what could not be compared: this kernel lacks
 * @feature. Prints the counted "SKIP <test>: ..." line (check_glue.h) and
 * goes on with the module's half; fails the test instead if @has, the
 * run-time probe of that feature (pt_kernel.h), says the kernel has it.
 */
#define db_native_skipped(what, feature, has) \
	db_native_skipped_in(__func__, (what), (feature), (has))
void db_native_skipped_in(const char *test, const char *what,
			  const char *feature, bool has);

/* ---- the two backends ---------------------------------------------- */

int db_sys_pidfd_open(pid_t pid, unsigned int flags);
int db_sys_pidfd_send_signal(int pidfd, int sig, const siginfo_t *info,
			     unsigned int flags);
/* waitid(P_PIDFD, pidfd, info, options), raw. */
int db_sys_waitid_pidfd(int pidfd, siginfo_t *info, int options);

int db_open(enum db_backend b, pid_t pid, unsigned int flags);
int db_send(enum db_backend b, int pidfd, int sig, const siginfo_t *info,
	    unsigned int flags);
/* PIDFD_GET_INFO (88-byte struct) with @mask asked; native: the ioctl. */
int db_get_info(enum db_backend b, int pidfd, struct pidfd_dev_info *info,
		uint64_t mask);

/* ---- raw signal helpers -------------------------------------------- */

int db_tgkill(pid_t tgid, pid_t tid, int sig);
int db_sigqueueinfo(pid_t pid, int sig, siginfo_t *info);
int db_tgsigqueueinfo(pid_t tgid, pid_t tid, int sig, siginfo_t *info);

#define DB_BIT(sig) (1ULL << ((sig) - 1))

/* ---- Landlock (6.12+) --------------------------------------------- */

/* LANDLOCK_CREATE_RULESET_VERSION, or 0 if Landlock is not there. */
int db_landlock_abi(void);
/* no_new_privs, then a domain scoping signals. 0 or -1. */
int db_landlock_scope_signals(void);
/*
 * Restrict ourselves (no_new_privs set first) with a ruleset that handles
 * @handled_access_fs (LANDLOCK_ACCESS_FS_*) with no rule, so all of it is
 * denied, and @scoped. 0, or -1 with errno.
 */
int db_landlock_restrict(uint64_t handled_access_fs, uint64_t scoped);

/* ---- credentials --------------------------------------------------- */

struct db_creds {
	const char *name;
	uid_t ruid, euid, suid;
	gid_t gid;
	bool cap_kill_only;	/* keep CAP_KILL (and nothing else) */
	bool userns;		/* then unshare(CLONE_NEWUSER), uid 0 in it */
};

/*
 * Takes on @c (from root). Returns 0, or -1 with a reason in @why.
 * After it, /proc/self is still ours (PR_SET_DUMPABLE).
 */
int db_set_creds(const struct db_creds *c, char *why, size_t len);

/* ---- the target server --------------------------------------------- */

/*
 * A process with two threads, the leader and a worker, each blocking
 * every signal (so whatever is sent stays pending where it was queued)
 * and serving "dequeue" requests from the test process.
 */
struct db_target {
	int cmd[2][2];		/* per thread: pipe test -> thread */
	int rep[2];		/* pipe threads -> test */
	pid_t pid, tid;		/* leader (= tgid), worker thread */
	bool started;
};

struct db_target_opts {
	const struct db_creds *creds;	/* NULL: stays root */
	bool setsid;			/* else setpgid(0, 0) */
};

/* Pipes only: call before forking whoever will start it. */
int db_target_prepare(struct db_target *t);
/* Forks the target here. The caller (any process) gets its pid. */
pid_t db_target_fork(struct db_target *t, const struct db_target_opts *o);
/* In the test process: reads the target's hello (pid, tid). 0 or -1. */
int db_target_hello(struct db_target *t, int timeout_ms);

struct db_dequeued {
	int ret;		/* signal number, or -1 */
	int err;
	pid_t tid;		/* the thread that dequeued */
	int signo, code, pid, uid, value;
};

/*
 * Asks thread @which (0: leader, 1: worker) to take @sig if pending for
 * it (its own queue, then the shared one). ret -1/EAGAIN if none.
 */
int db_target_dequeue(struct db_target *t, int which, int sig,
		      struct db_dequeued *out);
/* Kills (SIGKILL) and closes the pipes; reaps if @reap. */
void db_target_stop(struct db_target *t, bool reap);

/* ---- the sender server --------------------------------------------- */

enum db_op {
	DB_OP_OPEN = 1,		/* a: backend, b: pid, c: flags -> fd */
	DB_OP_CLOSE,		/* a: fd */
	DB_OP_KILL,		/* b: pid (may be negative), sig */
	DB_OP_TGKILL,		/* b: tgid, c: tid, sig */
	DB_OP_SIGQUEUE,		/* b: pid, sig, code, value */
	DB_OP_TGSIGQUEUE,	/* b: tgid, c: tid, sig, code, value */
	DB_OP_PIDFD_SEND,	/* a: backend, b: fd, c: flags, sig;
				   with_info: code, value */
	DB_OP_LANDLOCK,		/* restrict self (scope signals) */
	DB_OP_SPAWN,		/* a: index in db_spawnable -> pid */
	DB_OP_REAP,		/* b: pid */
	DB_OP_GETPID,
	DB_OP_EXIT,
};

struct db_req {
	int op;
	int a, b, c;
	int sig;
	int with_info;
	int code, value;
};

struct db_rep {
	int ret;
	int err;
};

/* Runs @r in the calling process (used by the sender and by the test). */
struct db_rep db_do(const struct db_req *r);

struct db_sender {
	int cmd[2], rep[2];
	pid_t pid;
};

/*
 * Targets a sender may start with DB_OP_SPAWN (prepared in the test
 * process before the sender is forked, so their pipes are shared).
 */
#define DB_SPAWN_MAX 2
extern struct db_target *db_spawnable[DB_SPAWN_MAX];
extern struct db_target_opts db_spawn_opts[DB_SPAWN_MAX];

/*
 * Forks a sender with credentials @c (NULL: root). 0, or -1 with the
 * reason in @why (its start-up failed).
 */
int db_sender_start(struct db_sender *s, const struct db_creds *c,
		    char *why, size_t len);
struct db_rep db_sender_do(struct db_sender *s, const struct db_req *r);
void db_sender_stop(struct db_sender *s);

#endif /* DIFF_BACKEND_H */
