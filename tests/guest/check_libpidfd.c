// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libpidfd against the module, in the VM (as root; tests needing another
 * uid fork and drop privileges). Every test asserts outcomes: errno
 * values, signals received (by whom, with which si_code/si_pid/si_value),
 * exit statuses, timings.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/pt_sys_pidfd.h"

#include <libpidfd.h>

/* pt_fork(): children without Check's signal handlers */
#include "pidfd_test.h"
#include "../../lib/pt_policy.h"

#define WAIT_MS 10000	/* generous: TCG is slow */

static void reap(pid_t pid, int *status)
{
	ck_assert_int_eq(waitpid(pid, status, 0), pid);
}

/* ---- Children that record the signals they receive ---- */

struct sigrec {
	int signo, code, value;
	pid_t sender, receiver_pid, receiver_tid;
	uid_t uid;
};

static int record_fd = -1;

static void record_signal(int sig, siginfo_t *si, void *ctx)
{
	struct sigrec r = {
		.signo = sig, .code = si->si_code,
		.value = si->si_value.sival_int, .sender = si->si_pid,
		.receiver_pid = getpid(), .receiver_tid = gettid(),
		.uid = si->si_uid,
	};

	(void)ctx;
	if (write(record_fd, &r, sizeof(r)) != sizeof(r))
		_exit(90);
}

static void catch_signals(int fd)
{
	struct sigaction sa = { .sa_sigaction = record_signal,
				.sa_flags = SA_SIGINFO | SA_RESTART };

	record_fd = fd;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGRTMIN + 1, &sa, NULL);
}

static void *idle_thread(void *arg)
{
	int fd = *(int *)arg;
	pid_t tid = gettid();

	if (write(fd, &tid, sizeof(tid)) != sizeof(tid))
		_exit(91);
	for (;;)
		pause();
	return NULL;
}

struct catcher {
	pid_t pid;
	pid_t thread;		/* a second thread's TID, if asked for */
	pid_t member;		/* another process in its group, if asked */
	int records;		/* read end of the record pipe */
};

/*
 * Fork a child that records SIGUSR1/SIGUSR2/SIGRTMIN+1. With @thread, it
 * runs a second thread; with @group, it leads a process group with one
 * more recording member.
 */
static void start_catcher(struct catcher *c, bool thread, bool group)
{
	int rec[2], ready[2];

	ck_assert_int_eq(pipe2(rec, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(ready, O_CLOEXEC), 0);
	memset(c, 0, sizeof(*c));
	c->pid = pt_fork();
	if (c->pid == 0) {
		pid_t none = 0;

		catch_signals(rec[1]);
		if (group) {
			pid_t member;

			setpgid(0, 0);
			/*
			 * The member inherits the handlers and the group;
			 * the leader reports it, so the two reports keep
			 * their order.
			 */
			member = fork();
			if (member == 0) {
				/* outside Check's group: dies with us */
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				for (;;)
					pause();
			}
			if (write(ready[1], &member, sizeof(member)) < 0)
				_exit(92);
		} else if (write(ready[1], &none, sizeof(none)) < 0) {
			_exit(92);
		}
		if (thread) {
			pthread_t t;

			pthread_create(&t, NULL, idle_thread, &ready[1]);
		} else if (write(ready[1], &none, sizeof(none)) < 0) {
			_exit(92);
		}
		for (;;)
			pause();
	}
	ck_assert_int_ge(c->pid, 0);
	close(rec[1]);
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c->member, sizeof(pid_t)), sizeof(pid_t));
	ck_assert_int_eq(read(ready[0], &c->thread, sizeof(pid_t)), sizeof(pid_t));
	close(ready[0]);
	c->records = rec[0];
}

static void stop_catcher(struct catcher *c)
{
	int status;

	if (c->member > 0)
		kill(c->member, SIGKILL);
	kill(c->pid, SIGKILL);
	reap(c->pid, &status);
	close(c->records);
}

/* The next signal record, or fail after WAIT_MS. */
static struct sigrec next_record(const struct catcher *c)
{
	struct pollfd p = { .fd = c->records, .events = POLLIN };
	struct sigrec r;

	ck_assert_msg(poll(&p, 1, WAIT_MS) == 1, "no signal arrived");
	ck_assert_int_eq(read(c->records, &r, sizeof(r)), sizeof(r));
	return r;
}

static bool no_record_within(const struct catcher *c, int ms)
{
	struct pollfd p = { .fd = c->records, .events = POLLIN };

	return poll(&p, 1, ms) == 0;
}

/*
 * The module's signal policy (docs/security.md): its approximate paths
 * (thread scope, a caller's siginfo) refuse where an active LSM might
 * tell signals apart and is not trusted in signal_lsm_trust, as on
 * Debian's 6.1 and later by default. A kernel pidfd is the kernel's call,
 * which asks the LSMs about the real signal: never refused by it.
 */
static bool policy_refuses(int fd)
{
	return libpidfd_pidfd_backend(fd) == LIBPIDFD_BACKEND_MODULE &&
	       pt_policy_refuses_approx();
}

/*
 * libpidfd_send_signal() of @sig through @fd to the catcher @c, on one of
 * the module's approximate paths. True if the signal is to arrive (the
 * caller reads and checks it); where the policy refuses, asserts the
 * refusal instead: EACCES, nothing arrives, and the module's log line for
 * @judged (the thread for thread scope, else the process).
 */
