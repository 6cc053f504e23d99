// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_DEV_SEND_SIGNAL (docs/abi.md): every errno, every signal scope with
 * the signal seen where it should arrive and not where it should not, the
 * siginfo as received, denials for an unprivileged uid, pid namespaces, and
 * the 2019 seed's pidfd_test.c signal cases.
 *
 * Where a signal went is read from the kernel's pending sets: the targets
 * block the test signals in every thread, and /proc/<pid>/task/<tid>/status
 * shows a thread-directed signal in that thread's SigPnd and a
 * process-directed one in ShdPnd. Live delivery is checked with a thread
 * waiting in sigtimedwait().
 */
#include "pidfd_test.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#define BIT(sig) (1ull << ((sig) - 1))

/* ---- a target process ---------------------------------------------- */

/*
 * A child with two threads, the leader and a worker, both blocking the
 * test signals. The worker either just waits (wait_ms < 0) or takes one
 * signal with sigtimedwait() and reports it. With pgrp, the child leads a
 * new process group with one more member process.
 */
struct target {
	pid_t pid, worker, member;
	int res_fd;
};

struct target_opts {
	uid_t uid;
	int wait_ms;
	bool pgrp;
};

struct recv_result {
	pid_t tid;
	int err;
	siginfo_t si;
};

static int res_fd_child;
static int wait_ms_child;

static void test_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGRTMIN + 1);
}

static void *worker_main(void *arg)
{
	struct pt_sync *ready = arg;
	struct recv_result r = { .tid = pt_gettid() };
	sigset_t set;
	int ret;

	pt_sync_put(ready, r.tid);
	if (wait_ms_child >= 0) {
		test_sigset(&set);
		ret = pt_sigtimedwait(&set, &r.si, wait_ms_child);
		r.err = ret < 0 ? errno : 0;
		if (write(res_fd_child, &r, sizeof(r)) != sizeof(r))
			_exit(3);
	}
	for (;;)
		pause();
	return NULL;
}

/*
 * Waits until the worker sleeps inside rt_sigtimedwait(), so that a signal
 * sent now finds a thread waiting for it (/proc/.../syscall shows the
 * number of the syscall a blocked thread is in).
 */
static void wait_in_sigtimedwait(const struct target *t)
{
	char path[96], buf[256];
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", t->pid, t->worker);
	for (i = 0; i < 2000; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ck_assert_msg(fd >= 0, "open %s: %m", path);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			if (atol(buf) == SYS_rt_sigtimedwait)
				return;
		}
		usleep(5000);
	}
	ck_abort_msg("worker %d never entered rt_sigtimedwait (%s)", t->worker, buf);
}

