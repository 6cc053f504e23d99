// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetime of pidfds and of the module (docs/abi.md "On a pidfd",
 * "Sysfs"): the live_pidfds count, module unload refused while a pidfd is
 * open, and races between ioctls and the exit, reap and pid reuse of
 * their target, checked against a decoy process that gets the recycled
 * pid and must never be touched.
 *
 * This suite never unloads the module: delete_module() is only called
 * while a pidfd is open, when it must fail. The harness does the rmmod.
 */
#include "pidfd_test.h"

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static long live(void)
{
	long v = -1;

	ck_assert_msg(pt_read_long(PT_LIVE_PIDFDS, &v) == 0,
		      "cannot read " PT_LIVE_PIDFDS ": %m");
	return v;
}

START_TEST(live_count_open_close)
{
	int fds[10], i, d;
	long v0;

	ck_assert_ok(pt_dev());
	v0 = live();
	ck_assert_int_ge(v0, 0);
	for (i = 0; i < 10; i++) {
		fds[i] = pt_open_ok(getpid(), i & 1 ? PIDFD_THREAD : 0);
		ck_assert_int_eq(live(), v0 + i + 1);
	}
	/* a dup is the same pidfd */
	d = dup(fds[0]);
	ck_assert_int_eq(live(), v0 + 10);
	for (i = 0; i < 10; i++)
		close(fds[i]);
	ck_assert_int_eq(live(), v0 + 1);
	close(d);
	ck_assert_int_eq(live(), v0);
	/* failed opens leave nothing behind */
	ck_assert_errno(pt_open(-1, 0), EINVAL);
	ck_assert_errno(pt_open(getpid(), 1), EINVAL);
	ck_assert_int_eq(live(), v0);
}
END_TEST

START_TEST(live_count_holder_exit)
{
	struct pt_sync up, go;
	pid_t target = pt_fork_sleeper(), holder;
	long v0;

	ck_assert_ok(pt_dev());
	v0 = live();
	pt_sync_init(&up);
	pt_sync_init(&go);
	holder = pt_fork();
	if (holder == 0) {
		int i;

		for (i = 0; i < 7; i++)
			if (pt_open(i < 3 ? target : getpid(), 0) < 0)
				_exit(2);
		pt_sync_put(&up, 1);
		pt_sync_get(&go, 60000);
		_exit(0);	/* the fds close on exit */
	}
	ck_assert_int_ge(holder, 0);
	ck_assert_int_eq(pt_sync_get(&up, 10000), 1);
	ck_assert_int_eq(live(), v0 + 7);
	pt_sync_put(&go, 1);
	ck_assert_int_eq(pt_reap(holder), 0);
	ck_assert_int_eq(live(), v0);
	/* killed holder */
	holder = pt_fork();
	if (holder == 0) {
		if (pt_open(target, 0) < 0 || pt_open(target, PIDFD_THREAD) < 0)
			_exit(2);
		pt_ready_then_pause(&up);
	}
	ck_assert_int_ge(holder, 0);
	ck_assert_int_eq(pt_sync_get(&up, 10000), 1);
	ck_assert_int_eq(live(), v0 + 2);
	pt_kill_reap(holder);
	ck_assert_int_eq(live(), v0);
	/* the target dying does not close anything */
	{
		int fd = pt_open_ok(target, 0);

		pt_kill_reap(target);
		ck_assert_int_eq(live(), v0 + 1);
		close(fd);
		ck_assert_int_eq(live(), v0);
	}
}
END_TEST

static void assert_unload_refused(const char *what)
{
	long ref = -1;
	int ret, err;

	/* Never call delete_module without something pinning the module. */
	ck_assert_msg(pt_read_long(PT_MODULE_REFCNT, &ref) == 0,
		      "cannot read " PT_MODULE_REFCNT ": %m");
	ck_assert_msg(ref > 0, "%s: module refcnt is %ld; not trying to unload",
		      what, ref);
	errno = 0;
	ret = pt_try_unload();
	err = errno;
	ck_assert_msg(ret == -1 && (err == EBUSY || err == EAGAIN),
		      "%s: delete_module: %d/%s, want EBUSY or EAGAIN", what,
		      ret, pt_errname(err));
	ck_assert_msg(access("/sys/module/pidfd", F_OK) == 0, "module gone");
}

START_TEST(unload_refused_with_pidfd_open)
{
	struct pidfd_dev_info info;
	int fd;

	fd = pt_open_ok(getpid(), 0);
	/* only the pidfd pins the module now */
	pt_dev_close();
	assert_unload_refused("a pidfd open");
	ck_assert_ok(pt_get_info(fd, &info, PIDFD_INFO_PID));
	ck_assert_int_eq(info.pid, getpid());
	close(fd);
}
END_TEST

