// SPDX-License-Identifier: GPL-2.0
/*
 * poll/epoll on a pidfd (docs/abi.md "poll / epoll"): POLLIN once the
 * process (or, for PIDFD_THREAD, the thread) has exited, POLLHUP once it
 * is reaped, no early event while other threads of the group live (the
 * seed pidfd_test cases), and the pidfd_poll_test stress loop.
 */
#include "pidfd_test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define IN	(POLLIN | POLLRDNORM)

/*
 * How long the processes and threads below live on while the test checks
 * that nothing is reported yet. The test must get from fork() to its
 * "nothing yet" check within that time, under TCG, after other suites:
 * keep it well above what that takes (the lower bounds asserted on the
 * time of the event are 90% of it).
 */
#define LIVE_MS	2000
#define MIN_MS	(LIVE_MS * 9 / 10)
/* How long a test waits for an event that must come. */
#define WAIT_MS	30000

static pid_t fork_sleep_exit(int ms, int code)
{
	pid_t pid = pt_fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		usleep((useconds_t)ms * 1000);
		_exit(code);
	}
	return pid;
}

/*
 * Wait for POLLIN on @fd. poll(2) looks at the file once more when its
 * timeout ends, so an event that arrived without a wakeup would still be
 * reported then: only a return well before the timeout proves the waiter
 * was woken.
 */
static int poll_woken(int fd)
{
	int64_t start = pt_now_ms(), el;
	int ev = pt_poll1(fd, IN, WAIT_MS);

	el = pt_now_ms() - start;
	ck_assert_msg(ev <= 0 || el < WAIT_MS - 5000,
		      "event %#x found only at the poll's timeout (%lld ms): no wakeup",
		      ev, (long long)el);
	return ev;
}

START_TEST(poll_running_then_exit)
{
	int64_t start = pt_now_ms(), el;
	pid_t pid = fork_sleep_exit(LIVE_MS, 0);
	int fd, ev;

	ck_assert_int_gt(pid, 0);
	fd = pt_open_ok(pid, 0);
	ck_assert_int_eq(pt_poll1(fd, IN, 0), 0);
	ev = poll_woken(fd);
	el = pt_now_ms() - start;
	ck_assert_msg(ev > 0, "no POLLIN within 30 s of a 1 s sleeper");
	ck_assert_msg(el >= MIN_MS, "POLLIN after %lld ms, the child sleeps %d ms",
		      (long long)el, LIVE_MS);
	/* exited, not reaped: POLLIN, no POLLHUP */
	ck_assert_msg((ev & IN) == IN, "revents %#x lacks POLLIN|POLLRDNORM", ev);
	ck_assert_msg(!(ev & POLLHUP), "POLLHUP on an unreaped zombie (%#x)", ev);
	ck_assert_int_eq(pt_reap(pid), 0);
	ev = pt_poll1(fd, IN, 0);
	ck_assert_msg((ev & IN) == IN && (ev & POLLHUP),
		      "after reap revents %#x, want POLLIN|POLLRDNORM|POLLHUP", ev);
	close(fd);
}
END_TEST

START_TEST(poll_zombie_no_hup)
{
	pid_t pid = pt_fork_exit(3);
	int fd, ev;

	ck_assert_int_gt(pid, 0);
	fd = pt_open_ok(pid, 0);
	ck_assert_ok(pt_wait_zombie(pid));
	ev = pt_poll1(fd, IN, 0);
	ck_assert_msg((ev & IN) == IN, "zombie: revents %#x, want POLLIN", ev);
	ck_assert_msg(!(ev & POLLHUP), "zombie: POLLHUP set (%#x)", ev);
	/* POLLHUP is reported even when not asked for */
	ck_assert_int_eq(pt_reap(pid), 3);
	ev = pt_poll1(fd, 0, 0);
	ck_assert_msg(ev & POLLHUP, "reaped: revents %#x lacks POLLHUP", ev);
	close(fd);
}
END_TEST