static void target_start(struct target *t, const struct target_opts *o)
{
	struct pt_sync ready;
	int res[2];
	pid_t parent = getpid();
	sigset_t set;

	memset(t, 0, sizeof(*t));
	pt_sync_init(&ready);
	ck_assert_ok(pipe2(res, O_CLOEXEC));
	t->pid = pt_fork();
	if (t->pid == 0) {
		pthread_t th;

		if (o->uid && pt_drop_privs(o->uid, o->uid) < 0)
			_exit(2);
		/* after the uid change, which clears it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(2);
		test_sigset(&set);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (o->pgrp) {
			pid_t m;

			if (setpgid(0, 0) < 0)
				_exit(2);
			m = pt_fork();
			if (m == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				for (;;)
					pause();
			}
			pt_sync_put(&ready, m);
		}
		res_fd_child = res[1];
		wait_ms_child = o->wait_ms;
		if (pthread_create(&th, NULL, worker_main, &ready))
			_exit(2);
		for (;;)
			pause();
	}
	ck_assert_int_ge(t->pid, 0);
	close(res[1]);
	t->res_fd = res[0];
	if (o->pgrp) {
		t->member = pt_sync_get(&ready, 10000);
		ck_assert_msg(t->member > 0, "target did not start its group member");
	}
	t->worker = pt_sync_get(&ready, 10000);
	ck_assert_msg(t->worker > 0, "target did not start its worker thread");
	pt_sync_close(&ready);
	if (o->wait_ms >= 0)
		wait_in_sigtimedwait(t);
}

static void target_stop(struct target *t)
{
	if (t->member > 0)
		kill(t->member, SIGKILL);
	pt_kill_reap(t->pid);
	close(t->res_fd);
}

static int target_result(struct target *t, struct recv_result *r, int timeout_ms)
{
	if (pt_poll1(t->res_fd, POLLIN, timeout_ms) <= 0)
		return -1;
	return read(t->res_fd, r, sizeof(*r)) == sizeof(*r) ? 0 : -1;
}

enum where { NOWHERE, SHARED, LEADER, WORKER };

static const char *where_name[] = { "nowhere", "shared (process)",
				    "leader thread", "worker thread" };

/* Asserts that @sig is pending exactly at @w in target @t. */
static void assert_pending(const struct target *t, int sig, enum where w)
{
	uint64_t lpnd, wpnd, shd, shd2;

	ck_assert_msg(pt_thread_pending(t->pid, t->pid, &lpnd, &shd) == 0,
		      "cannot read status of %d", t->pid);
	ck_assert_msg(pt_thread_pending(t->pid, t->worker, &wpnd, &shd2) == 0,
		      "cannot read status of %d/%d", t->pid, t->worker);
	ck_assert_msg(!!(shd & BIT(sig)) == (w == SHARED),
		      "signal %d: shared pending %s, expected %s", sig,
		      shd & BIT(sig) ? "set" : "clear", where_name[w]);
	ck_assert_msg(!!(lpnd & BIT(sig)) == (w == LEADER),
		      "signal %d: leader's pending %s, expected %s", sig,
		      lpnd & BIT(sig) ? "set" : "clear", where_name[w]);
	ck_assert_msg(!!(wpnd & BIT(sig)) == (w == WORKER),
		      "signal %d: worker's pending %s, expected %s", sig,
		      wpnd & BIT(sig) ? "set" : "clear", where_name[w]);
}

/* Asserts that @sig is pending at @a or at @b, and nowhere else. */
static void assert_pending_in(const struct target *t, int sig, enum where a,
			      enum where b)
{
	uint64_t lpnd, wpnd, shd, shd2;
	int n = 0;
	enum where w = NOWHERE;

	ck_assert_ok(pt_thread_pending(t->pid, t->pid, &lpnd, &shd));
	ck_assert_ok(pt_thread_pending(t->pid, t->worker, &wpnd, &shd2));
	if (shd & BIT(sig))
		n++, w = SHARED;
	if (lpnd & BIT(sig))
		n++, w = LEADER;
	if (wpnd & BIT(sig))
		n++, w = WORKER;
	ck_assert_msg(n == 1 && (w == a || w == b),
		      "signal %d pending in %d places (last: %s), want %s or %s",
		      sig, n, where_name[w], where_name[a], where_name[b]);
}

static const struct target_opts idle_target = { .wait_ms = -1 };

/* Sends @sig through a pidfd opened on @which with @oflags and @sflags. */
static void scope_case(bool on_worker, unsigned int oflags, unsigned int sflags,
		       enum where w)
{
	struct target t;
	int fd;

	target_start(&t, &idle_target);
	fd = pt_open_ok(on_worker ? t.worker : t.pid, oflags);
	ck_assert_msg(pt_send_signal(fd, SIGUSR1, NULL, sflags) == 0,
		      "send (open flags %#x, signal flags %#x): %s", oflags,
		      sflags, pt_errname(errno));
	assert_pending(&t, SIGUSR1, w);
	/* A second signal by the same route lands in the same place. */
	ck_assert_ok(pt_send_signal(fd, SIGRTMIN + 1, NULL, sflags));
	assert_pending(&t, SIGRTMIN + 1, w);
	close(fd);
	target_stop(&t);
}

/* ---- scopes --------------------------------------------------------- */

/* @si says @sig with @code, sent by @pid as @uid. */
static void assert_siginfo(const siginfo_t *si, int sig, int code, pid_t pid,
			   uid_t uid)
{
	ck_assert_int_eq(si->si_signo, sig);
	ck_assert_int_eq(si->si_code, code);
	ck_assert_int_eq(si->si_pid, pid);
	ck_assert_int_eq(si->si_uid, uid);
}

START_TEST(scope_default_process)
{
	scope_case(false, 0, 0, SHARED);
}
END_TEST

START_TEST(scope_default_tid_without_thread_flag)
{
	struct target t;

	/* A thread ID needs PIDFD_THREAD, as pidfd_open(2). */
	target_start(&t, &idle_target);
	ck_assert_errno(pt_open(t.worker, 0), pt_kernel_tid_open_errno(t.worker));
	target_stop(&t);
}
END_TEST

START_TEST(scope_default_thread_pidfd)
{
	scope_case(true, PIDFD_THREAD, 0, WORKER);
}
END_TEST

START_TEST(scope_default_thread_pidfd_leader)
{
	scope_case(false, PIDFD_THREAD, 0, LEADER);
}
END_TEST

START_TEST(scope_flag_thread)
{
	ck_assert_int_eq(PIDFD_SIGNAL_TID, PIDFD_SIGNAL_THREAD);
	scope_case(false, 0, PIDFD_SIGNAL_THREAD, LEADER);
	scope_case(true, PIDFD_THREAD, PIDFD_SIGNAL_TID, WORKER);
	scope_case(true, PIDFD_THREAD, PIDFD_SIGNAL_THREAD, WORKER);
}
END_TEST

START_TEST(scope_flag_thread_group)
{
	scope_case(true, PIDFD_THREAD, PIDFD_SIGNAL_THREAD_GROUP, SHARED);
	scope_case(false, PIDFD_THREAD, PIDFD_SIGNAL_THREAD_GROUP, SHARED);
	scope_case(false, 0, PIDFD_SIGNAL_THREAD_GROUP, SHARED);
}
END_TEST

/*
 * A target that leads a process group with a second member; the test
 * process blocks the test signals too, to see them if they came.
 */
static void start_group_target(struct target *t)
{
	static const struct target_opts o = { .wait_ms = -1, .pgrp = true };
	sigset_t set;

	test_sigset(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	target_start(t, &o);
}

START_TEST(scope_process_group)
{
	struct target t;
	struct target other;
	uint64_t pnd, shd;
	int fd;

	start_group_target(&t);
	target_start(&other, &idle_target);

	fd = pt_open_ok(t.pid, 0);
	ck_assert_ok(pt_send_signal(fd, SIGUSR2, NULL, PIDFD_SIGNAL_PROCESS_GROUP));
	assert_pending(&t, SIGUSR2, SHARED);
	ck_assert_ok(pt_thread_pending(t.member, t.member, &pnd, &shd));
	ck_assert_msg(shd & BIT(SIGUSR2), "group member %d did not get the signal",
		      t.member);
	assert_pending(&other, SIGUSR2, NOWHERE);
	ck_assert_ok(pt_thread_pending(getpid(), pt_gettid(), &pnd, &shd));
	ck_assert_msg(!((pnd | shd) & BIT(SIGUSR2)),
		      "the sender's own group got the signal");
	close(fd);

	/* Through a thread pidfd on the leader, too. */
	fd = pt_open_ok(t.pid, PIDFD_THREAD);
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_PROCESS_GROUP));
	assert_pending(&t, SIGUSR1, SHARED);
	ck_assert_ok(pt_thread_pending(t.member, t.member, &pnd, &shd));
	ck_assert_msg(shd & BIT(SIGUSR1), "group member did not get the signal");
	assert_pending(&other, SIGUSR1, NOWHERE);
	close(fd);

	target_stop(&t);
	target_stop(&other);
}
END_TEST

/*
 * A caller's siginfo to a process group: the kernel signals exactly the
 * group's members under tasklist_lock, which a module cannot take, so the
 * module refuses (EOPNOTSUPP) and nobody gets anything.
 */
START_TEST(scope_process_group_siginfo_refused)
{
	siginfo_t si = { .si_signo = SIGUSR1, .si_code = SI_QUEUE };
	struct target t;
	uint64_t pnd, shd;
	int fd;

	start_group_target(&t);
	fd = pt_open_ok(t.pid, 0);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, &si,
				       PIDFD_SIGNAL_PROCESS_GROUP), EOPNOTSUPP);
	assert_pending(&t, SIGUSR1, NOWHERE);
	ck_assert_ok(pt_thread_pending(t.member, t.member, &pnd, &shd));
	ck_assert_msg(!((pnd | shd) & BIT(SIGUSR1)), "a group member got it");
	close(fd);
	target_stop(&t);
}
END_TEST