static bool send_approx(const struct catcher *c, int fd, int sig,
			const siginfo_t *info, unsigned int flags,
			pid_t judged, const char *what)
{
	int ret, err;

	if (!policy_refuses(fd)) {
		ck_assert_msg(libpidfd_send_signal(fd, sig, info, flags) == 0,
			      "%s: %s (%s)", what, pt_errname(errno),
			      pt_policy_describe());
		return true;
	}
	pt_policy_log_ready(1);
	errno = 0;
	ret = libpidfd_send_signal(fd, sig, info, flags);
	err = errno;
	ck_assert_msg(ret == -1 && err == EACCES, "%s: %d/%s, want EACCES (%s)",
		      what, ret, pt_errname(err), pt_policy_describe());
	ck_assert_msg(no_record_within(c, 200), "%s: arrived though refused",
		      what);
	ck_assert_msg(pt_policy_refusal_logged(sig, gettid(), judged),
		      "%s: no log line for signal %d to %d", what, sig, judged);
	pt_policy_note_refusal(what);
	return false;
}

/* A child that exits with @code once told to (write a byte to *go). */
static pid_t start_exiter(int code, int *go)
{
	int p[2];
	pid_t pid;

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	pid = pt_fork();
	if (pid == 0) {
		char c;

		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(100);
		_exit(code);
	}
	ck_assert_int_ge(pid, 0);
	close(p[0]);
	*go = p[1];
	return pid;
}

/* ---- The control fd ---- */

/* How many of our fds are open on /dev/pidfd; the last one in *which. */
static int count_control_fds(int *which)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	/* No Check call here: children of the tests use it too. */
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[300], target[64];
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (strcmp(target, LIBPIDFD_DEVICE) == 0) {
			n++;
			if (which)
				*which = atoi(e->d_name);
		}
	}
	closedir(d);
	return n;
}

START_TEST(control_fd_once_and_cloexec)
{
	int ctl = -1;

	ck_assert_int_eq(libpidfd_probe(), 0);
	for (int i = 0; i < 20; i++) {
		int fd = libpidfd_open(getpid(), 0);

		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	ck_assert_int_eq(count_control_fds(&ctl), 1);
	ck_assert_int_ne(fcntl(ctl, F_GETFD) & FD_CLOEXEC, 0);
}
END_TEST

static pthread_barrier_t barrier;

static void *open_self(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&barrier);
	return (void *)(long)libpidfd_open(getpid(), 0);
}

START_TEST(control_fd_threads_race)
{
	pthread_t threads[8];

	/* Each Check test is a fresh fork: no control fd yet. */
	ck_assert_int_eq(count_control_fds(NULL), 0);
	pthread_barrier_init(&barrier, NULL, 8);
	for (int i = 0; i < 8; i++)
		pthread_create(&threads[i], NULL, open_self, NULL);
	for (int i = 0; i < 8; i++) {
		void *ret;

		pthread_join(threads[i], &ret);
		ck_assert_int_ge((long)ret, 0);
		close((int)(long)ret);
	}
	ck_assert_int_eq(count_control_fds(NULL), 1);
}
END_TEST