START_TEST(unload_refused_with_pidfd_of_dead_process)
{
	pid_t pid = pt_fork_exit(0);
	int fd = pt_open_ok(pid, 0);

	ck_assert_int_eq(pt_reap(pid), 0);
	pt_dev_close();
	assert_unload_refused("a pidfd of a reaped process open");
	ck_assert_int_eq(pt_poll1(fd, POLLIN, 0) & POLLHUP, POLLHUP);
	close(fd);
}
END_TEST

START_TEST(unload_refused_with_device_open)
{
	ck_assert_msg(pt_dev() >= 0, "open " PT_DEV_PATH ": %m");
	assert_unload_refused("/dev/pidfd open");
}
END_TEST

/* ---- races --------------------------------------------------------- */

#define RACE_PID	500
#define DECOY_UID	4343

struct race {
	int pidfd;
	int procfd;
	volatile int stop;
	pthread_mutex_t lock;
	char fail[512];
	struct pt_race_counts n;
};

static void race_fail(struct race *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void race_fail(struct race *r, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->lock);
	if (!r->fail[0]) {
		va_start(ap, fmt);
		vsnprintf(r->fail, sizeof(r->fail), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&r->lock);
}

static void race_count(struct race *r, int ret, int err, const char *what)
{
	if (!pt_race_count(&r->n, ret, err))
		race_fail(r, "%s gave %s, not 0 or ESRCH", what, pt_errname(err));
}

static void *race_signal(void *arg)
{
	struct race *r = arg;
	siginfo_t si;
	int n = 0, ret;

	while (!r->stop) {
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGUSR1;
		si.si_code = SI_QUEUE;
		switch (n++ % 4) {
		case 0:
			ret = pt_send_signal(r->pidfd, SIGUSR1, NULL, 0);
			break;
		case 1:
			ret = pt_send_signal(r->pidfd, SIGUSR1, &si, 0);
			break;
		case 2:
			ret = pt_send_signal(r->pidfd, SIGUSR1, NULL,
					     PIDFD_SIGNAL_THREAD);
			break;
		default:
			ret = pt_send_signal(r->pidfd, 0, NULL, 0);
			break;
		}
		race_count(r, ret, errno, "SEND_SIGNAL");
	}
	return NULL;
}

static void *race_info(void *arg)
{
	struct race *r = arg;
	struct pidfd_dev_info info;
	int ret;

	while (!r->stop) {
		ret = pt_get_info(r->pidfd, &info, PIDFD_INFO_PID | PIDFD_INFO_CREDS);
		race_count(r, ret, errno, "GET_INFO");
		if (ret == 0 && (info.ruid == DECOY_UID || info.pid != RACE_PID))
			race_fail(r, "GET_INFO described another process "
				  "(pid %u ruid %u)", info.pid, info.ruid);
	}
	return NULL;
}

static void *race_procfd(void *arg)
{
	struct race *r = arg;
	char name[64];
	int fd;

	while (!r->stop) {
		fd = pt_get_procfd(r->pidfd, r->procfd);
		race_count(r, fd, errno, "GET_PROCFD");
		if (fd < 0)
			continue;
		if (pt_read_field_at(fd, "status", "Name:", name, sizeof(name)) == 0 &&
		    strstr(name, "decoy"))
			race_fail(r, "GET_PROCFD gave the decoy's /proc dir (%s)",
				  name);
		close(fd);
	}
	return NULL;
}

static int race_main(void *arg)
{
	const char *dir = arg;
	const int iterations = 60;
	int64_t deadline = pt_now_ms() + 40000;
	struct race r;
	int i, done = 0;

	memset(&r, 0, sizeof(r));
	pthread_mutex_init(&r.lock, NULL);
	PT_CHECK(getpid() == 1, "not pid 1 of a new pid ns");
	PT_CHECK(mount("proc", dir, "proc", 0, NULL) == 0, "mount proc: %m");
	r.procfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(r.procfd >= 0, "open procfs: %m");

	for (i = 0; i < iterations && pt_now_ms() < deadline; i++) {
		struct pt_sync ready, go;
		pthread_t th[3];
		pid_t t, d;
		int status, j;

		t = pt_fork_sleeper_at(RACE_PID);
		PT_CHECK(t == RACE_PID, "target got pid %d", t);
		r.pidfd = pt_open(t, 0);
		PT_CHECK(r.pidfd >= 0, "open: %m");
		r.stop = 0;
		PT_CHECK(pthread_create(&th[0], NULL, race_signal, &r) == 0 &&
			 pthread_create(&th[1], NULL, race_info, &r) == 0 &&
			 pthread_create(&th[2], NULL, race_procfd, &r) == 0,
			 "pthread_create");
		usleep((useconds_t)(i % 5) * 500);
		kill(t, SIGKILL);
		pt_reap(t);

		/* the decoy takes the pid while the threads go on */
		pt_sync_init(&ready);
		pt_sync_init(&go);
		d = pt_fork_at(RACE_PID);
		if (d == 0) {
			prctl(PR_SET_NAME, "decoy");
			if (setresuid(DECOY_UID, DECOY_UID, DECOY_UID) < 0)
				_exit(2);
			pt_sync_put(&ready, 1);
			pt_sync_get(&go, 60000);
			_exit(0);
		}
		PT_CHECK(d == RACE_PID, "decoy got pid %d, not the recycled %d",
			 d, RACE_PID);
		PT_CHECK(pt_sync_get(&ready, 10000) == 1, "decoy did not start");
		usleep(20000);
		r.stop = 1;
		for (j = 0; j < 3; j++)
			pthread_join(th[j], NULL);
		pt_sync_put(&go, 1);
		PT_CHECK(pt_waitpid(d, &status, 0) == d, "wait decoy");
		PT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			 "iteration %d: the decoy with the recycled pid was hit "
			 "(status %#x)", i, status);
		/* after the reuse, only ESRCH for the stale pidfd */
		errno = 0;
		PT_CHECK(pt_send_signal(r.pidfd, 0, NULL, 0) == -1 && errno == ESRCH,
			 "stale pidfd after reuse: %s", pt_errname(errno));
		close(r.pidfd);
		pt_sync_close(&ready);
		pt_sync_close(&go);
		if (r.fail[0])
			PT_FAIL("iteration %d: %s", i, r.fail);
		done++;
	}
	PT_CHECK(done >= 10, "only %d iterations ran", done);
	pt_msg("%d iterations, %lu successes, %lu ESRCH", done, r.n.ok, r.n.esrch);
	return 0;
}