START_TEST(scope_process_group_not_leader)
{
	struct target t;
	int fd;

	target_start(&t, &idle_target);
	/* t.pid is in the test's process group; no group has its ID. */
	ck_assert_int_ne(getpgid(t.pid), t.pid);
	fd = pt_open_ok(t.pid, 0);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, NULL,
				       PIDFD_SIGNAL_PROCESS_GROUP), ESRCH);
	assert_pending(&t, SIGUSR1, NOWHERE);
	close(fd);
	target_stop(&t);
}
END_TEST

/* ---- live delivery and siginfo -------------------------------------- */

static const struct target_opts waiting_target = { .wait_ms = 20000 };

/* The waiting worker thread received a signal within 20 s: into @r. */
static void worker_received(struct target *t, struct recv_result *r,
			    const char *what)
{
	ck_assert_msg(target_result(t, r, 20000) == 0, "%s", what);
	ck_assert_int_eq(r->err, 0);
	ck_assert_int_eq(r->tid, t->worker);
}

/*
 * The waiting worker receives kill(2)-style signals (no siginfo): through
 * its own thread pidfd as tgkill(2)'s SI_TKILL, through the process's as
 * kill(2)'s SI_USER, the process-wide one picked up by the thread waiting.
 */
static const struct worker_case {
	bool thread_pidfd;
	int sig, code;
} worker_cases[] = {
	{ true, SIGUSR1, SI_TKILL },
	{ false, SIGUSR2, SI_USER },
};

START_TEST(deliver_to_waiting_worker)
{
	const struct worker_case *c = &worker_cases[_i];
	struct recv_result r;
	struct target t;
	int fd;

	target_start(&t, &waiting_target);
	fd = c->thread_pidfd ? pt_open_ok(t.worker, PIDFD_THREAD) :
			       pt_open_ok(t.pid, 0);
	ck_assert_ok(pt_send_signal(fd, c->sig, NULL, 0));
	worker_received(&t, &r, "the worker did not receive the signal");
	assert_siginfo(&r.si, c->sig, c->code, getpid(), 0);
	close(fd);
	target_stop(&t);
}
END_TEST