START_TEST(control_fd_after_fork_and_close)
{
	int ctl = -1, status;
	pid_t child;

	ck_assert_int_eq(libpidfd_probe(), 0);
	ck_assert_int_eq(count_control_fds(&ctl), 1);
	child = pt_fork();
	if (child == 0) {
		int fd, devnull;
		char target[64];
		ssize_t len;

		/* The inherited fd works in the child. */
		fd = libpidfd_open(getppid(), 0);
		if (fd < 0 || count_control_fds(NULL) != 1)
			_exit(1);
		close(fd);
		/* Closed behind the library's back: it opens another. */
		close(ctl);
		fd = libpidfd_open(getpid(), 0);
		if (fd < 0 || count_control_fds(NULL) != 1)
			_exit(2);
		close(fd);
		/* Replaced by another file: that file is left alone. */
		if (count_control_fds(&ctl) != 1)
			_exit(7);
		devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, ctl);
		close(devnull);
		fd = libpidfd_open(getpid(), 0);
		if (fd < 0 || libpidfd_getpid(fd) != getpid())
			_exit(3);
		len = pt_fd_link(ctl, target, sizeof(target));
		if (len < 0)
			_exit(4);
		if (strcmp(target, "/dev/null") != 0)
			_exit(5);
		_exit(count_control_fds(NULL) == 1 ? 0 : 6);
	}
	ck_assert_int_ge(child, 0);
	reap(child, &status);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(control_fd_not_inherited_by_exec)
{
	int out[2], status;
	char buf[16] = "";
	pid_t child;

	ck_assert_int_eq(libpidfd_probe(), 0);
	ck_assert_int_eq(pipe(out), 0);
	child = pt_fork();
	if (child == 0) {
		dup2(out[1], 1);
		execl("/bin/sh", "sh", "-c",
		      "n=0; for f in /proc/$$/fd/*; do "
		      "[ \"$(readlink $f)\" = /dev/pidfd ] && n=$((n+1)); done; echo $n",
		      (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	ck_assert_int_gt(read(out[0], buf, sizeof(buf) - 1), 0);
	reap(child, &status);
	ck_assert_str_eq(buf, "0\n");
	close(out[0]);
}
END_TEST

/* ---- libpidfd_open ---- */

START_TEST(open_errors)
{
	int status, go;
	pid_t pid;

	errno = 0;
	ck_assert_int_eq(libpidfd_open(getpid(), 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_open(getpid(), PIDFD_NONBLOCK | O_APPEND), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_open(0, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_open(-1, 0), -1);
	ck_assert_int_eq(errno, EINVAL);

	pid = start_exiter(0, &go);
	close(go);
	reap(pid, &status);
	errno = 0;
	ck_assert_int_eq(libpidfd_open(pid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
}
END_TEST

START_TEST(open_flags_and_zombie)
{
	int fd, go, status;
	pid_t pid;

	fd = libpidfd_open(getpid(), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_eq(libpidfd_getpid(fd), getpid());
	close(fd);

	fd = libpidfd_open(getpid(), PIDFD_NONBLOCK);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);

	fd = libpidfd_open(gettid(), PIDFD_THREAD);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFL) & O_EXCL, 0);
	close(fd);

	/* A zombie can still be opened. */
	pid = start_exiter(5, &go);
	close(go);
	ck_assert_int_eq(waitid(P_PID, (id_t)pid, &(siginfo_t){ 0 }, WEXITED | WNOWAIT), 0);
	fd = libpidfd_open(pid, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(libpidfd_wait_exit(fd, 0), 0);
	reap(pid, &status);
	close(fd);
}
END_TEST

/*
 * The kernel's pidfd calls reject the module's pidfds; libpidfd takes the
 * kernel's as well (check_backends has the rest).
 */
START_TEST(kernel_pidfds_accepted)
{
	int fd = libpidfd_open(getpid(), 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(libpidfd_pidfd_backend(fd), LIBPIDFD_BACKEND_MODULE);
	errno = 0;
	ck_assert_int_eq(pidfd_send_signal(fd, 0, NULL, 0), -1);
	ck_assert(errno == EBADF || errno == EINVAL);
	close(fd);

	fd = pidfd_open(getpid(), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(libpidfd_pidfd_backend(fd), LIBPIDFD_BACKEND_NATIVE);
	ck_assert_int_eq(libpidfd_send_signal(fd, 0, NULL, 0), 0);
	close(fd);
}
END_TEST

/* ---- libpidfd_send_signal ---- */

START_TEST(signal_kill_style_siginfo)
{
	struct catcher c;
	struct sigrec r;
	int fd;

	start_catcher(&c, false, false);
	fd = libpidfd_open(c.pid, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR1, NULL, 0), 0);
	r = next_record(&c);
	ck_assert_int_eq(r.signo, SIGUSR1);
	ck_assert_int_eq(r.code, SI_USER);
	ck_assert_int_eq(r.sender, getpid());
	ck_assert_uint_eq(r.uid, getuid());
	/* Signal 0: a probe, nothing delivered. */
	ck_assert_int_eq(libpidfd_send_signal(fd, 0, NULL, 0), 0);
	ck_assert(no_record_within(&c, 200));
	close(fd);
	stop_catcher(&c);
}
END_TEST

START_TEST(signal_queued_value)
{
	struct catcher c;
	struct sigrec r;
	siginfo_t info;
	int fd;

	start_catcher(&c, false, false);
	fd = libpidfd_open(c.pid, 0);
	pt_siginfo(&info, SIGRTMIN + 1, SI_QUEUE, 4242);
	if (send_approx(&c, fd, SIGRTMIN + 1, &info, 0, c.pid,
			"a caller's siginfo")) {
		r = next_record(&c);
		ck_assert_int_eq(r.signo, SIGRTMIN + 1);
		ck_assert_int_eq(r.code, SI_QUEUE);
		ck_assert_int_eq(r.value, 4242);
		ck_assert_int_eq(r.sender, getpid());
	}

	/* Refused before the policy looks, under every one: si_signo != sig. */
	errno = 0;
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR1, &info, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* A kernel-looking si_code to another process: spoofing, EPERM. */
	info.si_signo = SIGUSR1;
	info.si_code = SI_USER;
	errno = 0;
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR1, &info, 0), -1);
	ck_assert_int_eq(errno, EPERM);
	info.si_code = SI_TKILL;
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR1, &info, 0), -1);
	ck_assert_int_eq(errno, EPERM);
	ck_assert(no_record_within(&c, 200));
	close(fd);
	stop_catcher(&c);
}
END_TEST

START_TEST(signal_errors)
{
	int fd, go, status;
	pid_t pid;

	pid = start_exiter(0, &go);
	fd = libpidfd_open(pid, 0);
	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_int_eq(libpidfd_send_signal(fd, 65, NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* The module's own EINVAL: the ioctl's sig is an int, as the kernel's. */
	ck_assert_int_eq(libpidfd_send_signal(fd, -1, NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_send_signal(fd, INT_MIN, NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGTERM, NULL, 8), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGTERM, NULL,
			 PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_PROCESS_GROUP), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGTERM, (siginfo_t *)8, 0), -1);
	ck_assert_int_eq(errno, EFAULT);

	close(go);
	ck_assert_int_eq(libpidfd_wait_exit(fd, WAIT_MS), 0);
	/* A zombie: the signal succeeds and does nothing, as kill(2). */
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGTERM, NULL, 0), 0);
	reap(pid, &status);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	errno = 0;
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGTERM, NULL, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	close(fd);
}
END_TEST

START_TEST(signal_thread_scope)
{
	struct catcher c;
	struct sigrec r;
	siginfo_t info;
	int fd, tfd, status;

	start_catcher(&c, true, false);
	ck_assert_int_gt(c.thread, 0);
	ck_assert_int_ne(c.thread, c.pid);

	/* A PIDFD_THREAD pidfd: the thread, by default, as tgkill(2). */
	tfd = libpidfd_open(c.thread, PIDFD_THREAD);
	ck_assert_int_ge(tfd, 0);
	if (send_approx(&c, tfd, SIGUSR1, NULL, 0, c.thread,
			"a PIDFD_THREAD pidfd's default scope")) {
		r = next_record(&c);
		ck_assert_int_eq(r.receiver_tid, c.thread);
		ck_assert_int_eq(r.code, SI_TKILL);
		ck_assert_int_eq(r.sender, getpid());
	}

	/* A process pidfd on the main thread, thread scope: the main thread. */
	fd = libpidfd_open(c.pid, 0);
	if (send_approx(&c, fd, SIGUSR2, NULL, PIDFD_SIGNAL_THREAD, c.pid,
			"PIDFD_SIGNAL_THREAD")) {
		r = next_record(&c);
		ck_assert_int_eq(r.signo, SIGUSR2);
		ck_assert_int_eq(r.receiver_tid, c.pid);
		ck_assert_int_eq(r.code, SI_TKILL);
	}

	/*
	 * A thread's pidfd with thread-group scope: the process, kill(2)'s
	 * path under every policy.
	 */
	ck_assert_int_eq(libpidfd_send_signal(tfd, SIGUSR1, NULL,
					      PIDFD_SIGNAL_THREAD_GROUP), 0);
	r = next_record(&c);
	ck_assert_int_eq(r.receiver_pid, c.pid);
	ck_assert_int_eq(r.code, SI_USER);
	close(fd);

	/*
	 * SIGKILL at thread scope, even with a siginfo, is kill(2)'s too:
	 * the whole process dies, under every policy.
	 */
	pt_siginfo(&info, SIGKILL, SI_QUEUE, 1);
	ck_assert_int_eq(libpidfd_send_signal(tfd, SIGKILL, &info, 0), 0);
	reap(c.pid, &status);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "status %#x", status);
	close(tfd);
	close(c.records);
}
END_TEST

/*
 * What libpidfd's default backend does under the policy: a pidfd is
 * signalled by the side that made it. libpidfd_open() makes the kernel's
 * pidfds where the kernel keeps their exit status (7.2 here) and the
 * module's elsewhere, its thread pidfds too below 6.9: there (6.1 with
 * BPF-LSM active) a siginfo or a thread signal meets the module's policy.
 * The kernel's pidfd of the same process (libpidfd_to_native();
 * pidfd_open(2) is on every kernel) takes the kernel's own call, which
 * asks the LSMs about the real signal: a signal with a siginfo goes
 * through under every policy.
 */
START_TEST(signal_policy_default_backend)
{
	struct catcher c;
	struct sigrec r;
	siginfo_t info;
	int fd, nfd, tfd;

	ck_assert_int_eq(libpidfd_set_backend(LIBPIDFD_BACKEND_AUTO), 0);
	start_catcher(&c, true, false);
	fd = ck_assert_ok(libpidfd_open(c.pid, 0));
	pt_siginfo(&info, SIGRTMIN + 1, SI_QUEUE, 77);
	if (send_approx(&c, fd, SIGRTMIN + 1, &info, 0, c.pid,
			"default backend, a caller's siginfo")) {
		r = next_record(&c);
		ck_assert_int_eq(r.code, SI_QUEUE);
		ck_assert_int_eq(r.value, 77);
	}
	nfd = ck_assert_ok(libpidfd_to_native(fd));
	ck_assert_int_eq(libpidfd_pidfd_backend(nfd), LIBPIDFD_BACKEND_NATIVE);
	pt_siginfo(&info, SIGRTMIN + 1, SI_QUEUE, 78);
	ck_assert_msg(libpidfd_send_signal(nfd, SIGRTMIN + 1, &info, 0) == 0,
		      "the kernel's pidfd, a siginfo: %s", pt_errname(errno));
	r = next_record(&c);
	ck_assert_int_eq(r.code, SI_QUEUE);
	ck_assert_int_eq(r.value, 78);

	tfd = ck_assert_ok(libpidfd_open(c.thread, PIDFD_THREAD));
	if (send_approx(&c, tfd, SIGUSR1, NULL, 0, c.thread,
			"default backend, a thread pidfd")) {
		r = next_record(&c);
		ck_assert_int_eq(r.receiver_tid, c.thread);
		ck_assert_int_eq(r.code, SI_TKILL);
	}
	ck_assert(no_record_within(&c, 200));
	pt_close_all(fd, nfd, tfd);
	stop_catcher(&c);
}
END_TEST

START_TEST(signal_process_group_scope)
{
	struct catcher c;
	struct sigrec r1, r2;
	int fd, mfd;

	start_catcher(&c, false, true);
	fd = libpidfd_open(c.pid, 0);
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR1, NULL,
					      PIDFD_SIGNAL_PROCESS_GROUP), 0);
	r1 = next_record(&c);
	r2 = next_record(&c);
	ck_assert_int_eq(r1.signo, SIGUSR1);
	ck_assert_int_eq(r2.signo, SIGUSR1);
	ck_assert((r1.receiver_pid == c.pid && r2.receiver_pid == c.member) ||
		  (r2.receiver_pid == c.pid && r1.receiver_pid == c.member));
	ck_assert_int_eq(r1.sender, getpid());

	/* The member leads no group: ESRCH. */
	mfd = libpidfd_open(c.member, 0);
	errno = 0;
	ck_assert_int_eq(libpidfd_send_signal(mfd, SIGUSR1, NULL,
					      PIDFD_SIGNAL_PROCESS_GROUP), -1);
	ck_assert_int_eq(errno, ESRCH);
	/* Process scope on the leader reaches the leader only. */
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR2, NULL, 0), 0);
	r1 = next_record(&c);
	ck_assert_int_eq(r1.receiver_pid, c.pid);
	ck_assert(no_record_within(&c, 200));
	close(mfd);
	close(fd);
	stop_catcher(&c);
}
END_TEST