START_TEST(race_exit_reap_reuse)
{
	char dir[64], msg[1024];
	int rc;

	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_tmpdir(dir, sizeof(dir)));
	ck_assert_ok(pt_dev());
	pt_unshare_pidns();
	rc = pt_run(race_main, dir, msg, sizeof(msg));
	ck_assert_msg(rc == 0, "race: %s", msg);
	printf("race_exit_reap_reuse: %s\n", msg);
}
END_TEST

/* Many pidfds for one process, closed while its exit is polled. */
static void *poller(void *arg)
{
	int fd = (int)(intptr_t)arg;

	return (void *)(intptr_t)pt_poll1(fd, POLLIN, 30000);
}

START_TEST(race_close_while_polling_exit)
{
	pthread_t th[8];
	int fds[8], i;
	pid_t pid;
	long v0;

	ck_assert_ok(pt_dev());
	v0 = live();
	pid = pt_fork_sleeper();
	for (i = 0; i < 8; i++) {
		fds[i] = pt_open_ok(pid, i & 1 ? PIDFD_THREAD : 0);
		ck_assert_int_eq(pthread_create(&th[i], NULL, poller,
						(void *)(intptr_t)fds[i]), 0);
	}
	usleep(100000);
	kill(pid, SIGKILL);
	for (i = 0; i < 8; i++) {
		void *ret;

		pthread_join(th[i], &ret);
		ck_assert_msg((intptr_t)ret > 0 && ((intptr_t)ret & POLLIN),
			      "poller %d: %ld", i, (long)(intptr_t)ret);
	}
	pt_reap(pid);
	for (i = 0; i < 8; i++)
		close(fds[i]);
	ck_assert_int_eq(live(), v0);
}
END_TEST

static Suite *lifecycle_suite(void)
{
	Suite *s = suite_create("lifecycle");
	TCase *tc;

	pt_add_tests(pt_tcase(s, "live_pidfds"), live_count_open_close,
		     live_count_holder_exit);

	pt_add_tests(pt_tcase(s, "unload"), unload_refused_with_pidfd_open,
		     unload_refused_with_pidfd_of_dead_process,
		     unload_refused_with_device_open);

	tc = pt_tcase(s, "races");
	tcase_set_timeout(tc, 120);
	pt_add_tests(tc, race_exit_reap_reuse, race_close_while_polling_exit);
	return s;
}

int main(void)
{
	return pt_main(lifecycle_suite());
}