START_TEST(deliver_thread_scope_not_to_other_thread)
{
	static const struct target_opts o = { .wait_ms = 1500 };
	struct recv_result r;
	struct target t;
	int fd;

	/* The worker waits; a signal for the leader must not reach it. */
	target_start(&t, &o);
	fd = pt_open_ok(t.pid, 0);
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD));
	ck_assert_msg(target_result(&t, &r, 30000) == 0, "no report from the worker");
	ck_assert_msg(r.err == EAGAIN, "the worker received signal %d (code %d) "
		      "meant for the leader", r.si.si_signo, r.si.si_code);
	assert_pending(&t, SIGUSR1, LEADER);
	close(fd);
	target_stop(&t);
}
END_TEST

/* A process-wide signal with a caller siginfo must reach a thread waiting
 * in sigwaitinfo while the main thread blocks it. */
START_TEST(deliver_process_with_info_to_waiting_thread)
{
	struct recv_result r;
	struct target t;
	siginfo_t si;
	int fd;

	target_start(&t, &waiting_target);
	fd = pt_open_ok(t.pid, 0);
	pt_siginfo(&si, SIGRTMIN + 1, SI_QUEUE, 0x5eed1234);
	ck_assert_ok(pt_send_signal(fd, SIGRTMIN + 1, &si, 0));
	worker_received(&t, &r, "the signal did not reach the thread in sigtimedwait");
	assert_siginfo(&r.si, SIGRTMIN + 1, SI_QUEUE, getpid(), 0);
	ck_assert_int_eq(r.si.si_value.sival_int, 0x5eed1234);
	close(fd);
	target_stop(&t);
}
END_TEST

START_TEST(deliver_thread_with_info)
{
	struct recv_result r;
	struct target t;
	siginfo_t si;
	int fd;

	target_start(&t, &waiting_target);
	fd = pt_open_ok(t.worker, PIDFD_THREAD);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = 4242;
	si.si_uid = 0;
	si.si_value.sival_ptr = (void *)0x1122334455667788ull;
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, &si, 0));
	worker_received(&t, &r, "no report");
	ck_assert_int_eq(r.si.si_code, SI_QUEUE);
	ck_assert_ptr_eq(r.si.si_value.sival_ptr, (void *)0x1122334455667788ull);
	/* delivered as given (the sender is in the receiver's namespace) */
	ck_assert_int_eq(r.si.si_pid, 4242);
	close(fd);
	target_stop(&t);
}
END_TEST

/* ---- the seed: signal ourselves ------------------------------------- */

static volatile sig_atomic_t got_sig;
static siginfo_t got_info;

static void record_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_info = *si;
	got_sig = sig;
}

START_TEST(self_sigusr1)
{
	struct sigaction sa = { .sa_sigaction = record_handler,
				.sa_flags = SA_SIGINFO };
	int fd, i;

	ck_assert_ok(sigaction(SIGUSR1, &sa, NULL));
	fd = pt_open_ok(getpid(), 0);
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, NULL, 0));
	for (i = 0; i < 1000 && !got_sig; i++)
		usleep(1000);
	ck_assert_msg(got_sig == SIGUSR1, "SIGUSR1 not received by the handler");
	ck_assert_int_eq(got_info.si_code, SI_USER);
	ck_assert_int_eq(got_info.si_pid, getpid());
	ck_assert_int_eq(got_info.si_uid, getuid());
	close(fd);
}
END_TEST

START_TEST(self_info_any_code_allowed)
{
	siginfo_t si, got;
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = pt_open_ok(getpid(), 0);

	/* si_code >= 0 and SI_TKILL are allowed towards oneself. */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_USER;
	si.si_pid = 77;
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, &si, 0));
	ck_assert_int_eq(pt_sigtimedwait(&set, &got, 5000), SIGUSR1);
	ck_assert_int_eq(got.si_code, SI_USER);
	ck_assert_int_eq(got.si_pid, 77);

	si.si_code = SI_TKILL;
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, &si, 0));
	ck_assert_int_eq(pt_sigtimedwait(&set, &got, 5000), SIGUSR1);
	ck_assert_int_eq(got.si_code, SI_TKILL);

	si.si_code = SI_KERNEL;
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, &si, PIDFD_SIGNAL_THREAD_GROUP));
	ck_assert_int_eq(pt_sigtimedwait(&set, &got, 5000), SIGUSR1);
	ck_assert_int_eq(got.si_code, SI_KERNEL);

	/*
	 * Thread scope to the calling thread is still "itself" (upstream:
	 * EPERM only if task_pid(current) != pid or type > PIDTYPE_TGID,
	 * i.e. the process-group scope).
	 */
	si.si_code = SI_USER;
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, &si, PIDFD_SIGNAL_THREAD));
	ck_assert_int_eq(pt_sigtimedwait(&set, &got, 5000), SIGUSR1);
	ck_assert_int_eq(got.si_code, SI_USER);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, &si, PIDFD_SIGNAL_PROCESS_GROUP),
			EPERM);
	si.si_code = SI_TKILL;
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, &si, PIDFD_SIGNAL_PROCESS_GROUP),
			EPERM);
	close(fd);
}
END_TEST

/* ---- errors --------------------------------------------------------- */