START_TEST(poll_opened_on_zombie)
{
	pid_t pid = pt_fork_exit(0);
	int fd, ev;

	ck_assert_ok(pt_wait_zombie(pid));
	fd = pt_open_ok(pid, 0);
	ev = pt_poll1(fd, IN, 0);
	ck_assert_msg((ev & IN) == IN && !(ev & POLLHUP), "zombie: %#x", ev);
	ck_assert_int_eq(pt_reap(pid), 0);
	ev = pt_poll1(fd, IN, 0);
	ck_assert_msg((ev & IN) == IN && (ev & POLLHUP), "reaped: %#x", ev);
	close(fd);
}
END_TEST

static void *sleep_then_exit(void *arg)
{
	usleep((useconds_t)(intptr_t)arg * 1000);
	/*
	 * Not a return: glibc would call exit() in the last thread, and
	 * exit() in a forked child must not touch the stdio streams it
	 * shares with Check.
	 */
	syscall(SYS_exit, 0);
	return NULL;
}

/*
 * The seed: the thread-group leader exits with SYS_exit while two threads
 * sleep; no POLLIN until the whole group is gone.
 */
static void leader_exits_early(int ms)
{
	pthread_t t1, t2;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pthread_create(&t1, NULL, sleep_then_exit, (void *)(intptr_t)ms) ||
	    pthread_create(&t2, NULL, sleep_then_exit, (void *)(intptr_t)ms))
		_exit(2);
	syscall(SYS_exit, 0);
	_exit(3);
}

/* A child whose leader exits at once, its threads LIVE_MS later. */
static pid_t fork_leader_exits_early(void)
{
	pid_t pid = pt_fork();

	if (pid == 0)
		leader_exits_early(LIVE_MS);
	ck_assert_int_ge(pid, 0);
	return pid;
}

START_TEST(poll_no_early_event_on_leader_exit)
{
	int64_t start = pt_now_ms(), el;
	pid_t pid = fork_leader_exits_early();
	int fd = pt_open_ok(pid, 0);
	int ev = poll_woken(fd);
	el = pt_now_ms() - start;
	ck_assert_msg(ev > 0 && (ev & IN), "no POLLIN within 30 s (%d)", ev);
	ck_assert_msg(el >= MIN_MS, "premature POLLIN after %lld ms; the threads "
		      "sleep %d ms after the leader exits", (long long)el, LIVE_MS);
	ck_assert_int_eq(pt_reap(pid), 0);
	close(fd);
}
END_TEST

START_TEST(poll_no_early_event_on_leader_exit_epoll)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	int64_t start = pt_now_ms(), el;
	pid_t pid = fork_leader_exits_early();
	int fd = pt_open_ok(pid, 0);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	int n;
	ck_assert_ok(ep);
	ck_assert_ok(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	/* The leader is gone (a zombie thread); the group lives on. */
	pt_wait_exited(pid);
	ck_assert_int_eq(epoll_wait(ep, &out, 1, 0), 0);
	do
		n = epoll_wait(ep, &out, 1, 30000);
	while (n < 0 && errno == EINTR);
	el = pt_now_ms() - start;
	ck_assert_msg(n == 1 && (out.events & EPOLLIN), "no EPOLLIN within 30 s");
	ck_assert_msg(el >= MIN_MS, "premature EPOLLIN after %lld ms", (long long)el);
	ck_assert_int_eq(pt_reap(pid), 0);
	close(ep);
	close(fd);
}
END_TEST

START_TEST(epoll_exit)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	pid_t pid = pt_fork_sleeper();
	int fd, ep, n;

	fd = pt_open_ok(pid, PIDFD_NONBLOCK);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ck_assert_ok(ep);
	ck_assert_ok(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	ck_assert_int_eq(epoll_wait(ep, &out, 1, 200), 0);
	ck_assert_ok(pt_send_signal(fd, SIGKILL, NULL, 0));
	do
		n = epoll_wait(ep, &out, 1, 20000);
	while (n < 0 && errno == EINTR);
	ck_assert_msg(n == 1, "no epoll event after SIGKILL");
	ck_assert_msg(out.events & EPOLLIN, "events %#x", out.events);
	ck_assert_msg(!(out.events & EPOLLHUP), "EPOLLHUP before reap: %#x",
		      out.events);
	ck_assert_int_eq(pt_reap(pid), 128 + SIGKILL);
	n = epoll_wait(ep, &out, 1, 1000);
	ck_assert_msg(n == 1 && (out.events & EPOLLIN) && (out.events & EPOLLHUP),
		      "after reap: n %d events %#x", n, out.events);
	close(ep);
	close(fd);
}
END_TEST