/* An unprivileged sender gets EPERM for a root process, as kill(2). */
START_TEST(signal_unprivileged_eperm)
{
	pid_t victim = pt_fork_sleeper(), child;
	int status;

	child = pt_fork();
	if (child == 0) {
		int fd;

		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(10);
		fd = libpidfd_open(victim, 0);	/* no privilege needed */
		if (fd < 0)
			_exit(11);
		errno = 0;
		if (libpidfd_send_signal(fd, SIGKILL, NULL, 0) != -1 || errno != EPERM)
			_exit(12);
		errno = 0;
		if (libpidfd_send_signal(fd, 0, NULL, 0) != -1 || errno != EPERM)
			_exit(13);
		_exit(0);
	}
	ck_assert_int_ge(child, 0);
	reap(child, &status);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	/* And the victim is alive. */
	ck_assert_int_eq(kill(victim, 0), 0);
	kill(victim, SIGKILL);
	reap(victim, &status);
}
END_TEST

/* ---- /proc ---- */

START_TEST(procfd)
{
	int fd, dir, procroot, status;
	pid_t pid = pt_fork_sleeper();

	fd = libpidfd_open(pid, 0);
	dir = libpidfd_open_procdir(fd);
	ck_assert_int_ge(dir, 0);
	ck_assert_int_ne(fcntl(dir, F_GETFD) & FD_CLOEXEC, 0);
	pt_assert_status_pid(dir, pid);
	close(dir);

	ck_assert_errno(libpidfd_get_procfd(fd, -1), EBADF);
	procroot = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_errno(libpidfd_get_procfd(fd, procroot), EINVAL);
	close(procroot);

	kill(pid, SIGKILL);
	reap(pid, &status);
	ck_assert_errno(libpidfd_open_procdir(fd), ESRCH);
	close(fd);
}
END_TEST