START_TEST(err_flags)
{
	static const unsigned int bad[] = {
		1u << 3, 1u << 31, 0xffffffffu,
		PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP,
		PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_PROCESS_GROUP,
		PIDFD_SIGNAL_THREAD_GROUP | PIDFD_SIGNAL_PROCESS_GROUP,
		PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP |
			PIDFD_SIGNAL_PROCESS_GROUP,
		PIDFD_SIGNAL_THREAD | (1u << 5),
	};
	int fd = pt_open_ok(getpid(), 0);
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ck_assert_msg(pt_send_signal(fd, 0, NULL, bad[i]) == -1 &&
			      errno == EINVAL, "flags %#x: expected EINVAL, got %s",
			      bad[i], pt_errname(errno));
	}
	close(fd);
}
END_TEST

START_TEST(err_signal_number)
{
	int fd = pt_open_ok(getpid(), 0);
	siginfo_t si = { .si_signo = 65, .si_code = SI_QUEUE };

	ck_assert_errno(pt_send_signal(fd, 65, NULL, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, 1000, NULL, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, -1, NULL, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, INT_MIN, NULL, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, 65, &si, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, 65, NULL, PIDFD_SIGNAL_THREAD), EINVAL);
	close(fd);
}
END_TEST

START_TEST(err_efault)
{
	int fd = pt_open_ok(getpid(), 0);

	ck_assert_errno(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, NULL), EFAULT);
	ck_assert_errno(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, pt_bad_ptr()), EFAULT);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, pt_bad_ptr(), 0), EFAULT);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, (void *)8, 0), EFAULT);
	close(fd);
}
END_TEST

START_TEST(err_extensible)
{
	struct {
		struct pidfd_signal_args a;
		uint64_t tail;
	} big = { { .sig = 0 }, 0 };
	int fd = pt_open_ok(getpid(), 0);

	ck_assert_int_eq(sizeof(struct pidfd_signal_args), PIDFD_SIGNAL_ARGS_SIZE_VER0);
	ck_assert_int_eq(PIDFD_DEV_SEND_SIGNAL, PT_SIGNAL_CMD(PIDFD_SIGNAL_ARGS_SIZE_VER0));
	ck_assert_msg(ioctl(fd, PT_SIGNAL_CMD(sizeof(big)), &big) == 0,
		      "24-byte struct, zero tail: %s", pt_errname(errno));
	big.tail = 1;
	ck_assert_errno(ioctl(fd, PT_SIGNAL_CMD(sizeof(big)), &big), E2BIG);
	close(fd);
}
END_TEST

START_TEST(err_signo_mismatch)
{
	siginfo_t si;
	struct target t;
	int self, fd;

	target_start(&t, &idle_target);
	self = pt_open_ok(getpid(), 0);
	fd = pt_open_ok(t.pid, 0);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR2;
	si.si_code = SI_QUEUE;
	ck_assert_errno(pt_send_signal(self, SIGUSR1, &si, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, &si, 0), EINVAL);
	ck_assert_errno(pt_send_signal(fd, 0, &si, 0), EINVAL);
	assert_pending(&t, SIGUSR1, NOWHERE);
	assert_pending(&t, SIGUSR2, NOWHERE);
	close(fd);
	close(self);
	target_stop(&t);
}
END_TEST

START_TEST(err_si_code_to_other)
{
	static const int codes[] = { SI_USER, SI_TKILL, SI_KERNEL, 1, 0x7fffffff };
	struct target t;
	siginfo_t si;
	size_t i;
	int fd, tfd;

	target_start(&t, &idle_target);
	fd = pt_open_ok(t.pid, 0);
	tfd = pt_open_ok(t.worker, PIDFD_THREAD);
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGUSR1;
		si.si_code = codes[i];
		errno = 0;
		ck_assert_msg(pt_send_signal(fd, SIGUSR1, &si, 0) == -1 && errno == EPERM,
			      "si_code %d to another process: expected EPERM, got %s",
			      codes[i], pt_errname(errno));
		errno = 0;
		ck_assert_msg(pt_send_signal(tfd, SIGUSR1, &si, 0) == -1 && errno == EPERM,
			      "si_code %d to another thread: expected EPERM, got %s",
			      codes[i], pt_errname(errno));
	}
	assert_pending(&t, SIGUSR1, NOWHERE);
	/*
	 * SI_QUEUE and other negative codes are fine. With a caller siginfo
	 * the module cannot reach the shared queue (docs/differences.md,
	 * "Signals" 5): with every thread blocking, it stays on the target
	 * thread. Either is the target process; never the other thread.
	 */
	si.si_code = SI_QUEUE;
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, &si, 0));
	assert_pending_in(&t, SIGUSR1, SHARED, LEADER);
	si.si_signo = SIGUSR2;
	si.si_code = SI_ASYNCIO;
	ck_assert_ok(pt_send_signal(tfd, SIGUSR2, &si, 0));
	assert_pending(&t, SIGUSR2, WORKER);
	close(fd);
	close(tfd);
	target_stop(&t);
}
END_TEST