struct thread_arg {
	struct pt_sync ready;	/* the thread's TID */
	struct pt_sync go;	/* then it lives LIVE_MS more and exits */
};

static void *thread_sleep_exit(void *arg)
{
	struct thread_arg *a = arg;

	pt_sync_put(&a->ready, pt_gettid());
	/* not before the test has opened its pidfds and taken the time */
	pt_sync_get(&a->go, 60000);
	usleep(LIVE_MS * 1000);
	return NULL;
}

START_TEST(poll_thread_pidfd)
{
	struct thread_arg a;
	pthread_t th;
	int64_t start;
	pid_t tid;
	int tfd, pfd, ev;

	pt_sync_init(&a.ready);
	pt_sync_init(&a.go);
	ck_assert_int_eq(pthread_create(&th, NULL, thread_sleep_exit, &a), 0);
	tid = pt_sync_get(&a.ready, 10000);
	ck_assert_int_gt(tid, 0);
	tfd = pt_open_ok(tid, PIDFD_THREAD);
	pfd = pt_open_ok(getpid(), 0);
	ck_assert_int_eq(pt_poll1(tfd, IN, 0), 0);
	start = pt_now_ms();
	pt_sync_put(&a.go, 1);
	ev = poll_woken(tfd);
	ck_assert_msg(ev > 0 && (ev & IN) == IN,
		      "no POLLIN on the thread pidfd when the thread exited (%d)", ev);
	ck_assert_msg(pt_now_ms() - start >= MIN_MS,
		      "thread pidfd POLLIN too early");
	pthread_join(th, NULL);
	/* The process lives on: nothing on the process pidfd. */
	ck_assert_int_eq(pt_poll1(pfd, IN, 100), 0);
	/* Nor on a thread pidfd for the leader, which runs. */
	close(tfd);
	tfd = pt_open_ok(getpid(), PIDFD_THREAD);
	ck_assert_int_eq(pt_poll1(tfd, IN, 100), 0);
	close(tfd);
	close(pfd);
}
END_TEST

/*
 * A child process whose second thread runs @fn; the child's main thread
 * idles. Returns the child's PID, and the thread's TID in @tid.
 */
static pid_t fork_with_thread(void *(*fn)(void *), struct thread_arg *a,
			      pid_t *tid)
{
	pid_t pid;

	pt_sync_init(&a->ready);
	pt_sync_init(&a->go);
	pid = pt_fork();
	if (pid == 0) {
		pthread_t th;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pthread_create(&th, NULL, fn, a))
			_exit(2);
		for (;;)
			pause();
	}
	ck_assert_int_ge(pid, 0);
	*tid = pt_sync_get(&a->ready, 10000);
	ck_assert_int_gt(*tid, 0);
	return pid;
}

/*
 * Once the thread's pidfd reported POLLIN after an exec, POLLHUP follows
 * when the old leader, which took the thread's ID, has been released;
 * POLLIN stays set, so there is nothing to sleep on: look again until then.
 */
static void assert_hup_follows(int fd)
{
	int64_t start = pt_now_ms();
	int ev = pt_poll1(fd, IN, 0);

	while (!(ev & POLLHUP) && pt_now_ms() - start < 20000) {
		usleep(10000);
		ev = pt_poll1(fd, IN, 0);
	}
	ck_assert_msg(ev & POLLHUP, "no POLLHUP after exec (%d)", ev);
}