/* pidfd -> /proc/<pid> -> pidfd, and ESRCH for the directory once reaped. */
START_TEST(from_procdir_round_trip)
{
	int fd, dir, back, status;
	pid_t pid = pt_fork_sleeper();

	fd = libpidfd_open(pid, 0);
	ck_assert_int_ge(fd, 0);
	dir = libpidfd_open_procdir(fd);
	ck_assert_int_ge(dir, 0);
	back = libpidfd_from_procdir(dir, PIDFD_NONBLOCK);
	ck_assert_msg(back >= 0, "from_procdir: %m");
	ck_assert_int_ne(fcntl(back, F_GETFD) & FD_CLOEXEC, 0);
	ck_assert_int_eq(libpidfd_getpid(back), pid);
	ck_assert_int_eq(libpidfd_send_signal(back, SIGKILL, NULL, 0), 0);
	ck_assert_int_eq(libpidfd_wait_exit(fd, 10000), 0);
	close(back);
	reap(pid, &status);
	errno = 0;
	ck_assert_int_eq(libpidfd_from_procdir(dir, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	close(dir);
	close(fd);
}
END_TEST

/* libpidfd_get_namespace(): the process's namespace; other commands refused. */
START_TEST(get_namespace)
{
	struct stat a, b;
	int fd, ns, status;
	char path[64];
	pid_t pid = pt_fork_sleeper();

	fd = libpidfd_open(pid, 0);
	ck_assert_int_ge(fd, 0);
	ns = libpidfd_get_namespace(fd, PIDFD_GET_NET_NAMESPACE);
	ck_assert_msg(ns >= 0, "net namespace: %m");
	ck_assert_int_ne(fcntl(ns, F_GETFD) & FD_CLOEXEC, 0);
	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	ck_assert_int_eq(fstat(ns, &a), 0);
	ck_assert_int_eq(stat(path, &b), 0);
	ck_assert(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	close(ns);

	/* Never passed on: PIDFD_GET_INFO, a number past the ten, 0. */
	errno = 0;
	ck_assert_int_eq(libpidfd_get_namespace(fd, PIDFD_DEV_GET_INFO), -1);
	ck_assert_int_eq(errno, ENOTTY);
	errno = 0;
	ck_assert_int_eq(libpidfd_get_namespace(fd, _IO(PIDFS_IOCTL_MAGIC, 11)), -1);
	ck_assert_int_eq(errno, ENOTTY);
	errno = 0;
	ck_assert_int_eq(libpidfd_get_namespace(fd, 0), -1);
	ck_assert_int_eq(errno, ENOTTY);

	kill(pid, SIGKILL);
	reap(pid, &status);
	errno = 0;
	ck_assert_int_eq(libpidfd_get_namespace(fd, PIDFD_GET_UTS_NAMESPACE), -1);
	ck_assert_int_eq(errno, ESRCH);
	close(fd);
}
END_TEST

/* ---- info, exit status, wait ---- */

START_TEST(get_info_fields)
{
	struct pidfd_dev_info info;
	int fd, status, go;
	pid_t pid = start_exiter(7, &go);

	fd = libpidfd_open(pid, 0);
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_SUPPORTED_MASK;
	ck_assert_int_eq(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	ck_assert(info.mask & PIDFD_INFO_PID);
	ck_assert(info.mask & PIDFD_INFO_CREDS);
	ck_assert(!(info.mask & PIDFD_INFO_EXIT));
	ck_assert_uint_eq(info.pid, (unsigned)pid);
	ck_assert_uint_eq(info.tgid, (unsigned)pid);
	ck_assert_uint_eq(info.ppid, (unsigned)getpid());
	ck_assert_uint_eq(info.ruid, 0);
	ck_assert(info.supported_mask & PIDFD_INFO_EXIT);

	errno = 0;
	ck_assert_int_eq(libpidfd_get_info(fd, &info, PIDFD_INFO_SIZE_VER0 - 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(libpidfd_get_info(fd, NULL, sizeof(info)), -1);
	ck_assert_int_eq(errno, EINVAL);

	/* Alive, then a zombie: no exit status yet. */
	errno = 0;
	ck_assert_int_eq(libpidfd_exit_status(fd, &status), -1);
	ck_assert_int_eq(errno, EAGAIN);
	close(go);
	ck_assert_int_eq(libpidfd_wait_exit(fd, WAIT_MS), 0);
	ck_assert_int_eq(libpidfd_exit_status(fd, &status), -1);
	ck_assert_int_eq(errno, EAGAIN);

	reap(pid, &status);
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	ck_assert_int_eq(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	ck_assert(info.mask & PIDFD_INFO_EXIT);
	ck_assert_int_eq(info.exit_code, status);
	ck_assert(WIFEXITED(info.exit_code) && WEXITSTATUS(info.exit_code) == 7);
	/* Reaped, exit status not asked for: ESRCH. */
	memset(&info, 0, sizeof(info));
	errno = 0;
	ck_assert_int_eq(libpidfd_get_info(fd, &info, sizeof(info)), -1);
	ck_assert_int_eq(errno, ESRCH);
	/* The smallest struct still carries exit_code. */
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	ck_assert_int_eq(libpidfd_get_info(fd, &info, PIDFD_INFO_SIZE_VER0), 0);
	ck_assert_int_eq(info.exit_code, status);
	close(fd);
}
END_TEST

START_TEST(get_info_creds_of_unprivileged)
{
	struct pidfd_dev_info info;
	int sync[2], status, fd;
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(sync), 0);
	pid = pt_fork();
	if (pid == 0) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(10);
		close(sync[0]);
		if (write(sync[1], "x", 1) != 1)
			_exit(11);
		for (;;)
			pause();
	}
	close(sync[1]);
	ck_assert_int_eq(read(sync[0], &c, 1), 1);
	fd = libpidfd_open(pid, 0);
	memset(&info, 0, sizeof(info));
	ck_assert_int_eq(libpidfd_get_info(fd, &info, sizeof(info)), 0);
	ck_assert_uint_eq(info.ruid, 1000);
	ck_assert_uint_eq(info.euid, 1000);
	ck_assert_uint_eq(info.rgid, 1000);
	ck_assert_uint_eq(info.fsgid, 1000);
	kill(pid, SIGKILL);
	reap(pid, &status);
	ck_assert_int_eq(libpidfd_exit_status(fd, &status), 0);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(fd);
	close(sync[0]);
}
END_TEST

/* A process that is not our child: its parent reaps it, we read the status. */
START_TEST(exit_status_of_non_child)
{
	struct pt_non_child nc;
	int fd, status;
	int64_t start;

	ck_assert_int_gt(pt_fork_non_child(&nc, 42, 0), 0);
	fd = libpidfd_open(nc.pid, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(libpidfd_wait_exit(fd, 100), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	pt_non_child_go(&nc);
	ck_assert_int_eq(libpidfd_wait_exit(fd, WAIT_MS), 0);

	/* Its parent reaps it a moment later. */
	start = pt_now_ms();
	while (libpidfd_exit_status(fd, &status) < 0) {
		ck_assert_int_eq(errno, EAGAIN);
		ck_assert_int_lt(pt_now_ms() - start, WAIT_MS);
		usleep(5000);
	}
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 42);
	errno = 0;
	ck_assert_int_eq(libpidfd_getpid(fd), -1);
	ck_assert_int_eq(errno, ESRCH);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
	close(fd);
}
END_TEST

/*
 * The kernel's PIDFD_GET_INFO of 6.15 to 7.2 answers ESRCH to a call that
 * finds the task just before its parent reaps it, with the exit recorded
 * by then. Seen in the wild only now and then, so played here: a seccomp
 * listener answers GET_INFO as scripted (an errno, or 0 to let it reach
 * the pidfd), and counts the calls.
 */
struct get_info_script {
	int listener;
	int answer[2];
	int calls;
};

static void *answer_get_info(void *arg)
{
	struct get_info_script *script = arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	for (;;) {
		int n, err;

		memset(&req, 0, sizeof(req));
		if (ioctl(script->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)	/* SIGCHLD of a child */
				continue;
			return NULL;
		}
		n = __atomic_fetch_add(&script->calls, 1, __ATOMIC_SEQ_CST);
		err = n < 2 ? script->answer[n] : 0;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.error = -err;
		resp.flags = err ? 0 : SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(script->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

/* The listener for ioctl(PIDFD_DEV_GET_INFO) of this thread, or -1. */
static int listen_to_get_info(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 (unsigned int)PIDFD_DEV_GET_INFO, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return pt_seccomp_filter(code, sizeof(code) / sizeof(code[0]),
				 SECCOMP_FILTER_FLAG_NEW_LISTENER);
}

/* libpidfd_exit_status() of a reaped child whose GET_INFO is scripted. */
static int exit_status_scripted(struct get_info_script *script, int first,
				int second, int *status)
{
	pid_t child = pt_fork_exit(42);
	int fd = libpidfd_open(child, 0), ret;

	PT_REQUIRE(fd >= 0, "open: %s", pt_errname(errno));
	PT_REQUIRE(pt_reap(child) == 42, "reap");
	script->answer[0] = first;
	script->answer[1] = second;
	__atomic_store_n(&script->calls, 0, __ATOMIC_SEQ_CST);
	ret = libpidfd_exit_status(fd, status);
	close(fd);
	return ret < 0 ? errno : 0;
}

static int exit_status_after_esrch_main(void *arg)
{
	struct get_info_script script = { .listener = -1 };
	pthread_t thread;
	int status = -1;

	(void)arg;
	script.listener = listen_to_get_info();
	PT_CHECK(script.listener >= 0, "seccomp: %s", pt_errname(errno));
	PT_CHECK(pthread_create(&thread, NULL, answer_get_info, &script) == 0,
		 "thread");
	/* Unscripted: one call. */
	PT_CHECK(exit_status_scripted(&script, 0, 0, &status) == 0, "plain");
	PT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42, "%#x", status);
	PT_CHECK(script.calls == 1, "%d calls", script.calls);
	/* ESRCH, then the answer: asked once more. */
	status = -1;
	PT_CHECK(exit_status_scripted(&script, ESRCH, 0, &status) == 0,
		 "after ESRCH");
	PT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42, "%#x", status);
	PT_CHECK(script.calls == 2, "%d calls", script.calls);
	/* ESRCH twice: it stands, no third call. */
	PT_CHECK(exit_status_scripted(&script, ESRCH, ESRCH, &status) == ESRCH,
		 "ESRCH twice");
	PT_CHECK(script.calls == 2, "%d calls", script.calls);
	/* Any other error stands at once. */
	PT_CHECK(exit_status_scripted(&script, EBADF, 0, &status) == EBADF,
		 "EBADF");
	PT_CHECK(script.calls == 1, "%d calls", script.calls);
	return 0;
}

START_TEST(exit_status_after_esrch)
{
	char msg[512] = "";

	ck_assert_msg(pt_run(exit_status_after_esrch_main, NULL, msg,
			     sizeof(msg)) == 0, "%s", msg);
}
END_TEST

START_TEST(wait_exit_timing)
{
	int64_t start;
	int fd, status;
	pid_t pid = pt_fork_sleeper();
	long ms;

	fd = libpidfd_open(pid, 0);
	start = pt_now_ms();
	ck_assert_errno(libpidfd_wait_exit(fd, 300), ETIMEDOUT);
	ms = pt_now_ms() - start;
	ck_assert_msg(ms >= 295 && ms < 3000, "waited %ld ms", ms);
	ck_assert_errno(libpidfd_wait_exit(fd, 0), ETIMEDOUT);

	ck_assert_int_eq(libpidfd_send_signal(fd, SIGKILL, NULL, 0), 0);
	start = pt_now_ms();
	ck_assert_int_eq(libpidfd_wait_exit(fd, -1), 0);
	ck_assert_int_lt(pt_now_ms() - start, WAIT_MS);
	reap(pid, &status);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_eq(libpidfd_wait_exit(fd, 0), 0);
	close(fd);
}
END_TEST

/* A thread pidfd reports the thread's exit, the process pidfd does not. */
static void *exit_soon(void *arg)
{
	int fd = *(int *)arg;
	pid_t tid = gettid();
	char c;

	if (write(fd, &tid, sizeof(tid)) < 0 || read(fd, &c, 1) < 0)
		return NULL;
	return NULL;
}

START_TEST(wait_exit_thread)
{
	int sp[2], tfd, pfd;
	pthread_t t;
	pid_t tid;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	pthread_create(&t, NULL, exit_soon, &sp[1]);
	ck_assert_int_eq(read(sp[0], &tid, sizeof(tid)), sizeof(tid));
	tfd = libpidfd_open(tid, PIDFD_THREAD);
	ck_assert_int_ge(tfd, 0);
	pfd = libpidfd_open(getpid(), 0);
	ck_assert_int_eq(libpidfd_wait_exit(tfd, 0), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_int_eq(write(sp[0], "x", 1), 1);
	pthread_join(t, NULL);
	ck_assert_int_eq(libpidfd_wait_exit(tfd, WAIT_MS), 0);
	ck_assert_int_eq(libpidfd_wait_exit(pfd, 100), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	pt_close_all(tfd, pfd, sp[0], sp[1]);
}
END_TEST

/* ---- getpid ---- */

/* st_ino of a module pidfd of @pid. */
static uint64_t libpidfd_test_module_ino(pid_t pid, unsigned int flags)
{
	int fd = pt_open_ok(pid, flags);
	struct stat st;

	ck_assert_ok(fstat(fd, &st));
	close(fd);
	return st.st_ino;
}

START_TEST(getpid_rules)
{
	int fd, fds[2], status;
	pid_t pid = pt_fork_sleeper();

	fd = libpidfd_open(pid, 0);
	ck_assert_int_eq(libpidfd_getpid(fd), pid);
	kill(pid, SIGKILL);
	reap(pid, &status);
	ck_assert_errno(libpidfd_getpid(fd), ESRCH);
	close(fd);
	ck_assert_errno(libpidfd_getpid(fd), EBADF);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_errno(libpidfd_getpid(fds[0]), EBADF);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/*
 * libpidfd_get_id(): the module pidfd's st_ino; a kernel pidfd of the same
 * process gives the same (pidfs 6.9+, or its module twin's); PIDFD_SELF_*
 * too; a thread its own; EBADF for what is not a pidfd, EINVAL for NULL.
 */
START_TEST(get_id_both_kinds)
{
	pid_t pid = pt_fork_sleeper(), tid = pt_start_idle_thread();
	int mod = pt_open_ok(pid, 0), kern = pidfd_open(pid, 0), fds[2];
	uint64_t id = 0, other = 0;
	struct stat st;

	ck_assert_int_ge(kern, 0);
	ck_assert_ok(fstat(mod, &st));
	ck_assert_int_eq(libpidfd_get_id(mod, &id), 0);
	ck_assert_uint_eq(id, st.st_ino);
	ck_assert_int_eq(libpidfd_get_id(kern, &other), 0);
	ck_assert_uint_eq(other, id);
	ck_assert_errno(libpidfd_get_id(mod, NULL), EINVAL);

	ck_assert_int_eq(libpidfd_get_id(PIDFD_SELF_THREAD_GROUP, &id), 0);
	ck_assert_uint_eq(id, libpidfd_test_module_ino(getpid(), 0));
	ck_assert_int_gt(tid, 0);
	close(mod);
	mod = pt_open_ok(tid, PIDFD_THREAD);
	ck_assert_int_eq(libpidfd_get_id(mod, &id), 0);
	ck_assert_uint_eq(id, libpidfd_test_module_ino(tid, PIDFD_THREAD));
	ck_assert_uint_ne(id, libpidfd_test_module_ino(getpid(), 0));

	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_errno(libpidfd_get_id(fds[0], &id), EBADF);
	ck_assert_errno(libpidfd_get_id(-1, &id), EBADF);
	close(fds[0]);
	close(fds[1]);
	close(mod);
	close(kern);
	pt_kill_reap(pid);
}
END_TEST

/*
 * A module pidfd needs no /proc: told apart, numbered, signalled and
 * waited for with /proc unmounted and the process not dumpable (as after
 * setuid(), when 5.10 refuses its own fdinfo).
 */
START_TEST(module_pidfds_need_no_proc)
{
	pid_t pid = pt_fork_sleeper();
	int fd = ck_assert_ok(libpidfd_open(pid, 0));
	siginfo_t si;

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(umount2("/proc", MNT_DETACH), 0);
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 0), 0);
	ck_assert_int_eq(access("/proc/self", F_OK), -1);

	ck_assert_int_eq(libpidfd_pidfd_backend(fd), LIBPIDFD_BACKEND_MODULE);
	ck_assert_int_eq(libpidfd_getpid(fd), pid);
	ck_assert_int_eq(libpidfd_send_signal(fd, SIGKILL, NULL, 0), 0);
	memset(&si, 0, sizeof(si));
	ck_assert_int_eq(libpidfd_waitid(fd, &si, WEXITED), 0);
	ck_assert_int_eq(si.si_pid, pid);
	ck_assert_int_eq(si.si_code, CLD_KILLED);
	ck_assert_int_eq(si.si_status, SIGKILL);
	ck_assert_errno(libpidfd_getpid(fd), ESRCH);
	close(fd);
}
END_TEST

static Suite *libpidfd_suite(void)
{
	Suite *s = suite_create("libpidfd");
	TCase *tc;

	tc = tcase_create("control_fd");
	pt_add_tests(tc, control_fd_once_and_cloexec, control_fd_threads_race,
		     control_fd_after_fork_and_close,
		     control_fd_not_inherited_by_exec);
	suite_add_tcase(s, tc);

	tc = tcase_create("open");
	pt_add_tests(tc, open_errors, open_flags_and_zombie,
		     kernel_pidfds_accepted);
	suite_add_tcase(s, tc);

	tc = tcase_create("signal");
	tcase_set_timeout(tc, 30);
	pt_add_tests(tc, signal_kill_style_siginfo, signal_queued_value,
		     signal_errors, signal_thread_scope,
		     signal_policy_default_backend,
		     signal_process_group_scope, signal_unprivileged_eperm);
	suite_add_tcase(s, tc);

	tc = tcase_create("proc_info_wait");
	tcase_set_timeout(tc, 30);
	pt_add_tests(tc, procfd, get_namespace, from_procdir_round_trip,
		     get_info_fields, get_info_creds_of_unprivileged,
		     exit_status_of_non_child, exit_status_after_esrch,
		     wait_exit_timing,
		     wait_exit_thread, getpid_rules, get_id_both_kinds,
		     module_pidfds_need_no_proc);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(libpidfd_suite());
	int failed;

	/* The module backend's suite; check_backends runs all three. */
	if (libpidfd_set_backend(LIBPIDFD_BACKEND_MODULE) < 0)
		return EXIT_FAILURE;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