START_TEST(probe_sig0)
{
	struct target t;
	int fd, self;

	target_start(&t, &idle_target);
	self = pt_open_ok(getpid(), 0);
	fd = pt_open_ok(t.pid, 0);
	ck_assert_ok(pt_send_signal(self, 0, NULL, 0));
	ck_assert_ok(pt_send_signal(fd, 0, NULL, 0));
	ck_assert_ok(pt_send_signal(fd, 0, NULL, PIDFD_SIGNAL_THREAD));
	ck_assert_ok(pt_send_signal(fd, 0, NULL, PIDFD_SIGNAL_THREAD_GROUP));
	ck_assert_msg(pt_alive(t.pid), "signal 0 hurt the target");
	close(fd);
	close(self);
	target_stop(&t);
}
END_TEST

START_TEST(reaped_esrch)
{
	siginfo_t si = { .si_signo = SIGUSR1, .si_code = SI_QUEUE };
	pid_t pid = pt_fork_exit(0);
	int fd, tfd;

	ck_assert_int_gt(pid, 0);
	fd = pt_open_ok(pid, 0);
	tfd = pt_open_ok(pid, PIDFD_THREAD);
	ck_assert_int_eq(pt_reap(pid), 0);
	ck_assert_errno(pt_send_signal(fd, 0, NULL, 0), ESRCH);
	ck_assert_errno(pt_send_signal(fd, SIGKILL, NULL, 0), ESRCH);
	ck_assert_errno(pt_send_signal(fd, SIGUSR1, &si, 0), ESRCH);
	ck_assert_errno(pt_send_signal(fd, SIGKILL, NULL, PIDFD_SIGNAL_THREAD), ESRCH);
	ck_assert_errno(pt_send_signal(tfd, SIGKILL, NULL, 0), ESRCH);
	close(fd);
	close(tfd);
}
END_TEST

START_TEST(zombie_ok)
{
	pid_t pid = pt_fork_exit(7);
	int fd;

	ck_assert_int_gt(pid, 0);
	fd = pt_open_ok(pid, 0);
	ck_assert_ok(pt_wait_zombie(pid));
	ck_assert_ok(pt_send_signal(fd, 0, NULL, 0));
	ck_assert_ok(pt_send_signal(fd, SIGKILL, NULL, 0));
	ck_assert_ok(pt_send_signal(fd, SIGTERM, NULL, PIDFD_SIGNAL_THREAD_GROUP));
	/* It still exits with its own status. */
	ck_assert_int_eq(pt_reap(pid), 7);
	close(fd);
}
END_TEST

/* The seed: signal a process whose pid was recycled in a new pid ns. */
static int recycled_child(void *arg)
{
	pid_t pid;
	int fd;

	(void)arg;
	/* We are pid 1 of a fresh pid namespace. */
	PT_CHECK(getpid() == 1, "not pid 1 (%d)", getpid());
	fd = pt_open_reaped_recycled();
	pid = pt_fork_sleeper_at(PT_PID_RECYCLE);
	PT_CHECK(pid == PT_PID_RECYCLE, "second child got pid %d", pid);
	errno = 0;
	PT_CHECK(pt_send_signal(fd, SIGKILL, NULL, 0) == -1 && errno == ESRCH,
		 "signal through the stale pidfd: %s", pt_errname(errno));
	PT_CHECK(pt_send_signal(fd, 0, NULL, 0) == -1 && errno == ESRCH,
		 "probe through the stale pidfd: %s", pt_errname(errno));
	PT_CHECK(pt_child_running(pid), "the process with the recycled pid was hit");
	pt_kill_reap(pid);
	return 0;
}

START_TEST(recycled_pid_esrch)
{
	pt_assert_child_in_new_pidns(recycled_child, NULL);
}
END_TEST

/* A target outside our pid namespace hierarchy: EINVAL. */
struct ns_fds { int parent_fd, sibling_fd; };

static int child_ns_sender(void *arg)
{
	struct ns_fds *f = arg;
	pid_t kid;
	int fd;

	PT_CHECK(getpid() == 1, "not in a new pid ns");
	errno = 0;
	PT_CHECK(pt_send_signal(f->parent_fd, 0, NULL, 0) == -1 && errno == EINVAL,
		 "signal to the parent ns process: %s", pt_errname(errno));
	errno = 0;
	PT_CHECK(pt_send_signal(f->sibling_fd, SIGKILL, NULL, 0) == -1 &&
		 errno == EINVAL, "signal to a process of the parent ns: %s",
		 pt_errname(errno));
	errno = 0;
	PT_CHECK(pt_send_signal(f->sibling_fd, 0, NULL, PIDFD_SIGNAL_THREAD) == -1 &&
		 errno == EINVAL, "thread signal to the parent ns: %s",
		 pt_errname(errno));
	/* Our own namespace and its descendants are fine. */
	fd = pt_open(getpid(), 0);
	PT_CHECK(fd >= 0, "open self: %m");
	PT_CHECK(pt_send_signal(fd, 0, NULL, 0) == 0, "signal self: %m");
	kid = pt_fork_sleeper();
	fd = pt_open(kid, 0);
	PT_CHECK(fd >= 0, "open child: %m");
	PT_CHECK(pt_send_signal(fd, SIGKILL, NULL, 0) == 0, "signal child: %m");
	PT_CHECK(pt_reap(kid) == 128 + SIGKILL, "child not killed");
	return 0;
}