/* The process lives on after the exec, as the new program, under its PID. */
static void assert_process_lives_on(struct pt_exec_child *c)
{
	int pfd = pt_open_ok(c->pid, 0);

	ck_assert_int_eq(pt_poll1(pfd, IN, 200), 0);
	close(pfd);
	pt_exec_child_end(c);
}

/*
 * A thread other than the leader execs: it takes over the process's PID and
 * its own thread ID goes away with the old leader. A poll already asleep
 * on the thread's pidfd must wake (POLLIN, then POLLHUP once that task is
 * released), while the process, now running the new program, goes on.
 */
START_TEST(poll_thread_pidfd_exec)
{
	struct pt_exec_child c;
	int tfd, ev;

	pt_fork_exec_child(&c);
	tfd = pt_open_ok(c.tid, PIDFD_THREAD);
	ck_assert_int_eq(pt_poll1(tfd, IN, 0), 0);
	pt_exec_child_exec(&c, 300);
	ev = poll_woken(tfd);
	ck_assert_msg(ev > 0 && (ev & IN) == IN,
		      "thread pidfd after exec: poll gave %d", ev);
	assert_hup_follows(tfd);
	assert_process_lives_on(&c);
	close(tfd);
}
END_TEST

/*
 * The same after the leader has left on its own (SYS_exit): no exit of the
 * leader can announce the exec then; before the fix, 5.10 and 6.1 never
 * woke this poll. The pidfd is opened after the leader left.
 */
START_TEST(poll_thread_pidfd_exec_leader_gone)
{
	struct pt_exec_child c;
	int tfd, ev;

	pt_fork_exec_child(&c);
	pt_exec_child_leader_exit(&c, 7);
	tfd = pt_open_ok(c.tid, PIDFD_THREAD);
	ck_assert_int_eq(pt_poll1(tfd, IN, 0), 0);
	pt_exec_child_exec(&c, 300);
	ev = poll_woken(tfd);
	ck_assert_msg(ev > 0 && (ev & IN) == IN,
		      "thread pidfd after exec without leader: poll gave %d",
		      ev);
	assert_hup_follows(tfd);
	assert_process_lives_on(&c);
	close(tfd);
}
END_TEST

/*
 * epoll, as the report had it, on pidfds opened before the leader left:
 * two PIDFD_THREAD ones, one of them non-blocking.
 */
START_TEST(epoll_thread_pidfd_exec_leader_gone)
{
	struct epoll_event ev = { .events = EPOLLIN }, out[2];
	struct pt_exec_child c;
	int tfd, idfd, ep, n;
	int64_t start;

	pt_fork_exec_child(&c);
	tfd = pt_open_ok(c.tid, PIDFD_THREAD);
	idfd = pt_open_ok(c.tid, PIDFD_THREAD | PIDFD_NONBLOCK);
	pt_exec_child_leader_exit(&c, 7);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ck_assert_ok(ep);
	ck_assert_ok(epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev));
	ck_assert_ok(epoll_ctl(ep, EPOLL_CTL_ADD, idfd, &ev));
	ck_assert_int_eq(epoll_wait(ep, out, 2, 0), 0);
	pt_exec_child_exec(&c, 300);
	start = pt_now_ms();
	do
		n = epoll_wait(ep, out, 2, WAIT_MS);
	while (n < 0 && errno == EINTR);
	ck_assert_msg(n >= 1 && (out[0].events & EPOLLIN),
		      "epoll_wait gave %d after %lld ms", n,
		      (long long)(pt_now_ms() - start));
	ck_assert_msg(pt_now_ms() - start < WAIT_MS - 5000,
		      "epoll_wait returned only at its timeout: no wakeup");
	assert_hup_follows(tfd);
	assert_hup_follows(idfd);
	assert_process_lives_on(&c);
	close(ep);
	close(idfd);
	close(tfd);
}
END_TEST

