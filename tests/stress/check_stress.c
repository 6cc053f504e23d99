// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency stress: everything the module does, at once, for a fixed
 * time (issue 11, item 5).
 *
 * The test runs in a private pid namespace A (its driver is A's init) and
 * mount namespace. For PIDFD_STRESS_SECONDS (default 20) these run
 * concurrently:
 *
 *  - STRESS_WORKERS worker threads of the driver. Each forks one child at a
 *    time and gives it a fate: exit(code), killed by a fatal signal sent
 *    through a pidfd, leader leaving with SYS_exit(code) while its threads
 *    live on, or a non-leader thread that execs this program again (which
 *    exits with code). Every child creates threads that exit, with codes of
 *    their own, at random moments. While it lives, the worker opens process
 *    and thread pidfds (also on the child's thread IDs), dups and closes
 *    them, polls and epolls, signals at every scope with and without a
 *    siginfo (SIGURG and SIGWINCH: the child has handlers for them),
 *    GET_INFO, GET_PROCFD, and does the same on other workers' children.
 *    Then it reaps the child and checks: every pidfd of the process reports
 *    POLLIN|POLLHUP (epoll too), PIDFD_INFO_EXIT gives exactly waitpid()'s
 *    status, each thread pidfd reports its thread's exit with a status that
 *    thread can have had, and everything else is ESRCH.
 *  - A recycler process, in a nested pid namespace B: the check_lifecycle
 *    race, continuously. A target takes pid RECYCLE_PID (ns_last_pid), three
 *    threads hammer its process and thread pidfds (signals at every scope,
 *    SIGKILL among them; GET_INFO; GET_PROCFD; poll) while it is killed,
 *    reaped, and a decoy forked by another process takes the recycled pid.
 *    The decoy blocks every signal and reports what is pending; GET_INFO
 *    must never describe it (its ppid and uid differ from the target's) and
 *    GET_PROCFD never return its /proc dir.
 *  - An unload thread: delete_module("pidfd", O_NONBLOCK) every few hundred
 *    ms, always while a pidfd of the driver pins the module; it must fail
 *    with EBUSY or EAGAIN.
 *
 * Results of every call are only 0 (or a new fd) or the errnos docs/abi.md
 * gives for the case, and live_pidfds and live_pids return to their values
 * from before the run. Signals only reach the test's own children, each in
 * a process group of its own, or the decoys in namespace B.
 *
 * The seed (PIDFD_STRESS_SEED, printed) fixes every random choice of the
 * run; the interleaving is the scheduler's, so a seed reproduces the plan
 * of a failing run, not its timing. make check-debug sets its own length
 * (PIDFD_DEBUG_STRESS_SECONDS in the Makefile).
 */
#include "pidfd_test.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#define STRESS_WORKERS		3
/* 3 at the start, 2 generations of successors each, the exec thread. */
#define CHILD_MAX_THREADS	10
#define LIFE_MAX_FDS		32
#define TID_RECORDS		64

/* Namespace B: the recycled pid, and the decoy's uid (which T never has). */
#define RECYCLE_PID		500
#define DECOY_UID		4343

/* argv[1] of this program exec'd by a child's thread: exit with argv[2]. */
#define EXEC_EXIT_ARG		"--stress-exit"

static char self_exe[PATH_MAX];
/* PIDFD_STRESS_SEED: every random choice of the run derives from it. */
static uint64_t stress_seed;

/* ---- what went wrong first, shared by every thread of a process ----- */

struct verdict {
	pthread_mutex_t lock;
	volatile int stop;	/* the run is over, or something failed */
	char fail[1024];
};

static struct verdict verdict = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void stress_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void stress_fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&verdict.lock);
	if (!verdict.fail[0]) {
		va_start(ap, fmt);
		vsnprintf(verdict.fail, sizeof(verdict.fail), fmt, ap);
		va_end(ap);
	}
	verdict.stop = 1;
	pthread_mutex_unlock(&verdict.lock);
}

#define STRESS_CHECK(cond, ...) do { \
	if (!(cond)) { stress_fail(__VA_ARGS__); return; } } while (0)

static bool failed(void)
{
	return verdict.fail[0] != '\0';
}

static unsigned int rnd_below(uint64_t *rng, unsigned int n)
{
	return (unsigned int)(pt_rand(rng) % n);
}

static void sleep_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	nanosleep(&ts, NULL);	/* an interrupted sleep is just shorter */
}