START_TEST(foreign_pidns_einval)
{
	struct ns_fds f;
	pid_t sib = pt_fork_sleeper();

	f.parent_fd = pt_open_ok(getpid(), 0);
	f.sibling_fd = pt_open_ok(sib, 0);
	pt_unshare_pidns();
	pt_assert_child(child_ns_sender, &f);
	ck_assert_msg(pt_alive(sib), "the parent-ns process was killed");
	pt_kill_reap(sib);
}
END_TEST

/* A process in a sibling pid namespace: EINVAL as well. */
static int sibling_sender(void *arg)
{
	int fd = *(int *)arg;

	PT_CHECK(getpid() == 1, "not in a new pid ns");
	errno = 0;
	PT_CHECK(pt_send_signal(fd, SIGKILL, NULL, 0) == -1 && errno == EINVAL,
		 "signal to a sibling pid ns: %s", pt_errname(errno));
	errno = 0;
	PT_CHECK(pt_send_signal(fd, 0, NULL, PIDFD_SIGNAL_PROCESS_GROUP) == -1 &&
		 errno == EINVAL, "process group in a sibling pid ns: %s",
		 pt_errname(errno));
	return 0;
}

START_TEST(sibling_pidns_einval)
{
	char path[64], buf[64];
	pid_t h, s = 0;
	int fd, i;

	/* h makes namespace B with one sleeper in it */
	h = pt_fork();
	if (h == 0) {
		if (unshare(CLONE_NEWPID) < 0)
			_exit(2);
		pt_fork_sleeper();
		for (;;)
			pause();
	}
	ck_assert_int_ge(h, 0);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", h, h);
	for (i = 0; i < 1000 && s <= 0; i++) {
		if (pt_read_field(path, "", buf, sizeof(buf)) == 0)
			s = atoi(buf);
		if (s <= 0)
			usleep(10000);
	}
	ck_assert_msg(s > 0, "the sleeper in namespace B did not start");
	fd = pt_open_ok(s, 0);
	/* we make namespace A, a sibling of B */
	pt_unshare_pidns();
	pt_assert_child(sibling_sender, &fd);
	ck_assert_msg(pt_alive(s), "the process in the sibling ns was killed");
	close(fd);
	pt_kill_reap(h);
}
END_TEST

/* ---- permissions ---------------------------------------------------- */

struct perm_arg {
	struct target *t;
	uid_t uid;
};

static int unpriv_denied(void *arg)
{
	struct perm_arg *p = arg;
	siginfo_t si;
	int fd, tfd;

	PT_CHECK(pt_drop_privs(p->uid, p->uid) == 0, "drop: %m");
	pt_dev_close();
	fd = pt_open(p->t->pid, 0);
	PT_CHECK(fd >= 0, "open: %m");
	tfd = pt_open(p->t->worker, PIDFD_THREAD);
	PT_CHECK(tfd >= 0, "open thread: %m");
#define DENIED(call, what) do { errno = 0; \
	PT_CHECK((call) == -1 && errno == EPERM, "%s: expected EPERM, got %s", \
		 what, pt_errname(errno)); } while (0)
	DENIED(pt_send_signal(fd, SIGUSR1, NULL, 0), "no info");
	DENIED(pt_send_signal(fd, 0, NULL, 0), "signal 0");
	DENIED(pt_send_signal(fd, SIGKILL, NULL, 0), "SIGKILL");
	pt_siginfo(&si, SIGUSR1, SI_QUEUE, 0);
	DENIED(pt_send_signal(fd, SIGUSR1, &si, 0), "with info");
	DENIED(pt_send_signal(fd, SIGUSR1, &si, PIDFD_SIGNAL_THREAD), "with info, thread");
	DENIED(pt_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD), "thread scope");
	DENIED(pt_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD_GROUP), "group scope");
	DENIED(pt_send_signal(tfd, SIGUSR1, NULL, 0), "thread pidfd");
	si.si_signo = SIGKILL;
	DENIED(pt_send_signal(tfd, SIGKILL, &si, 0), "thread pidfd SIGKILL info");
	si.si_signo = SIGUSR1;
	DENIED(pt_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_PROCESS_GROUP),
	       "process group");
	DENIED(pt_send_signal(fd, SIGKILL, NULL, PIDFD_SIGNAL_PROCESS_GROUP),
	       "process group SIGKILL");
#undef DENIED
	return 0;
}

START_TEST(deny_unprivileged_to_root)
{
	static const struct target_opts o = { .wait_ms = -1, .pgrp = true };
	struct target t;
	struct perm_arg p = { &t, PT_NOBODY };
	uint64_t pnd, shd;

	target_start(&t, &o);
	pt_assert_child(unpriv_denied, &p);
	ck_assert_msg(pt_alive(t.pid) && pt_alive(t.member),
		      "a denied signal killed the target");
	assert_pending(&t, SIGUSR1, NOWHERE);
	ck_assert_ok(pt_thread_pending(t.member, t.member, &pnd, &shd));
	ck_assert_msg(!((pnd | shd) & BIT(SIGUSR1)), "group member got the signal");
	target_stop(&t);
}
END_TEST