START_TEST(poll_thread_pidfd_other_process)
{
	/* A thread of a child exits while the child lives. */
	struct thread_arg a;
	int64_t start;
	pid_t pid, tid;
	int tfd, pfd, ev;

	pid = fork_with_thread(thread_sleep_exit, &a, &tid);
	tfd = pt_open_ok(tid, PIDFD_THREAD);
	pfd = pt_open_ok(pid, 0);
	ck_assert_int_eq(pt_poll1(tfd, IN, 0), 0);
	start = pt_now_ms();
	pt_sync_put(&a.go, 1);
	errno = 0;
	ev = poll_woken(tfd);
	ck_assert_msg(ev > 0 && (ev & IN) == IN,
		      "no POLLIN on the thread pidfd: poll gave %d%s%s after %lld ms",
		      ev, ev < 0 ? ", " : "", ev < 0 ? pt_errname(errno) : "",
		      (long long)(pt_now_ms() - start));
	ck_assert_int_eq(pt_poll1(pfd, IN, 200), 0);
	ck_assert_ok(pt_send_signal(pfd, SIGKILL, NULL, 0));
	ev = poll_woken(pfd);
	ck_assert_msg(ev > 0 && (ev & IN) == IN, "no POLLIN after SIGKILL");
	ck_assert_int_eq(pt_reap(pid), 128 + SIGKILL);
	close(tfd);
	close(pfd);
}
END_TEST

START_TEST(poll_multiple_waiters)
{
	pid_t pid = fork_sleep_exit(500, 0);
	int fd1, fd2, ev;
	struct pollfd p[2];

	fd1 = pt_open_ok(pid, 0);
	fd2 = pt_open_ok(pid, PIDFD_NONBLOCK);
	p[0] = (struct pollfd){ .fd = fd1, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = fd2, .events = POLLIN };
	do
		ev = poll(p, 2, 30000);
	while (ev < 0 && errno == EINTR);
	/* Both report, maybe one poll call apart. */
	if (ev == 1)
		ev = poll(p, 2, 30000);
	ck_assert_int_eq(ev, 2);
	ck_assert_int_eq(pt_reap(pid), 0);
	close(fd1);
	close(fd2);
}
END_TEST

/* pidfd_poll_test: fork, open, SIGKILL, poll within a timeout, waitpid. */
START_TEST(poll_stress)
{
	const int iterations = 500;
	int64_t start = pt_now_ms();
	int i;

	for (i = 0; i < iterations; i++) {
		pid_t pid = pt_fork_sleeper();
		int fd, ev;

		/* the child never runs Check code (see pt_fork_sleeper) */
		ck_assert_int_gt(pid, 0);
		fd = pt_open(pid, 0);
		ck_assert_msg(fd >= 0, "iteration %d: open: %s", i, pt_errname(errno));
		ck_assert_msg(pt_send_signal(fd, SIGKILL, NULL, 0) == 0,
			      "iteration %d: SIGKILL: %s", i, pt_errname(errno));
		ev = pt_poll1(fd, IN, 5000);
		ck_assert_msg(ev > 0 && (ev & POLLIN),
			      "iteration %d: no POLLIN within 5 s (%d)", i, ev);
		ck_assert_int_eq(pt_reap(pid), 128 + SIGKILL);
		close(fd);
	}
	printf("poll_stress: %d iterations in %lld ms\n", iterations,
	       (long long)(pt_now_ms() - start));
}
END_TEST

static Suite *poll_suite(void)
{
	Suite *s = suite_create("poll");
	TCase *tc;

	pt_add_tests(pt_tcase(s, "process"), poll_running_then_exit,
		     poll_zombie_no_hup, poll_opened_on_zombie,
		     poll_no_early_event_on_leader_exit,
		     poll_no_early_event_on_leader_exit_epoll, epoll_exit,
		     poll_multiple_waiters);

	pt_add_tests(pt_tcase(s, "thread"), poll_thread_pidfd,
		     poll_thread_pidfd_other_process, poll_thread_pidfd_exec,
		     poll_thread_pidfd_exec_leader_gone,
		     epoll_thread_pidfd_exec_leader_gone);

	tc = pt_tcase(s, "stress");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, poll_stress);
	return s;
}

int main(void)
{
	return pt_main(poll_suite());
}