static uint64_t stat_add(unsigned long *counter)
{
	return __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

static const unsigned int signal_scopes[] = {
	0, PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP,
	PIDFD_SIGNAL_PROCESS_GROUP,
};

static const char *scope_name(unsigned int scope)
{
	switch (scope) {
	case 0: return "default";
	case PIDFD_SIGNAL_THREAD: return "THREAD";
	case PIDFD_SIGNAL_THREAD_GROUP: return "THREAD_GROUP";
	default: return "PROCESS_GROUP";
	}
}

/* Reads a number field of /proc/<pid>/status through a procfd result. */
static long status_number(int dirfd, const char *key)
{
	char buf[128];

	if (pt_read_field_at(dirfd, "status", key, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* ====================================================================== */
/* The children of namespace A                                            */
/* ====================================================================== */

enum fate {
	FATE_EXIT,		/* exit_group(code) while threads run */
	FATE_KILLED,		/* waits; killed by a signal through a pidfd */
	FATE_LEADER_EXIT,	/* leader SYS_exit(code), threads go on */
	FATE_EXEC,		/* a non-leader thread execs; new image exits */
	FATE_COUNT
};

static const char *const fate_names[] = {
	"exit", "killed", "leader-exit", "exec",
};

/* Sent by the child's threads to their worker: a thread to open. */
struct tid_record {
	int32_t tid;
	int32_t code;		/* its SYS_exit code, if it exits itself */
	int32_t execs;		/* the thread that will exec */
};

struct child_plan {
	enum fate fate;
	int code;		/* exit code (all fates but KILLED) */
	int sig;		/* the fatal signal (KILLED) */
	int nthreads;		/* threads created at start */
	unsigned int life_us;	/* before the leader exits or execs */
	uint64_t rng;
	int report_fd;		/* write end: struct tid_record */
	char code_arg[16];	/* code, for the exec'd image */
};

struct child_thread {
	struct child_plan *plan;
	uint64_t rng;
	int code;
	int generation;		/* a thread may leave a successor behind */
	bool execs;
};

/* In the child's own copy of memory: one fork never sees another's. */
static struct child_thread child_threads[CHILD_MAX_THREADS];
static int child_nthreads;

static void noise_handler(int sig)
{
	(void)sig;
}

static void *child_thread_main(void *arg);

static void child_spawn(struct child_plan *plan, int code, int generation,
			bool execs)
{
	struct child_thread *t;
	pthread_attr_t attr;
	pthread_t th;
	int slot = __atomic_fetch_add(&child_nthreads, 1, __ATOMIC_RELAXED);

	if (slot >= CHILD_MAX_THREADS)
		return;
	t = &child_threads[slot];
	t->plan = plan;
	t->rng = pt_rand(&plan->rng) | 1;
	t->code = code;
	t->generation = generation;
	t->execs = execs;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/*
	 * A successor may lose the race with an exec or a group exit (clone
	 * fails then); the threads planned at the start must all be there:
	 * waitpid's status shows it, the test fails.
	 */
	if (pthread_create(&th, &attr, child_thread_main, t) && !generation)
		_exit(125);
	pthread_attr_destroy(&attr);
}

static void *child_thread_main(void *arg)
{
	struct child_thread *t = arg;
	struct tid_record rec = {
		.tid = pt_gettid(), .code = t->code, .execs = t->execs,
	};

	/* Atomic (< PIPE_BUF); a full pipe only loses a chance to open. */
	if (write(t->plan->report_fd, &rec, sizeof(rec)) != sizeof(rec))
		rec.tid = 0;
	if (t->execs) {
		sleep_us(t->plan->life_us);
		execl(self_exe, self_exe, EXEC_EXIT_ARG, t->plan->code_arg,
		      (char *)NULL);
		_exit(126);
	}
	sleep_us(rnd_below(&t->rng, 2 * t->plan->life_us + 1000));
	if (t->generation < 2 && rnd_below(&t->rng, 2))
		child_spawn(t->plan, (t->code + 17) & 0xff, t->generation + 1,
			    false);
	syscall(SYS_exit, t->code);
	return NULL;
}

/* The child's whole life; never returns. */
static void child_main(struct child_plan *plan)
{
	struct sigaction sa = { .sa_handler = noise_handler,
				.sa_flags = SA_RESTART };
	int i;

	setpgid(0, 0);
	sigaction(SIGURG, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL);
	for (i = 0; i < plan->nthreads; i++)
		child_spawn(plan, (plan->code + 1 + i * 31) & 0xff, 0, false);
	/* Last: once it runs, the exec may start at any moment. */
	if (plan->fate == FATE_EXEC)
		child_spawn(plan, 0, 0, true);
	switch (plan->fate) {
	case FATE_EXIT:
		sleep_us(plan->life_us);
		_exit(plan->code);
	case FATE_LEADER_EXIT:
		sleep_us(plan->life_us);
		syscall(SYS_exit, plan->code);
		break;
	default:
		break;
	}
	for (;;)
		pause();
}

/* ====================================================================== */
/* The workers of namespace A                                             */
/* ====================================================================== */

enum fd_kind {
	FD_PROCESS,		/* the process (flags 0 or NONBLOCK) */
	FD_LEADER_THREAD,	/* PIDFD_THREAD on the leader */
	FD_TID,			/* a non-leader thread, PIDFD_THREAD */
};

struct life_fd {
	int fd;
	enum fd_kind kind;
	pid_t nr;		/* the number it was opened on */
	int code;		/* FD_TID: the thread's own exit code */
	bool execs;		/* FD_TID: the thread that execs */
};

struct stats {
	unsigned long lives[FATE_COUNT];
	unsigned long ops, ok, esrch;
	unsigned long tid_fds, cross_ops;
	unsigned long unloads, recycles;
	unsigned long covers, exdev;
};

static struct stats stats;

struct shared {
	int procfd;		/* namespace A's procfs */
	int64_t deadline;
	long pid_max;
	pid_t current[STRESS_WORKERS];	/* each worker's child, for the others */
	unsigned long next_code;
	int pids_ran_out;
};

static struct shared shared;

/* Until the deadline, or until a failure stops everyone. */
static bool running(void)
{
	return !verdict.stop && pt_now_ms() < shared.deadline;
}

struct worker {
	int idx;
	uint64_t rng;
};

struct life {
	struct worker *w;
	struct child_plan plan;
	pid_t pid;
	int report_rd;
	int epfd;
	struct life_fd fds[LIFE_MAX_FDS];
	int nfds;
	int primary;		/* FD_PROCESS, registered with epoll, kept */
	int thread_codes[TID_RECORDS];	/* every code a thread reported */
	int nthread_codes;
	bool fatal_sent;
	bool reaped;
	int status;
};

/* The result of one call: counted, or the first failure. */
static bool life_result(struct life *l, int ret, int err, bool esrch_ok,
			const char *what, const struct life_fd *f)
{
	stat_add(&stats.ops);
	if (ret >= 0) {
		stat_add(&stats.ok);
		return true;
	}
	/* Gone: freed (ESRCH), or reaped while its number lives on. */
	if ((err == ESRCH || err == pt_reaped_open_errno()) && esrch_ok &&
	    !strcmp(what, "OPEN(tid)")) {
		stat_add(&stats.esrch);
		return false;
	}
	if (err == ESRCH && esrch_ok) {
		stat_add(&stats.esrch);
		return false;
	}
	stress_fail("%s on a pidfd of %d (kind %d, child %d, %s, %s): %s",
		    what, f->nr, f->kind, l->pid, fate_names[l->plan.fate],
		    l->reaped ? "reaped" : "not reaped", pt_errname(err));
	return false;
}

static bool is_process_fd(const struct life_fd *f)
{
	return f->kind != FD_TID;
}

static void life_add(struct life *l, int fd, enum fd_kind kind, pid_t nr,
		     int code, bool execs)
{
	if (l->nfds == LIFE_MAX_FDS) {
		close(fd);
		return;
	}
	l->fds[l->nfds++] = (struct life_fd){ fd, kind, nr, code, execs };
}

/* Thread IDs the child reported: open each (it may be gone: ESRCH). */
static void life_open_tids(struct life *l)
{
	struct tid_record rec;

	while (read(l->report_rd, &rec, sizeof(rec)) == sizeof(rec)) {
		unsigned int flags = PIDFD_THREAD |
			(rnd_below(&l->w->rng, 2) ? PIDFD_NONBLOCK : 0);
		struct life_fd f = { -1, FD_TID, rec.tid, rec.code, rec.execs };
		int fd;

		if (l->nthread_codes < TID_RECORDS)
			l->thread_codes[l->nthread_codes++] = rec.code;

		errno = 0;
		fd = pt_open(rec.tid, flags);
		if (fd >= 0 && l->reaped) {
			close(fd);
			stress_fail("OPEN(%d) of a thread of reaped %d succeeded",
				    rec.tid, l->pid);
			return;
		}
		if (!life_result(l, fd, errno, true, "OPEN(tid)", &f))
			continue;
		stat_add(&stats.tid_fds);
		life_add(l, fd, FD_TID, rec.tid, rec.code, rec.execs);
	}
}

/*
 * The module refuses a process group's signal with a siginfo, whatever the
 * target's state (docs/abi.md), except SIGKILL, which is kill(2)'s.
 */
static bool group_info_refused(unsigned int scope, int sig)
{
	return scope == PIDFD_SIGNAL_PROCESS_GROUP && sig != SIGKILL;
}

static void op_signal(struct life *l, struct life_fd *f)
{
	unsigned int scope = signal_scopes[rnd_below(&l->w->rng, 4)];
	int sig = rnd_below(&l->w->rng, 2) ? SIGURG : SIGWINCH;
	siginfo_t si;
	const siginfo_t *info = rnd_below(&l->w->rng, 3) ? NULL :
				pt_siginfo(&si, sig, SI_QUEUE, l->pid);
	bool esrch_ok;
	int ret;
	char what[64];

	if (rnd_below(&l->w->rng, 4) == 0)
		sig = 0;
	if (sig == 0)
		info = NULL;
	errno = 0;
	ret = pt_send_signal(f->fd, sig, info, scope);
	/*
	 * Before the reap, a process's default and thread-group scopes must
	 * reach it (a zombie is reached too); a leader that left early, or a
	 * group not set up yet, may give ESRCH. Once reaped, only ESRCH.
	 */
	esrch_ok = f->kind == FD_TID || l->reaped ||
		   scope == PIDFD_SIGNAL_THREAD ||
		   scope == PIDFD_SIGNAL_PROCESS_GROUP;
	snprintf(what, sizeof(what), "SEND_SIGNAL(%d, %s%s)", sig,
		 scope_name(scope), info ? ", siginfo" : "");
	if (info && group_info_refused(scope, sig)) {
		if (ret != -1 || errno != EOPNOTSUPP)
			stress_fail("%s: %d/%s, want EOPNOTSUPP", what, ret,
				    strerror(errno));
	} else if (l->reaped && ret == 0) {
		stress_fail("%s to reaped child %d succeeded", what, l->pid);
	} else {
		life_result(l, ret, errno, esrch_ok, what, f);
	}
}

static int expected_status(const struct child_plan *p)
{
	return p->fate == FATE_KILLED ? p->sig : (p->code & 0xff) << 8;
}

/*
 * waitpid()'s status as the plan makes it. When the leader has left with
 * SYS_exit, 5.10 reports the leader's code, and 5.17 and later that of the
 * last thread to exit (synchronize_group_exit()): any of the child's codes.
 */
static bool status_as_planned(const struct life *l)
{
	int i;

	if (l->status == expected_status(&l->plan))
		return true;
	if (l->plan.fate != FATE_LEADER_EXIT || !WIFEXITED(l->status))
		return false;
	for (i = 0; i < l->nthread_codes; i++)
		if (WEXITSTATUS(l->status) == (l->thread_codes[i] & 0xff))
			return true;
	return false;
}

/* The exit status a thread pidfd may carry: its own, the group's, exec's. */
static bool thread_status_ok(const struct life *l, const struct life_fd *f,
			     int code)
{
	if (f->execs)
		return code == 0;	/* the old leader's, killed by the exec */
	if (code == (f->code & 0xff) << 8)
		return true;
	switch (l->plan.fate) {
	case FATE_EXIT:
	case FATE_KILLED:
		/* killed by the group exit: the group's status */
		return code == expected_status(&l->plan);
	case FATE_LEADER_EXIT:
		return false;	/* every thread leaves with its own code */
	case FATE_EXEC:
		return code == 0;	/* killed by the exec */
	default:
		return false;
	}
}

static void op_info(struct life *l, struct life_fd *f)
{
	uint64_t mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS;
	struct pidfd_dev_info info;
	int ret;

	if (rnd_below(&l->w->rng, 2))
		mask |= PIDFD_INFO_EXIT;
	errno = 0;
	ret = pt_get_info(f->fd, &info, mask);
	if (ret == 0 && l->reaped && !(info.mask & PIDFD_INFO_EXIT)) {
		stress_fail("GET_INFO on a pidfd of reaped %d (nr %d): success without EXIT",
			    l->pid, f->nr);
		return;
	}
	if (!life_result(l, ret, errno, f->kind == FD_TID || l->reaped,
			 "GET_INFO", f))
		return;
	if (info.mask & PIDFD_INFO_PID) {
		/* ppid 0: a thread in its release (only threads go unreaped) */
		STRESS_CHECK(info.pid == (__u32)f->nr && info.tgid == (__u32)l->pid &&
			     (info.ppid == 1 || (info.ppid == 0 && f->kind == FD_TID)),
			     "GET_INFO on a pidfd of %d (child %d) described pid %u tgid %u ppid %u",
			     f->nr, l->pid, info.pid, info.tgid, info.ppid);
	}
	if (!(info.mask & PIDFD_INFO_EXIT))
		return;
	if (is_process_fd(f)) {
		STRESS_CHECK(l->reaped, "GET_INFO gave EXIT (%#x) for unreaped %d",
			     info.exit_code, l->pid);
		STRESS_CHECK(info.exit_code == l->status,
			     "GET_INFO EXIT of %d (%s): %#x, waitpid said %#x",
			     l->pid, fate_names[l->plan.fate], info.exit_code,
			     l->status);
	} else {
		STRESS_CHECK(thread_status_ok(l, f, info.exit_code),
			     "GET_INFO EXIT of thread %d of %d (%s, own code %d%s): %#x",
			     f->nr, l->pid, fate_names[l->plan.fate], f->code,
			     f->execs ? ", exec'd" : "", info.exit_code);
	}
}

static void op_procfd(struct life *l, struct life_fd *f)
{
	long tgid, pid;
	int fd;

	errno = 0;
	fd = pt_get_procfd(f->fd, shared.procfd);
	if (l->reaped && fd >= 0) {
		close(fd);
		stress_fail("GET_PROCFD for reaped %d succeeded", l->pid);
		return;
	}
	/* The coverer's mount lay over the directory or its task/. */
	if (fd < 0 && errno == EXDEV) {
		stat_add(&stats.exdev);
		return;
	}
	if (!life_result(l, fd, errno, f->kind == FD_TID || l->reaped,
			 "GET_PROCFD", f))
		return;
	pid = status_number(fd, "Pid:");
	tgid = status_number(fd, "Tgid:");
	close(fd);
	/*
	 * -1: the thread went while we read (its dir empties), not another's.
	 * A thread that execs takes the process's pid: while exchange_tids()
	 * runs, status (which reads the task's ->thread_pid, not the dir's
	 * pid, which the module proved from stat) can show the process's
	 * number in the directory of the thread's old one.
	 */
	STRESS_CHECK(pid == -1 || (pid == f->nr && (tgid == l->pid || tgid == -1)) ||
		     (l->plan.fate == FATE_EXEC && pid == l->pid),
		     "GET_PROCFD on a pidfd of %d (child %d) gave the dir of pid %ld tgid %ld",
		     f->nr, l->pid, pid, tgid);
}

static void op_poll(struct life *l, struct life_fd *f)
{
	int ev = pt_poll1(f->fd, POLLIN, 0);

	STRESS_CHECK(ev >= 0, "poll: %m");
	if (!is_process_fd(f))
		return;
	if (l->reaped) {
		STRESS_CHECK((ev & (POLLIN | POLLHUP)) == (POLLIN | POLLHUP),
			     "reaped %d polls %#x", l->pid, ev);
		return;
	}
	/* POLLHUP only once reaped; POLLIN not before a KILLED child is. */
	STRESS_CHECK(!(ev & POLLHUP),
		     "POLLHUP on a pidfd of %d (%s) before it was reaped (%#x)",
		     l->pid, fate_names[l->plan.fate], ev);
	STRESS_CHECK(l->plan.fate != FATE_KILLED || l->fatal_sent || !(ev & POLLIN),
		     "POLLIN on a pidfd of %d, which has not been killed yet (%#x)",
		     l->pid, ev);
}

static void op_epoll(struct life *l)
{
	struct epoll_event ev[4];
	int n;

	n = epoll_wait(l->epfd, ev, 4, 0);
	STRESS_CHECK(n >= 0 || errno == EINTR, "epoll_wait: %m");
	if (l->reaped) {
		STRESS_CHECK(n == 1 && (ev[0].events & (EPOLLIN | EPOLLHUP)) ==
				       (EPOLLIN | EPOLLHUP),
			     "epoll after the reap of %d: %d events", l->pid, n);
		return;
	}
	STRESS_CHECK(n <= 0 || !(ev[0].events & EPOLLHUP),
		     "EPOLLHUP for %d before it was reaped", l->pid);
	STRESS_CHECK(n <= 0 || l->plan.fate != FATE_KILLED || l->fatal_sent,
		     "EPOLLIN for %d, which has not been killed yet (%#x)",
		     l->pid, ev[0].events);
}

static void op_dup_close(struct life *l)
{
	int i = (int)rnd_below(&l->w->rng, (unsigned int)l->nfds);
	struct life_fd f = l->fds[i];

	if (rnd_below(&l->w->rng, 2) && i != l->primary) {
		close(f.fd);
		l->fds[i] = l->fds[--l->nfds];
		if (l->primary == l->nfds)
			l->primary = i;
		return;
	}
	f.fd = fcntl(f.fd, F_DUPFD_CLOEXEC, 3);
	STRESS_CHECK(f.fd >= 0, "dup: %m");
	life_add(l, f.fd, f.kind, f.nr, f.code, f.execs);
}

/* Another worker's child, by number: it may be gone (ESRCH), never another. */
static void op_cross(struct life *l)
{
	pid_t nr = shared.current[rnd_below(&l->w->rng, STRESS_WORKERS)];
	struct pidfd_dev_info info;
	int fd, ret;

	if (nr <= 0 || nr == l->pid)
		return;
	stat_add(&stats.cross_ops);
	fd = pt_open(nr, 0);
	if (fd < 0) {
		STRESS_CHECK(pt_open_gone_errno(errno),
			     "OPEN(%d) of another worker's child: %s", nr,
			     pt_errname(errno));
		return;
	}
	errno = 0;
	ret = pt_get_info(fd, &info, PIDFD_INFO_PID);
	if (ret == 0 && (info.pid != (__u32)nr || info.ppid > 1))
		stress_fail("GET_INFO of %d described pid %u ppid %u", nr,
			    info.pid, info.ppid);
	else if (ret < 0 && errno != ESRCH)
		stress_fail("GET_INFO of another worker's child: %s",
			    pt_errname(errno));
	errno = 0;
	ret = pt_send_signal(fd, SIGURG, NULL, 0);
	if (ret < 0 && errno != ESRCH)
		stress_fail("SIGURG to another worker's child: %s",
			    pt_errname(errno));
	close(fd);
}

static void life_op(struct life *l)
{
	struct life_fd *f = &l->fds[rnd_below(&l->w->rng, (unsigned int)l->nfds)];

	switch (rnd_below(&l->w->rng, 8)) {
	case 0: op_signal(l, f); break;
	case 1: op_info(l, f); break;
	case 2: op_procfd(l, f); break;
	case 3: op_poll(l, f); break;
	case 4: op_epoll(l); break;
	case 5: op_dup_close(l); break;
	case 6: op_cross(l); break;
	default: life_open_tids(l); break;
	}
}

static void life_plan(struct life *l)
{
	static const int fatal[] = {
		SIGKILL, SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGALRM,
		SIGPIPE, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
	};
	struct child_plan *p = &l->plan;
	uint64_t *rng = &l->w->rng;
	unsigned long n = __atomic_fetch_add(&shared.next_code, 1, __ATOMIC_RELAXED);

	/* Every fate in turn, so that a short run has them all. */
	p->fate = (enum fate)(n % FATE_COUNT);
	/* Distinct codes and signals from child to child: 1..250, RT too. */
	p->code = 1 + (int)(n / FATE_COUNT % 250);
	p->sig = rnd_below(rng, 3) ? fatal[n / FATE_COUNT % 13] :
		 SIGRTMIN + (int)rnd_below(rng, (unsigned int)(SIGRTMAX - SIGRTMIN + 1));
	p->nthreads = (int)rnd_below(rng, 4);
	if (p->fate == FATE_LEADER_EXIT && !p->nthreads)
		p->nthreads = 1;	/* someone must outlive the leader */
	p->life_us = 1000 + rnd_below(rng, 30000);
	p->rng = pt_rand(rng) | 1;
	snprintf(p->code_arg, sizeof(p->code_arg), "%d", p->code);
}

/* Kills a FATE_KILLED child through a random process pidfd and scope. */
static void life_kill(struct life *l)
{
	struct life_fd *f;
	unsigned int scope;
	siginfo_t si;
	const siginfo_t *info;
	int i, ret;

	do
		i = (int)rnd_below(&l->w->rng, (unsigned int)l->nfds);
	while (!is_process_fd(&l->fds[i]));
	f = &l->fds[i];
	scope = signal_scopes[rnd_below(&l->w->rng, 4)];
	/* A group's signal with a siginfo is refused (op_signal() checks). */
	info = rnd_below(&l->w->rng, 2) ||
	       group_info_refused(scope, l->plan.sig) ?
	       NULL : pt_siginfo(&si, l->plan.sig, SI_QUEUE, 0);
	l->fatal_sent = true;
	errno = 0;
	ret = pt_send_signal(f->fd, l->plan.sig, info, scope);
	STRESS_CHECK(ret == 0, "fatal SEND_SIGNAL(%d, %s%s) to %d: %s",
		     l->plan.sig, scope_name(scope), info ? ", siginfo" : "",
		     l->pid, pt_errname(errno));
}

/* After the reap: every pidfd shows the exit, and the exact status. */
static void life_check_reaped(struct life *l)
{
	struct epoll_event ev[4];
	struct pidfd_dev_info info;
	int i, n, revents;

	n = epoll_wait(l->epfd, ev, 4, 0);
	STRESS_CHECK(n == 1 && (ev[0].events & (EPOLLIN | EPOLLHUP)) ==
			       (EPOLLIN | EPOLLHUP),
		     "epoll after the reap of %d: %d events (%#x)", l->pid, n,
		     n > 0 ? ev[0].events : 0);
	for (i = 0; i < l->nfds && !failed(); i++) {
		struct life_fd *f = &l->fds[i];

		/* A thread is woken one RCU grace period after its release. */
		revents = pt_poll1(f->fd, POLLIN, is_process_fd(f) ? 0 : 10000);
		STRESS_CHECK(revents > 0 && (revents & (POLLIN | POLLHUP)) ==
					    (POLLIN | POLLHUP),
			     "reaped %d (%s): pidfd of %d (kind %d) polls %#x, not POLLIN|POLLHUP",
			     l->pid, fate_names[l->plan.fate], f->nr, f->kind,
			     revents);
		errno = 0;
		/*
		 * Every pidfd has a record once its task is gone: an open
		 * that loses the race with the release fails instead (the
		 * module gave thread pidfds without one before; one or two
		 * in a run here).
		 */
		if (pt_get_info(f->fd, &info, PIDFD_INFO_EXIT | PIDFD_INFO_PID) < 0) {
			STRESS_CHECK(false,
				     "GET_INFO EXIT of reaped %d (pidfd of %d, kind %d): %s",
				     l->pid, f->nr, f->kind, pt_errname(errno));
			continue;
		}
		STRESS_CHECK(info.mask & PIDFD_INFO_EXIT,
			     "GET_INFO of reaped %d: no EXIT in mask %#llx",
			     l->pid, (unsigned long long)info.mask);
		if (is_process_fd(f))
			STRESS_CHECK(info.exit_code == l->status,
				     "reaped %d (%s): GET_INFO EXIT %#x, waitpid %#x",
				     l->pid, fate_names[l->plan.fate],
				     info.exit_code, l->status);
		else
			STRESS_CHECK(thread_status_ok(l, f, info.exit_code),
				     "reaped %d (%s): thread %d (own code %d%s) has status %#x",
				     l->pid, fate_names[l->plan.fate], f->nr,
				     f->code, f->execs ? ", exec'd" : "",
				     info.exit_code);
	}
	/* And the stale pidfds do nothing but ESRCH from now on. */
	for (i = 0; i < 4 && !failed(); i++)
		life_op(l);
}

/* One child's life; its pid (0 if it could not be forked). */
static pid_t life_run(struct worker *w)
{
	struct epoll_event eev = { .events = EPOLLIN };
	struct life l = { .w = w, .primary = 0 };
	int report[2], fd, ops, i;

	life_plan(&l);
	if (pipe2(report, O_CLOEXEC) < 0) {
		stress_fail("pipe: %m");
		return 0;
	}
	l.plan.report_fd = report[1];
	l.pid = pt_fork();
	if (l.pid == 0) {
		close(report[0]);
		child_main(&l.plan);
	}
	close(report[1]);
	l.report_rd = report[0];
	fcntl(l.report_rd, F_SETFL, O_NONBLOCK);
	if (l.pid < 0) {
		stress_fail("fork: %m");
		close(l.report_rd);
		return 0;
	}
	/* Either this or the child's own setpgid makes the group, whichever first. */
	setpgid(l.pid, l.pid);
	stat_add(&stats.lives[l.plan.fate]);

	/* Not reaped yet (only this thread reaps it): opening must work. */
	fd = pt_open(l.pid, rnd_below(&w->rng, 2) ? PIDFD_NONBLOCK : 0);
	if (fd < 0)
		stress_fail("OPEN(%d) of an unreaped child: %s", l.pid,
			    pt_errname(errno));
	else
		life_add(&l, fd, FD_PROCESS, l.pid, 0, false);
	if (fd >= 0 && rnd_below(&w->rng, 2)) {
		fd = pt_open(l.pid, PIDFD_THREAD);
		if (fd < 0)
			stress_fail("OPEN(%d, PIDFD_THREAD) of an unreaped child: %s",
				    l.pid, pt_errname(errno));
		else
			life_add(&l, fd, FD_LEADER_THREAD, l.pid, 0, false);
	}
	l.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l.epfd < 0 || (l.nfds &&
			   epoll_ctl(l.epfd, EPOLL_CTL_ADD, l.fds[0].fd, &eev) < 0))
		stress_fail("epoll: %m");
	shared.current[w->idx] = l.pid;

	ops = 5 + (int)rnd_below(&w->rng, 40);
	for (i = 0; i < ops && !failed(); i++) {
		life_op(&l);
		if (l.plan.fate != FATE_KILLED && !pt_child_running(l.pid))
			break;
		if (rnd_below(&w->rng, 4) == 0)
			sleep_us(rnd_below(&w->rng, 2000));
	}
	if (!failed() && l.plan.fate == FATE_KILLED)
		life_kill(&l);
	/* After a failure the child goes at once, whatever its plan. */
	if (failed())
		kill(l.pid, SIGKILL);
	if (pt_waitpid(l.pid, &l.status, 0) != l.pid)
		stress_fail("waitpid(%d): %m", l.pid);
	l.reaped = true;
	shared.current[w->idx] = 0;
	life_open_tids(&l);	/* any thread left is gone: ESRCH */
	if (!failed() && !status_as_planned(&l))
		stress_fail("child %d (%s, code %d, signal %d) ended with status %#x, want %#x",
			    l.pid, fate_names[l.plan.fate], l.plan.code,
			    l.plan.sig, l.status, expected_status(&l.plan));
	if (!failed())
		life_check_reaped(&l);
	for (i = 0; i < l.nfds; i++)
		close(l.fds[i].fd);
	close(l.epfd);
	close(l.report_rd);
	return l.pid;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	while (running()) {
		/*
		 * A's pids go up until they wrap at pid_max, and must not wrap
		 * within a run: a reported thread ID would then name a thread
		 * of another child. Stop short of it (a long run, fast kernel).
		 */
		if (life_run(w) > shared.pid_max - 2000) {
			__atomic_store_n(&shared.pids_ran_out, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

/* ---- the unload thread --------------------------------------------- */

struct unloader {
	int pin;		/* a pidfd of the driver: pins the module */
};

static void *unload_main(void *arg)
{
	struct unloader *u = arg;

	while (running()) {
		long ref = -1;
		int ret, err;

		/* Never call delete_module without something pinning it. */
		if (fcntl(u->pin, F_GETFD) < 0 ||
		    pt_read_long(PT_MODULE_REFCNT, &ref) < 0 || ref <= 0) {
			stress_fail("module not pinned (refcnt %ld): not unloading", ref);
			break;
		}
		errno = 0;
		ret = pt_try_unload();
		err = errno;
		stat_add(&stats.unloads);
		if (ret != -1 || (err != EBUSY && err != EAGAIN)) {
			stress_fail("delete_module with pidfds open: %d/%s, want EBUSY or EAGAIN",
				    ret, pt_errname(err));
			break;
		}
		sleep_us(250000);
	}
	return NULL;
}

/* ====================================================================== */
/* Namespace B: pid recycling against decoys                              */
/* ====================================================================== */

struct recycle {
	int pidfd[2];		/* the target's process and thread pidfds */
	int procfd;		/* namespace B's procfs */
	volatile int hammer;
	uint64_t rng_seed;
	struct pt_race_counts n;
};

/* Pipes between B's init, the decoy spawner and the decoy. */
struct decoy_pipes {
	struct pt_sync req;	/* init to spawner: a pid to take, 0 to quit */
	struct pt_sync rep;	/* spawner to init: the decoy's pid, its status */
	struct pt_sync ready;	/* decoy to init: running with its uid */
	struct pt_sync go;	/* init to decoy: report and exit */
	struct pt_sync pending;	/* decoy to init: a pending signal, or 0 */
};

static void decoy_main(struct decoy_pipes *p)
{
	sigset_t set;
	int sig, found = 0;

	/* Signals are blocked since birth (inherited): pending shows them. */
	setpgid(0, 0);
	prctl(PR_SET_NAME, "decoy");
	if (setresuid(DECOY_UID, DECOY_UID, DECOY_UID) < 0)
		_exit(2);
	pt_sync_put(&p->ready, 1);
	pt_sync_get(&p->go, 60000);
	sigpending(&set);
	for (sig = 1; sig < NSIG && !found; sig++)
		if (sigismember(&set, sig))
			found = sig;
	pt_sync_put(&p->pending, found);
	_exit(0);
}

/*
 * Forks decoys on request, so that a decoy's parent is not the target's
 * (GET_INFO's ppid tells them apart from the first instant).
 */
static void spawner_main(struct decoy_pipes *p)
{
	int nr, status;
	pid_t d;

	while ((nr = pt_sync_get(&p->req, -1)) > 0) {
		if (pt_set_ns_last_pid(nr - 1) < 0)
			_exit(3);
		d = pt_fork();
		if (d == 0)
			decoy_main(p);
		pt_sync_put(&p->rep, d);
		if (d < 0 || pt_waitpid(d, &status, 0) != d)
			status = -1;
		pt_sync_put(&p->rep, status);
	}
	_exit(0);
}

static void recycle_count(struct recycle *r, int ret, int err, const char *what)
{
	if (!pt_race_count(&r->n, ret, err))
		stress_fail("recycle: %s gave %s, not 0 or ESRCH", what,
			    pt_errname(err));
}

static void *hammer_signal(void *arg)
{
	static const int sigs[] = { SIGUSR1, SIGUSR2, SIGTERM, SIGHUP, 0 };
	struct recycle *r = arg;
	uint64_t rng = r->rng_seed ^ 0x51;
	siginfo_t si;
	char what[64];

	while (r->hammer) {
		int fd = r->pidfd[rnd_below(&rng, 2)];
		unsigned int scope = signal_scopes[rnd_below(&rng, 4)];
		int sig = rnd_below(&rng, 32) ? sigs[rnd_below(&rng, 5)] : SIGKILL;
		const siginfo_t *info = sig && rnd_below(&rng, 2) &&
					!group_info_refused(scope, sig) ?
					pt_siginfo(&si, sig, SI_QUEUE, 1) : NULL;
		int ret;

		errno = 0;
		ret = pt_send_signal(fd, sig, info, scope);
		snprintf(what, sizeof(what), "SEND_SIGNAL(%d, %s%s)", sig,
			 scope_name(scope), info ? ", siginfo" : "");
		recycle_count(r, ret, errno, what);
	}
	return NULL;
}

static void *hammer_info(void *arg)
{
	struct recycle *r = arg;
	uint64_t rng = r->rng_seed ^ 0x1f0;
	struct pidfd_dev_info info;

	while (r->hammer) {
		uint64_t mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS |
				(rnd_below(&rng, 2) ? PIDFD_INFO_EXIT : 0);
		int ret;

		errno = 0;
		ret = pt_get_info(r->pidfd[rnd_below(&rng, 2)], &info, mask);
		recycle_count(r, ret, errno, "GET_INFO");
		if (ret < 0)
			continue;
		/* ppid 0: the target is being released (!pid_alive) */
		if ((info.mask & PIDFD_INFO_PID) &&
		    (info.pid != RECYCLE_PID || info.ppid > 1 || info.ruid == DECOY_UID))
			stress_fail("recycle: GET_INFO described another process "
				    "(pid %u ppid %u ruid %u)", info.pid, info.ppid,
				    info.ruid);
		if ((info.mask & PIDFD_INFO_EXIT) && info.exit_code != SIGKILL)
			stress_fail("recycle: GET_INFO EXIT %#x, the target died of SIGKILL",
				    info.exit_code);
	}
	return NULL;
}

static void *hammer_procfd(void *arg)
{
	struct recycle *r = arg;
	uint64_t rng = r->rng_seed ^ 0x9c;

	while (r->hammer) {
		int pidfd = r->pidfd[rnd_below(&rng, 2)];
		long ppid, uid;
		int fd;

		if (rnd_below(&rng, 4) == 0) {
			int ev = pt_poll1(pidfd, POLLIN, 0);

			if (ev < 0)
				stress_fail("recycle: poll: %m");
			continue;
		}
		errno = 0;
		fd = pt_get_procfd(pidfd, r->procfd);
		recycle_count(r, fd, errno, "GET_PROCFD");
		if (fd < 0)
			continue;
		ppid = status_number(fd, "PPid:");
		uid = status_number(fd, "Uid:");
		close(fd);
		/*
		 * The target's dir shows PPid 1 (us), or 0 or nothing once it
		 * is being released while we read; the decoy's always shows
		 * its parent, the spawner (> 1), and its uid.
		 */
		if (ppid > 1 || uid == DECOY_UID)
			stress_fail("recycle: GET_PROCFD gave another process's "
				    "/proc dir (PPid %ld, Uid %ld)", ppid, uid);
	}
	return NULL;
}

static void recycle_round(struct recycle *r, struct decoy_pipes *p,
			  uint64_t *rng)
{
	static void *(*const hammers[])(void *) = {
		hammer_signal, hammer_info, hammer_procfd,
	};
	struct pidfd_dev_info info;
	unsigned int scope;
	pthread_t th[3];
	int status, i, ev;
	pid_t t, d;

	STRESS_CHECK(pt_set_ns_last_pid(RECYCLE_PID - 1) == 0, "ns_last_pid: %m");
	t = pt_fork_sleeper();	/* every signal blocked, from our mask */
	STRESS_CHECK(t == RECYCLE_PID, "recycle: target got pid %d", t);
	setpgid(t, t);
	r->pidfd[0] = pt_open(t, 0);
	r->pidfd[1] = pt_open(t, PIDFD_THREAD);
	if (r->pidfd[0] < 0 || r->pidfd[1] < 0) {
		stress_fail("recycle: open: %m");
		pt_kill_reap(t);
		return;
	}
	r->rng_seed = pt_rand(rng);
	r->hammer = 1;
	for (i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, hammers[i], r))
			_exit(4);
	sleep_us(rnd_below(rng, 3000));
	scope = signal_scopes[rnd_below(rng, 4)];
	/* Not reaped (we reap it): a zombie from a hammer's SIGKILL is fine. */
	if (pt_send_signal(r->pidfd[rnd_below(rng, 2)], SIGKILL, NULL, scope) < 0)
		stress_fail("recycle: SIGKILL (%s) to the target: %m",
			    scope_name(scope));
	if (pt_waitpid(t, &status, 0) != t)
		stress_fail("recycle: waitpid: %m");
	else if (status != SIGKILL)
		stress_fail("recycle: the target ended with %#x, not SIGKILL", status);
	for (i = 0; i < 2; i++) {
		ev = pt_poll1(r->pidfd[i], POLLIN, 0);
		if (ev <= 0 || (ev & (POLLIN | POLLHUP)) != (POLLIN | POLLHUP))
			stress_fail("recycle: reaped target's pidfd %d polls %#x", i, ev);
		if (pt_get_info(r->pidfd[i], &info, PIDFD_INFO_EXIT) < 0 ||
		    !(info.mask & PIDFD_INFO_EXIT) || info.exit_code != status)
			stress_fail("recycle: reaped target's pidfd %d: EXIT %#x (mask %#llx), waitpid %#x: %m",
				    i, info.exit_code,
				    (unsigned long long)info.mask, status);
	}

	/* The decoy takes the pid while the hammers go on. */
	pt_sync_put(&p->req, RECYCLE_PID);
	d = pt_sync_get(&p->rep, 10000);
	if (d != RECYCLE_PID)
		stress_fail("recycle: decoy got pid %d, not the recycled %d", d,
			    RECYCLE_PID);
	else if (pt_sync_get(&p->ready, 10000) != 1)
		stress_fail("recycle: the decoy did not start");
	else
		sleep_us(5000 + rnd_below(rng, 15000));
	r->hammer = 0;
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);

	/* Stale pidfds: ESRCH for everything that would reach the decoy. */
	for (i = 0; i < 2 && d == RECYCLE_PID; i++) {
		int fd;

		errno = 0;
		if (pt_send_signal(r->pidfd[i], 0, NULL, 0) != -1 || errno != ESRCH)
			stress_fail("recycle: signal 0 after reuse: %s",
				    pt_errname(errno));
		errno = 0;
		if (pt_get_info(r->pidfd[i], &info, PIDFD_INFO_PID) != -1 ||
		    errno != ESRCH)
			stress_fail("recycle: GET_INFO after reuse: %s",
				    pt_errname(errno));

		errno = 0;
		if (pt_send_signal(r->pidfd[i], SIGUSR1, NULL,
				   PIDFD_SIGNAL_PROCESS_GROUP) != -1 || errno != ESRCH)
			stress_fail("recycle: PROCESS_GROUP signal after reuse: %s",
				    pt_errname(errno));
		errno = 0;
		fd = pt_get_procfd(r->pidfd[i], r->procfd);
		if (fd >= 0)
			close(fd);
		if (fd != -1 || errno != ESRCH)
			stress_fail("recycle: GET_PROCFD after reuse: %d/%s", fd,
				    pt_errname(errno));
	}
	pt_sync_put(&p->go, 1);
	if (d > 0) {
		int sig = pt_sync_get(&p->pending, 10000);

		status = pt_sync_get(&p->rep, 10000);
		if (sig != 0)
			stress_fail("recycle: the decoy on the recycled pid got signal %d",
				    sig);
		else if (status != 0)
			stress_fail("recycle: the decoy on the recycled pid ended with %#x",
				    status);
	}
	close(r->pidfd[0]);
	close(r->pidfd[1]);
	if (!failed())
		stat_add(&stats.recycles);
}

/* Namespace B's init. */
static int recycler_main(void *arg)
{
	const char *dir = arg;
	struct decoy_pipes p;
	struct recycle r;
	uint64_t rng = (stress_seed ^ 0xdec0de) | 1;
	sigset_t all;
	pid_t spawner;
	int status;

	PT_CHECK(getpid() == 1, "recycler: not pid 1 of a new pid ns");
	PT_CHECK(mount("proc", dir, "proc", 0, NULL) == 0, "mount proc: %m");
	memset(&r, 0, sizeof(r));
	r.procfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(r.procfd >= 0, "open procfs: %m");
	/* Target, spawner and decoys are born with every signal blocked. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	pt_sync_init(&p.req);
	pt_sync_init(&p.rep);
	pt_sync_init(&p.ready);
	pt_sync_init(&p.go);
	pt_sync_init(&p.pending);
	spawner = pt_fork();
	if (spawner == 0)
		spawner_main(&p);
	PT_CHECK(spawner > 0, "fork: %m");

	while (running())
		recycle_round(&r, &p, &rng);

	pt_sync_put(&p.req, 0);
	PT_CHECK(pt_waitpid(spawner, &status, 0) == spawner && status == 0,
		 "spawner ended with %#x", status);
	if (failed())
		PT_FAIL("%s", verdict.fail);
	PT_CHECK(stats.recycles >= 3, "only %lu recycle rounds", stats.recycles);
	pt_msg("%lu rounds, %lu calls ok, %lu ESRCH", stats.recycles, r.n.ok,
	       r.n.esrch);
	return 0;
}

/* Namespace B's parent: makes the namespace, runs its init. */
static int recycler_ns_main(void *arg)
{
	char msg[1024];
	int rc;

	PT_CHECK(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	rc = pt_run(recycler_main, arg, msg, sizeof(msg));
	pt_msg("%s", msg);
	return rc;
}

/* ====================================================================== */
/* The coverer: mounts over namespace A's /proc entries                   */
/* ====================================================================== */

/*
 * Binds a tmpfs with a submount over /proc/<pid> or /proc/<pid>/task of
 * the workers' children for a moment, again and again: GET_PROCFD must
 * answer EXDEV or the right directory, never cross into it, and nothing
 * outside this mount namespace may change (stress_concurrent checks).
 */
struct coverer {
	const char *procdir;	/* namespace A's procfs */
	char cover[64];
	uint64_t rng;
};

static void *coverer_main(void *arg)
{
	struct coverer *c = arg;
	char target[96];
	pid_t pid;

	while (running()) {
		pid = shared.current[rnd_below(&c->rng, STRESS_WORKERS)];
		if (pid <= 0)
			continue;
		snprintf(target, sizeof(target), "%s/%d%s", c->procdir, pid,
			 rnd_below(&c->rng, 2) ? "/task" : "");
		if (mount(c->cover, target, NULL, MS_BIND | MS_REC, NULL) == 0) {
			stat_add(&stats.covers);
			usleep(rnd_below(&c->rng, 2000));
			/* Gone with its process already, perhaps. */
			umount2(target, MNT_DETACH);
		}
		usleep(rnd_below(&c->rng, 2000));
	}
	return NULL;
}

static void coverer_setup(struct coverer *c, const char *procdir)
{
	char sub[96];

	c->procdir = procdir;
	snprintf(c->cover, sizeof(c->cover), "/tmp/pidfd-stress-cover");
	snprintf(sub, sizeof(sub), "%s/sub", c->cover);
	PT_REQUIRE(mkdir(c->cover, 0755) == 0 || errno == EEXIST, "mkdir: %m");
	PT_REQUIRE(mount("cover", c->cover, "tmpfs", 0, "size=16k") == 0,
		   "mount tmpfs: %m");
	PT_REQUIRE(mkdir(sub, 0755) == 0, "mkdir: %m");
	PT_REQUIRE(mount("sub", sub, "tmpfs", 0, "size=16k") == 0,
		   "mount tmpfs: %m");
	c->rng = stress_seed * 0x2545f4914f6cdd1dULL | 1;
}

struct recycler_thread {
	const char *dir;
	int rc;
	char msg[1024];
};

static void *recycler_thread_main(void *arg)
{
	struct recycler_thread *rt = arg;

	rt->rc = pt_run(recycler_ns_main, (void *)rt->dir, rt->msg,
			sizeof(rt->msg));
	return NULL;
}

/* ====================================================================== */
/* The driver: namespace A's init                                         */
/* ====================================================================== */

struct stress_args {
	char dir_a[64], dir_b[64];
	uint64_t seed;
	unsigned long seconds;
};

static int driver_main(void *arg)
{
	struct stress_args *a = arg;
	struct worker workers[STRESS_WORKERS];
	pthread_t wth[STRESS_WORKERS], uth, rth, cth;
	struct recycler_thread rt = { .dir = a->dir_b };
	struct coverer cover;
	struct unloader u;
	int64_t start = pt_now_ms();
	unsigned long lives = 0;
	int i;

	PT_CHECK(getpid() == 1, "not pid 1 of a new pid ns");
	PT_CHECK(mount("proc", a->dir_a, "proc", 0, NULL) == 0, "mount proc: %m");
	shared.procfd = open(a->dir_a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(shared.procfd >= 0, "open procfs: %m");
	PT_CHECK(pt_read_long("/proc/sys/kernel/pid_max", &shared.pid_max) == 0,
		 "pid_max: %m");
	u.pin = pt_open(getpid(), 0);
	PT_CHECK(u.pin >= 0, "open a pidfd of ourselves: %m");
	shared.deadline = start + (int64_t)a->seconds * 1000;
	stress_seed = a->seed;
	coverer_setup(&cover, a->dir_a);
	PT_CHECK(pthread_create(&rth, NULL, recycler_thread_main, &rt) == 0,
		 "pthread_create");
	PT_CHECK(pthread_create(&cth, NULL, coverer_main, &cover) == 0,
		 "pthread_create");
	for (i = 0; i < STRESS_WORKERS; i++) {
		workers[i].idx = i;
		workers[i].rng = (a->seed + 1) * 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1) | 1;
		PT_CHECK(pthread_create(&wth[i], NULL, worker_main, &workers[i]) == 0,
			 "pthread_create");
	}
	PT_CHECK(pthread_create(&uth, NULL, unload_main, &u) == 0, "pthread_create");
	for (i = 0; i < STRESS_WORKERS; i++)
		pthread_join(wth[i], NULL);
	pthread_join(uth, NULL);
	pthread_join(rth, NULL);
	pthread_join(cth, NULL);
	close(u.pin);

	if (failed())
		PT_FAIL("%s", verdict.fail);
	PT_CHECK(rt.rc == 0, "recycler (pid ns B) failed (%d): %s", rt.rc, rt.msg);
	for (i = 0; i < FATE_COUNT; i++) {
		lives += stats.lives[i];
		PT_CHECK(stats.lives[i] > 0, "no child with fate %s ran",
			 fate_names[i]);
	}
	PT_CHECK(lives >= 20, "only %lu children in %lu s", lives, a->seconds);
	if (shared.pids_ran_out)
		pt_msg("(stopped early: pid %ld of namespace A reached) ",
		       shared.pid_max - 2000);
	PT_CHECK(stats.unloads >= 3, "only %lu unload attempts", stats.unloads);
	PT_CHECK(stats.covers >= 10, "only %lu mounts over /proc entries",
		 stats.covers);
	pt_msg("%lld ms: %lu children (exit %lu, killed %lu, leader-exit %lu, exec %lu), "
	       "%lu ops (%lu ok, %lu ESRCH), %lu thread pidfds, "
	       "%lu cross ops, %lu unload attempts refused, %lu mounts over "
	       "/proc entries (%lu EXDEV); recycler: %s",
	       (long long)(pt_now_ms() - start), lives, stats.lives[FATE_EXIT],
	       stats.lives[FATE_KILLED], stats.lives[FATE_LEADER_EXIT],
	       stats.lives[FATE_EXEC], stats.ops, stats.ok, stats.esrch,
	       stats.tid_fds, stats.cross_ops,
	       stats.unloads, stats.covers, stats.exdev, rt.msg);
	return 0;
}

/* One of the module's counters; -1 if it cannot be read. */
static long counter(const char *path)
{
	long v = -1;

	if (pt_read_long(path, &v) < 0)
		return -1;
	return v;
}

START_TEST(stress_concurrent)
{
	struct stress_args a = {
		.seconds = pt_env_ulong("PIDFD_STRESS_SECONDS", 20),
		.seed = pt_env_ulong("PIDFD_STRESS_SEED", (unsigned long)time(NULL)),
	};
	static char mounts0[32768], mounts[sizeof(mounts0)];
	long pidfds0, pids0, pidfds, pids;
	char msg[4096];
	int rc, i;

	printf("[stress] seed %llu, %lu s (PIDFD_STRESS_SEED, PIDFD_STRESS_SECONDS)\n",
	       (unsigned long long)a.seed, a.seconds);
	fflush(stdout);
	ck_assert_ok(pt_read_text("/proc/1/mountinfo", mounts0, sizeof(mounts0)));
	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_tmpdir(a.dir_a, sizeof(a.dir_a)));
	ck_assert_ok(pt_tmpdir(a.dir_b, sizeof(a.dir_b)));
	ck_assert_ok(pt_dev());
	pidfds0 = counter(PT_LIVE_PIDFDS);
	pids0 = counter(PT_LIVE_PIDS);
	/* Both are the module's: one missing would compare -1 with -1. */
	ck_assert_msg(pidfds0 >= 0, "cannot read %s", PT_LIVE_PIDFDS);
	ck_assert_msg(pids0 >= 0, "cannot read %s", PT_LIVE_PIDS);
	ck_assert_msg(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");

	rc = pt_run(driver_main, &a, msg, sizeof(msg));
	printf("[stress] %s\n", msg);
	fflush(stdout);
	ck_assert_msg(rc == 0, "stress (seed %llu): %s", (unsigned long long)a.seed,
		      msg);

	/* Everything is reaped; closing is synchronous, but give it a moment. */
	for (i = 0; i < 50; i++) {
		pidfds = counter(PT_LIVE_PIDFDS);
		pids = counter(PT_LIVE_PIDS);
		if (pidfds == pidfds0 && pids == pids0)
			break;
		usleep(100000);
	}
	ck_assert_msg(pidfds == pidfds0, "live_pidfds %ld before, %ld after",
		      pidfds0, pidfds);
	ck_assert_msg(pids == pids0, "live_pids %ld before, %ld after", pids0, pids);
	ck_assert_ok(pt_read_text("/proc/1/mountinfo", mounts, sizeof(mounts)));
	ck_assert_msg(strcmp(mounts, mounts0) == 0,
		      "the initial namespace's mounts changed");
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;
	ssize_t n;

	/* A child's thread exec'd us: be the new image, exit with the code. */
	if (argc == 3 && !strcmp(argv[1], EXEC_EXIT_ARG))
		_exit(atoi(argv[2]));
	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n <= 0) {
		perror("readlink /proc/self/exe");
		return 1;
	}
	self_exe[n] = '\0';

	s = suite_create("stress");
	tc = pt_tcase(s, "concurrent");
	tcase_set_timeout(tc, (double)pt_env_ulong("PIDFD_STRESS_SECONDS", 20) + 60);
	tcase_add_test(tc, stress_concurrent);
	return pt_main(s);
}