START_TEST(deny_unprivileged_to_other_uid)
{
	static const struct target_opts o = { .uid = PT_USER, .wait_ms = -1,
					      .pgrp = true };
	struct target t;
	struct perm_arg p = { &t, PT_NOBODY };

	target_start(&t, &o);
	pt_assert_child(unpriv_denied, &p);
	ck_assert_msg(pt_alive(t.pid), "a denied signal killed the target");
	assert_pending(&t, SIGUSR1, NOWHERE);
	target_stop(&t);
}
END_TEST

struct same_uid_arg {
	struct target *t;
	int sig;
	bool info;
	unsigned int flags;
};

static int unpriv_send(void *arg)
{
	struct same_uid_arg *a = arg;
	siginfo_t si;
	int fd;

	PT_CHECK(pt_drop_privs(PT_USER, PT_USER) == 0, "drop: %m");
	pt_dev_close();
	fd = pt_open(a->t->pid, 0);
	PT_CHECK(fd >= 0, "open: %m");
	pt_siginfo(&si, a->sig, SI_QUEUE, 99);
	PT_CHECK(pt_send_signal(fd, a->sig, a->info ? &si : NULL, a->flags) == 0,
		 "same-uid signal: %s", pt_errname(errno));
	/* report our pid for the si_pid check */
	pt_msg("%d", getpid());
	return 0;
}

/* A signal from a sender of the target's uid: kill(2)'s style, or queued. */
static const struct same_uid_case {
	int sig;
	bool info;
	unsigned int flags;
	int code;
} same_uid_cases[] = {
	{ SIGUSR1, false, 0, SI_USER },
	{ SIGUSR2, true, PIDFD_SIGNAL_THREAD_GROUP, SI_QUEUE },
};

START_TEST(allow_same_uid)
{
	static const struct target_opts o = { .uid = PT_USER, .wait_ms = 20000 };
	const struct same_uid_case *c = &same_uid_cases[_i];
	struct target t;
	struct same_uid_arg a = { &t, c->sig, c->info, c->flags };
	struct recv_result r;
	char msg[64];
	int rc;

	target_start(&t, &o);
	rc = pt_run(unpriv_send, &a, msg, sizeof(msg));
	ck_assert_msg(rc == 0, "sender failed: %s", msg);
	ck_assert_msg(target_result(&t, &r, 20000) == 0, "nothing received");
	ck_assert_int_eq(r.err, 0);
	assert_siginfo(&r.si, c->sig, c->code, atoi(msg), PT_USER);
	if (c->info)
		ck_assert_int_eq(r.si.si_value.sival_int, 99);
	target_stop(&t);
}
END_TEST

START_TEST(root_may_signal_other_uid)
{
	static const struct target_opts o = { .uid = PT_NOBODY, .wait_ms = -1 };
	struct target t;
	int fd;

	target_start(&t, &o);
	fd = pt_open_ok(t.worker, PIDFD_THREAD);
	ck_assert_ok(pt_send_signal(fd, SIGUSR1, NULL, 0));
	assert_pending(&t, SIGUSR1, WORKER);
	close(fd);
	target_stop(&t);
}
END_TEST

static Suite *signal_suite(void)
{
	Suite *s = suite_create("signal");
	TCase *tc;

	pt_add_tests(pt_tcase(s, "scope"), scope_default_process,
		     scope_default_tid_without_thread_flag,
		     scope_default_thread_pidfd,
		     scope_default_thread_pidfd_leader, scope_flag_thread,
		     scope_flag_thread_group, scope_process_group,
		     scope_process_group_siginfo_refused,
		     scope_process_group_not_leader);

	tc = pt_add_tests(pt_tcase(s, "delivery"),
			  deliver_thread_scope_not_to_other_thread,
			  deliver_process_with_info_to_waiting_thread,
			  deliver_thread_with_info, self_sigusr1,
			  self_info_any_code_allowed);
	tcase_add_loop_test(tc, deliver_to_waiting_worker, 0,
			    sizeof(worker_cases) / sizeof(worker_cases[0]));

	pt_add_tests(pt_tcase(s, "errors"), err_flags, err_signal_number,
		     err_efault, err_extensible, err_signo_mismatch,
		     err_si_code_to_other, probe_sig0, reaped_esrch, zombie_ok,
		     recycled_pid_esrch, foreign_pidns_einval,
		     sibling_pidns_einval);

	tc = pt_add_tests(pt_tcase(s, "permissions"), deny_unprivileged_to_root,
			  deny_unprivileged_to_other_uid,
			  root_may_signal_other_uid);
	tcase_add_loop_test(tc, allow_same_uid, 0,
			    sizeof(same_uid_cases) / sizeof(same_uid_cases[0]));
	return s;
}

int main(void)
{
	return pt_main(signal_suite());
}
