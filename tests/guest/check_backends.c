// SPDX-License-Identifier: GPL-2.0
/*
 * libpidfd's backends, in the VM: every test runs three times, with the
 * module backend, the native one and auto (PIDFD_BACKENDS="module ..."
 * names a subset: the debug kernel runs the module's alone, as the others
 * run no module code there). What each call must give is
 * worked out from the running kernel's own answers (its pidfd_open with
 * PIDFD_THREAD, its PIDFD_GET_INFO), never from its version: pidfds of
 * the expected kind, signals pending where they should be, conversions
 * that name the same process or fail with ESRCH (never a decoy that took
 * the number), children with a pidfd from birth, waitid's statuses.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

#include "diff_backend.h"
#include "pidfd_test.h"
#include "../../lib/pt_text.h"

extern char **environ;

/* The backend this run of the suite tests (set in main, inherited). */
static int backend;

/* What the running kernel's own pidfd calls can do (probed in main). */
static const struct db_features *F;

/*
 * The kind of pidfd libpidfd_open(..., flags) must make: auto takes the
 * kernel's only where they do all the module's do (the module is loaded
 * here).
 */
static int expected_kind(unsigned int flags)
{
	if (backend != LIBPIDFD_BACKEND_AUTO)
		return backend;
	if ((flags & PIDFD_THREAD) && !F->thread)
		return LIBPIDFD_BACKEND_MODULE;
	return F->supported_exit ? LIBPIDFD_BACKEND_NATIVE
				 : LIBPIDFD_BACKEND_MODULE;
}

/* Whether this process has /dev/pidfd open (the library's control fd). */
static bool device_open_here(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;
	bool found = false;

	ck_assert_ptr_nonnull(dir);
	while ((de = readdir(dir))) {
		char path[300], target[64];
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		found |= strcmp(target, PT_DEV_PATH) == 0;
	}
	closedir(dir);
	return found;
}

/* Native runs must not touch the module. */
static void assert_module_untouched(void)
{
	if (backend == LIBPIDFD_BACKEND_NATIVE)
		ck_assert_msg(!device_open_here(),
			      "the native backend opened /dev/pidfd");
}

/* Another thread of this process, idle for ever: its TID. */
static pid_t start_idle_thread(void)
{
	struct pt_sync ready;
	pthread_t thread;
	pid_t tid;

	pt_sync_init(&ready);
	ck_assert_int_eq(pthread_create(&thread, NULL, pt_idle_thread, &ready),
			 0);
	tid = pt_sync_get(&ready, 10000);
	ck_assert_int_gt(tid, 0);
	pt_sync_close(&ready);
	return tid;
}

static void assert_names(int pidfd, pid_t pid, int kind)
{
	ck_assert_int_eq(libpidfd_pidfd_backend(pidfd), kind);
	ck_assert_int_eq(libpidfd_getpid(pidfd), pid);
	ck_assert_int_eq(fcntl(pidfd, F_GETFD), FD_CLOEXEC);
}

/* ---- opening ---- */

START_TEST(open_makes_the_backends_kind)
{
	pid_t child = pt_fork_sleeper();
	pid_t tid = start_idle_thread();
	int fd;

	fd = ck_assert_ok(libpidfd_open(child, PIDFD_NONBLOCK));
	assert_names(fd, child, expected_kind(0));
	ck_assert(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);

	if (backend == LIBPIDFD_BACKEND_NATIVE && !F->thread) {
		/* The kernel's own answer, as pidfd_open(2) gives it. */
		ck_assert_errno(libpidfd_open(tid, PIDFD_THREAD), EINVAL);
	} else {
		fd = ck_assert_ok(libpidfd_open(tid, PIDFD_THREAD));
		assert_names(fd, tid, expected_kind(PIDFD_THREAD));
		ck_assert(fcntl(fd, F_GETFL) & PIDFD_THREAD);
		close(fd);
	}
	ck_assert_errno(libpidfd_open(child, 1), EINVAL);
	pt_kill_reap(child);
	ck_assert_errno(libpidfd_open(child, 0), ESRCH);
	assert_module_untouched();
}
END_TEST

/* ---- signals, on both kinds of pidfd ---- */

static int block_sigusr(void *arg)
{
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	return sigprocmask(SIG_BLOCK, &set, NULL);
}

/* A child that blocks SIGUSR1 and SIGUSR2, says so, and waits. */
static pid_t fork_blocking_child(void)
{
	pid_t child = pt_fork_prepared(block_sigusr, NULL);

	ck_assert_int_gt(child, 0);
	return child;
}

static uint64_t shared_pending(pid_t pid)
{
	uint64_t thread, shared;

	ck_assert_int_eq(pt_thread_pending(pid, pid, &thread, &shared), 0);
	ck_assert_msg(thread == 0, "thread-directed pending %llx",
		      (unsigned long long)thread);
	return shared;
}

#define SIGBIT(sig) (1ULL << ((sig) - 1))

START_TEST(signal_through_either_kind)
{
	int kind;

	for (kind = 0; kind < 2; kind++) {
		bool native = kind == 0;
		pid_t child = fork_blocking_child();
		int fd = native ? ck_assert_ok(db_sys_pidfd_open(child, 0))
				: pt_open_ok(child, 0);

		ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR1, NULL, 0), 0);
		ck_assert_int_eq(shared_pending(child), SIGBIT(SIGUSR1));
		if (native && backend == LIBPIDFD_BACKEND_NATIVE &&
		    !F->signal_flags) {
			/* The kernel's own answer to flags it lacks. */
			ck_assert_errno(libpidfd_send_signal(fd, SIGUSR2, NULL,
							     PIDFD_SIGNAL_THREAD_GROUP),
					EINVAL);
		} else {
			ck_assert_int_eq(libpidfd_send_signal(fd, SIGUSR2, NULL,
							      PIDFD_SIGNAL_THREAD_GROUP),
					 0);
			ck_assert_int_eq(shared_pending(child),
					 SIGBIT(SIGUSR1) | SIGBIT(SIGUSR2));
		}
		pt_kill_reap(child);
		ck_assert_errno(libpidfd_send_signal(fd, SIGUSR1, NULL, 0),
				ESRCH);
		close(fd);
	}
	pt_dev_close();
}
END_TEST

/* ---- conversion ---- */

START_TEST(convert_both_ways)
{
	pid_t child = pt_fork_sleeper();
	int module, native, back, dup;

	module = pt_open_ok(child, PIDFD_NONBLOCK);
	native = ck_assert_ok(libpidfd_to_native(module));
	assert_names(native, child, LIBPIDFD_BACKEND_NATIVE);
	ck_assert(fcntl(native, F_GETFL) & O_NONBLOCK);
	back = ck_assert_ok(libpidfd_to_module(native));
	assert_names(back, child, LIBPIDFD_BACKEND_MODULE);
	/* Same kind: a duplicate of the same file. */
	dup = ck_assert_ok(libpidfd_to_native(native));
	ck_assert_int_ne(dup, native);
	assert_names(dup, child, LIBPIDFD_BACKEND_NATIVE);
	close(dup);

	/* A zombie still converts; once reaped, nothing does. */
	kill(child, SIGKILL);
	ck_assert_int_eq(pt_wait_zombie(child), 0);
	dup = ck_assert_ok(libpidfd_to_native(module));
	close(dup);
	ck_assert_int_eq(pt_reap(child), 128 + SIGKILL);
	ck_assert_errno(libpidfd_to_native(module), ESRCH);
	ck_assert_errno(libpidfd_to_module(native), ESRCH);
	ck_assert_errno(libpidfd_to_native(back), ESRCH);
	close(module);
	close(native);
	close(back);
	pt_dev_close();

	{
		int fds[2];

		ck_assert_int_eq(pipe(fds), 0);
		ck_assert_errno(libpidfd_to_native(fds[0]), EBADF);
		ck_assert_errno(libpidfd_to_module(-1), EBADF);
		close(fds[0]);
		close(fds[1]);
	}
}
END_TEST

START_TEST(convert_thread_pidfd)
{
	pid_t tid = start_idle_thread();
	int module, native;

	module = pt_open_ok(tid, PIDFD_THREAD);
	if (!F->thread) {
		ck_assert_errno(libpidfd_to_native(module), EINVAL);
	} else {
		native = ck_assert_ok(libpidfd_to_native(module));
		assert_names(native, tid, LIBPIDFD_BACKEND_NATIVE);
		ck_assert(fcntl(native, F_GETFL) & PIDFD_THREAD);
		close(native);
	}
	close(module);
	pt_dev_close();
}
END_TEST

/*
 * In a new pid ns with its own /proc: pidfds of both kinds for pid 1000,
 * reaped, pid 1000 taken by a decoy. Converting, signalling through the
 * other kind: ESRCH, and the decoy neither signalled nor named.
 */
static int recycled_main(void *arg)
{
	int module, native, fd;
	pid_t pid, decoy;

	(void)arg;
	umount2("/proc", MNT_DETACH);
	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0, "mount: %m");
	pid = pt_fork_exit_at(PT_PID_RECYCLE, 0);
	PT_CHECK(pid == PT_PID_RECYCLE, "got pid %d", pid);
	module = pt_open(pid, 0);
	native = db_sys_pidfd_open(pid, 0);
	PT_CHECK(module >= 0 && native >= 0, "open: %m");
	PT_CHECK(pt_reap(pid) == 0, "reap");
	decoy = pt_fork_sleeper_at(PT_PID_RECYCLE);
	PT_CHECK(decoy == PT_PID_RECYCLE, "decoy got pid %d", decoy);

	errno = 0;
	fd = libpidfd_to_native(module);
	PT_CHECK(fd < 0 && errno == ESRCH, "to_native: %d/%s", fd,
		 pt_errname(errno));
	fd = libpidfd_to_module(native);
	PT_CHECK(fd < 0 && errno == ESRCH, "to_module: %d/%s", fd,
		 pt_errname(errno));
	fd = libpidfd_send_signal(native, SIGKILL, NULL, 0);
	PT_CHECK(fd < 0 && errno == ESRCH, "signal: %d/%s", fd,
		 pt_errname(errno));
	fd = libpidfd_send_signal(module, SIGKILL, NULL,
				  PIDFD_SIGNAL_THREAD_GROUP);
	PT_CHECK(fd < 0 && errno == ESRCH, "signal: %d/%s", fd,
		 pt_errname(errno));
	PT_CHECK(pt_child_running(decoy), "the decoy was hit");
	pt_kill_reap(decoy);
	return 0;
}

START_TEST(convert_recycled_pid)
{
	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	pt_assert_child_in_new_pidns(recycled_main, NULL);
}
END_TEST

/*
 * The same, racing: a thread converts while the target is killed, reaped
 * and its number given to a decoy. A conversion that succeeds must name
 * the target: once it is reaped, that pidfd says so (ESRCH), never 1000.
 */
struct race {
	int source;
	int result;
	int err;
};

static void *convert_thread(void *arg)
{
	struct race *r = arg;

	usleep((useconds_t)(random() % 2000));
	r->result = libpidfd_to_native(r->source);
	r->err = errno;
	return NULL;
}

static int race_main(void *arg)
{
	int round, converted = 0;

	(void)arg;
	srandom((unsigned int)pt_now_ms());
	umount2("/proc", MNT_DETACH);
	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0, "mount: %m");
	for (round = 0; round < 150; round++) {
		struct race r = { .result = -1 };
		pthread_t thread;
		pid_t target, decoy;

		target = pt_fork_sleeper_at(PT_PID_RECYCLE);
		PT_CHECK(target == PT_PID_RECYCLE, "target got %d", target);
		r.source = pt_open(target, 0);
		PT_CHECK(r.source >= 0, "open: %m");
		PT_CHECK(pthread_create(&thread, NULL, convert_thread, &r) == 0,
			 "thread");
		usleep((useconds_t)(random() % 2000));
		pt_kill_reap(target);
		decoy = pt_fork_sleeper_at(PT_PID_RECYCLE);
		pthread_join(thread, NULL);
		if (r.result >= 0) {
			converted++;
			errno = 0;
			PT_CHECK(libpidfd_getpid(r.result) == -1 &&
				 errno == ESRCH,
				 "round %d: the converted pidfd names %d",
				 round, libpidfd_getpid(r.result));
			close(r.result);
		} else {
			PT_CHECK(r.err == ESRCH, "round %d: %s", round,
				 pt_errname(r.err));
		}
		close(r.source);
		pt_kill_reap(decoy);
	}
	pt_msg("%d of 150 conversions won the race", converted);
	return 0;
}

START_TEST(convert_races_recycling)
{
	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	pt_assert_child_in_new_pidns(race_main, NULL);
}
END_TEST

/* ---- PIDFD_SELF_THREAD, PIDFD_SELF_THREAD_GROUP ---- */

/* The kernel's own answer to @cmd on a native pidfd: 0 or its errno. */
static int kernel_answer(int native_fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(native_fd, cmd, arg);

	if (ret >= 0) {
		if (!_IOC_SIZE(cmd))
			close(ret);
		return 0;
	}
	return errno;
}


START_TEST(self_sentinels)
{
	uint64_t thread, shared;
	struct pidfd_dev_info info;
	siginfo_t si;
	sigset_t set;
	int fd, err;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);

	ck_assert_int_eq(libpidfd_getpid(PIDFD_SELF_THREAD_GROUP), getpid());
	ck_assert_int_eq(libpidfd_getpid(PIDFD_SELF_THREAD), gettid());
	ck_assert_int_eq(libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP,
					      SIGUSR1, NULL, 0), 0);
	if (backend == LIBPIDFD_BACKEND_NATIVE && !F->thread) {
		ck_assert_errno(libpidfd_send_signal(PIDFD_SELF_THREAD, SIGUSR2,
						     NULL, 0), EINVAL);
	} else {
		ck_assert_int_eq(libpidfd_send_signal(PIDFD_SELF_THREAD,
						      SIGUSR2, NULL, 0), 0);
	}
	ck_assert_int_eq(pt_thread_pending(getpid(), gettid(), &thread,
					   &shared), 0);
	ck_assert_int_eq(shared, SIGBIT(SIGUSR1));
	if (!(backend == LIBPIDFD_BACKEND_NATIVE && !F->thread))
		ck_assert_int_eq(thread, SIGBIT(SIGUSR2));

	fd = ck_assert_ok(libpidfd_to_native(PIDFD_SELF_THREAD_GROUP));
	assert_names(fd, getpid(), LIBPIDFD_BACKEND_NATIVE);
	close(fd);
	ck_assert_errno(libpidfd_wait_exit(PIDFD_SELF_THREAD_GROUP, 20),
			ETIMEDOUT);
	ck_assert_errno(libpidfd_waitid(PIDFD_SELF_THREAD_GROUP, &si, WEXITED),
			ECHILD);

	memset(&info, 0, sizeof(info));
	fd = db_sys_pidfd_open(getpid(), 0);
	err = kernel_answer(fd, PIDFD_DEV_GET_INFO, &info);
	if (err && backend == LIBPIDFD_BACKEND_NATIVE) {
		ck_assert_errno(libpidfd_get_info(PIDFD_SELF_THREAD_GROUP,
						  &info, sizeof(info)), err);
	} else {
		memset(&info, 0, sizeof(info));
		ck_assert_int_eq(libpidfd_get_info(PIDFD_SELF_THREAD_GROUP,
						   &info, sizeof(info)), 0);
		ck_assert_int_eq(info.pid, getpid());
		ck_assert_int_eq(info.tgid, getpid());
	}
	close(fd);
	pt_dev_close();
	if (backend != LIBPIDFD_BACKEND_MODULE)
		assert_module_untouched();
}
END_TEST

/* ---- children ---- */

static void assert_exited(const siginfo_t *si, pid_t pid, int code)
{
	ck_assert_int_eq(si->si_pid, pid);
	ck_assert_int_eq(si->si_signo, SIGCHLD);
	ck_assert_int_eq(si->si_code, CLD_EXITED);
	ck_assert_int_eq(si->si_status, code);
}

/* No child at all: this process's children list is empty. */
static void assert_no_children(void)
{
	char path[64], buf[64] = "";
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", gettid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, buf, sizeof(buf)), 0);
	close(fd);
}

START_TEST(fork_and_waitid)
{
	struct pt_sync go;
	siginfo_t si;
	pid_t child;
	int pidfd;

	pt_sync_init(&go);
	child = libpidfd_fork(&pidfd, PIDFD_NONBLOCK);
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		if (pt_sync_get(&go, 20000) != 1)
			_exit(99);
		_exit(42);
	}
	assert_names(pidfd, child, expected_kind(0));
	ck_assert(fcntl(pidfd, F_GETFL) & O_NONBLOCK);

	memset(&si, 0xff, sizeof(si));
	ck_assert_int_eq(libpidfd_waitid(pidfd, &si, WEXITED | WNOHANG), 0);
	ck_assert_int_eq(si.si_pid, 0);
	/* A non-blocking pidfd does not block: EAGAIN, as waitid(2) says. */
	ck_assert_errno(libpidfd_waitid(pidfd, &si, WEXITED), EAGAIN);
	pt_sync_put(&go, 1);
	ck_assert_int_eq(libpidfd_wait_exit(pidfd, 20000), 0);
	ck_assert_int_eq(libpidfd_waitid(pidfd, &si, WEXITED | WNOWAIT), 0);
	assert_exited(&si, child, 42);
	/* Only looked: still there to reap. */
	ck_assert_int_eq(libpidfd_waitid(pidfd, &si, WEXITED), 0);
	assert_exited(&si, child, 42);
	ck_assert_errno(libpidfd_waitid(pidfd, &si, WEXITED), ECHILD);
	ck_assert_errno(libpidfd_waitid(pidfd, NULL, WEXITED), EFAULT);
	close(pidfd);
	pt_sync_close(&go);
	assert_module_untouched();
}
END_TEST

/*
 * PIDFD_AUTOKILL: the module's pidfd kills the child when closed (root
 * here: CAP_SYS_ADMIN). The kernel's pidfd_open(2) has no such flag.
 */
START_TEST(fork_autokill)
{
	int pidfd = -1, status;
	pid_t child;

	child = libpidfd_fork(&pidfd, PIDFD_AUTOKILL);
	if (child == 0)
		for (;;)
			pause();
	if (backend == LIBPIDFD_BACKEND_NATIVE) {
		/* Refused before the fork: no child. */
		ck_assert_int_eq(child, -1);
		ck_assert_int_eq(errno, EINVAL);
		assert_no_children();
		return;
	}
	ck_assert_int_gt(child, 0);
	assert_names(pidfd, child, LIBPIDFD_BACKEND_MODULE);
	ck_assert(pt_child_running(child));
	close(pidfd);
	ck_assert_int_eq(pt_waitpid(child, &status, 0), child);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	pt_dev_close();
}
END_TEST

START_TEST(waitid_either_kind)
{
	pid_t child[2];
	int fds[2], i, init;
	siginfo_t si;

	for (i = 0; i < 2; i++) {
		child[i] = pt_fork_exit(7 + i);
		fds[i] = i ? pt_open_ok(child[i], 0)
			   : ck_assert_ok(db_sys_pidfd_open(child[i], 0));
	}
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(libpidfd_waitid(fds[i], &si, WEXITED), 0);
		assert_exited(&si, child[i], 7 + i);
		close(fds[i]);
	}
	/* Not our child. */
	init = pt_open_ok(1, 0);
	ck_assert_errno(libpidfd_waitid(init, &si, WEXITED | WNOHANG), ECHILD);
	close(init);
	pt_dev_close();
}
END_TEST

static uint64_t status_mask(pid_t pid, const char *key)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	ck_assert_int_eq(pt_read_field(path, key, buf, sizeof(buf)), 0);
	return strtoull(buf, NULL, 16);
}

START_TEST(spawn_keeps_the_callers_mask)
{
	char *argv[] = { "sh", "-c", "exec sleep 30", NULL };
	sigset_t set, old;
	siginfo_t si;
	pid_t pid;
	int pidfd;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	ck_assert_int_eq(libpidfd_spawn(&pidfd, "/bin/sh", NULL, NULL, argv,
					environ), 0);
	pid = libpidfd_getpid(pidfd);
	ck_assert_int_gt(pid, 0);
	assert_names(pidfd, pid, expected_kind(0));
	/* Our mask, not the one libpidfd held while it opened the pidfd. */
	ck_assert_int_eq(status_mask(pid, "SigBlk:"), SIGBIT(SIGUSR1));
	ck_assert_int_eq(libpidfd_send_signal(pidfd, SIGKILL, NULL, 0), 0);
	ck_assert_int_eq(libpidfd_waitid(pidfd, &si, WEXITED), 0);
	ck_assert_int_eq(si.si_code, CLD_KILLED);
	ck_assert_int_eq(si.si_status, SIGKILL);
	close(pidfd);
	/* And the caller's mask is what it was. */
	pthread_sigmask(SIG_SETMASK, &old, &set);
	ck_assert(sigismember(&set, SIGUSR1));
	ck_assert(!sigismember(&set, SIGCHLD));
	ck_assert_int_eq(libpidfd_spawn(&pidfd, "/nonexistent", NULL, NULL,
					argv, environ), ENOENT);
	ck_assert_int_eq(libpidfd_spawnp(&pidfd, "nonexistent-program", NULL,
					 NULL, argv, environ), ENOENT);
	ck_assert_int_eq(libpidfd_spawn(NULL, "/bin/sh", NULL, NULL, argv,
					environ), EINVAL);
	/* spawnp searches PATH, as posix_spawnp(3). */
	ck_assert_int_eq(setenv("PATH", "/bin", 1), 0);
	ck_assert_int_eq(libpidfd_spawnp(&pidfd, "sh", NULL, NULL, argv,
					 environ), 0);
	pid = libpidfd_getpid(pidfd);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(libpidfd_send_signal(pidfd, SIGKILL, NULL, 0), 0);
	ck_assert_int_eq(libpidfd_waitid(pidfd, &si, WEXITED), 0);
	ck_assert_int_eq(si.si_pid, pid);
	close(pidfd);
	assert_no_children();
	assert_module_untouched();
}
END_TEST

static void noop_handler(int sig)
{
	(void)sig;
}

START_TEST(autoreaping_refused)
{
	char *argv[] = { "true", NULL };
	struct sigaction sa = { .sa_handler = noop_handler,
				.sa_flags = SA_NOCLDWAIT };
	int pidfd = -1;

	signal(SIGCHLD, SIG_IGN);
	ck_assert_errno(libpidfd_fork(&pidfd, 0), ECHILD);
	ck_assert_int_eq(libpidfd_spawn(&pidfd, "/bin/true", NULL, NULL, argv,
					environ), ECHILD);
	assert_no_children();
	ck_assert_int_eq(sigaction(SIGCHLD, &sa, NULL), 0);
	ck_assert_errno(libpidfd_fork(&pidfd, 0), ECHILD);
	assert_no_children();
	ck_assert_int_eq(pidfd, -1);
	ck_assert_errno(libpidfd_fork(NULL, 0), EINVAL);
	ck_assert_errno(libpidfd_fork(&pidfd, 1), EINVAL);
}
END_TEST

/* ---- GET_INFO, namespaces, /proc on a native pidfd ---- */

START_TEST(exit_status_of_native_pidfd)
{
	pid_t child = pt_fork_exit(3);
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_EXIT };
	int native, module, status = -1;

	native = ck_assert_ok(db_sys_pidfd_open(child, 0));
	module = pt_open_ok(child, 0);
	ck_assert_int_eq(pt_reap(child), 3);
	ck_assert_int_eq(libpidfd_exit_status(module, &status), 0);
	ck_assert_int_eq(status, 3 << 8);

	if (backend != LIBPIDFD_BACKEND_MODULE &&
	    kernel_answer(native, PIDFD_DEV_GET_INFO, &info) == 0 &&
	    (info.mask & PIDFD_INFO_EXIT)) {
		status = -1;
		ck_assert_int_eq(libpidfd_exit_status(native, &status), 0);
		ck_assert_int_eq(status, 3 << 8);
	} else if (backend == LIBPIDFD_BACKEND_NATIVE) {
		int err = kernel_answer(native, PIDFD_DEV_GET_INFO, &info);

		ck_assert_errno(libpidfd_exit_status(native, &status), err);
	} else {
		/* Converting needs the process: it was reaped. */
		ck_assert_errno(libpidfd_exit_status(native, &status), ESRCH);
	}
	close(native);
	close(module);
	pt_dev_close();
}
END_TEST

static void assert_same_file(int fd, const char *path)
{
	struct stat a, b;

	ck_assert_int_eq(fstat(fd, &a), 0);
	ck_assert_int_eq(stat(path, &b), 0);
	ck_assert(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

START_TEST(native_pidfd_everywhere)
{
	pid_t child = pt_fork_sleeper();
	struct pidfd_dev_info info;
	char path[64];
	int native, fd, err, dirfd;

	native = ck_assert_ok(db_sys_pidfd_open(child, 0));

	memset(&info, 0, sizeof(info));
	err = kernel_answer(native, PIDFD_DEV_GET_INFO, &info);
	memset(&info, 0, sizeof(info));
	if (err && backend == LIBPIDFD_BACKEND_NATIVE) {
		ck_assert_errno(libpidfd_get_info(native, &info, sizeof(info)),
				err);
	} else {
		ck_assert_int_eq(libpidfd_get_info(native, &info,
						   sizeof(info)), 0);
		ck_assert_int_eq(info.pid, child);
		ck_assert_int_eq(info.ppid, getpid());
	}

	snprintf(path, sizeof(path), "/proc/%d/ns/uts", child);
	err = kernel_answer(native, PIDFD_GET_UTS_NAMESPACE, NULL);
	if (err && backend == LIBPIDFD_BACKEND_NATIVE) {
		ck_assert_errno(libpidfd_get_namespace(native,
						       PIDFD_GET_UTS_NAMESPACE),
				err);
	} else {
		fd = ck_assert_ok(libpidfd_get_namespace(native,
							 PIDFD_GET_UTS_NAMESPACE));
		assert_same_file(fd, path);
		close(fd);
	}

	/* Proved in userspace for a kernel pidfd: every backend. */
	snprintf(path, sizeof(path), "/proc/%d", child);
	dirfd = ck_assert_ok(libpidfd_open_procdir(native));
	assert_same_file(dirfd, path);
	fd = ck_assert_ok(libpidfd_from_procdir(dirfd, 0));
	assert_names(fd, child, expected_kind(0));
	close(fd);
	close(dirfd);
	close(native);
	pt_kill_reap(child);
	assert_module_untouched();
}
END_TEST

static Suite *backend_suite(const char *name)
{
	Suite *s = suite_create(name);
	TCase *tc = pt_tcase(s, "open and signal");

	pt_add_tests(tc, open_makes_the_backends_kind,
		     signal_through_either_kind, self_sentinels);
	pt_add_tests(pt_tcase(s, "conversion"), convert_both_ways,
		     convert_thread_pidfd, convert_recycled_pid,
		     convert_races_recycling);
	pt_add_tests(pt_tcase(s, "children"), fork_and_waitid, fork_autokill,
		     waitid_either_kind, spawn_keeps_the_callers_mask,
		     autoreaping_refused);
	pt_add_tests(pt_tcase(s, "features"), exit_status_of_native_pidfd,
		     native_pidfd_everywhere);
	return s;
}

int main(void)
{
	static const struct {
		int backend;
		const char *word, *name;
	} runs[] = {
		{ LIBPIDFD_BACKEND_MODULE, "module", "libpidfd backend module" },
		{ LIBPIDFD_BACKEND_NATIVE, "native", "libpidfd backend native" },
		{ LIBPIDFD_BACKEND_AUTO, "auto", "libpidfd backend auto" },
	};
	const char *only = getenv("PIDFD_BACKENDS");
	int failed = 0, ran = 0;
	size_t i;

	F = db_features();
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		if (only && !pt_listed(only, runs[i].word, ' ')) {
			printf("SKIP backend_%s: not in PIDFD_BACKENDS='%s'\n",
			       runs[i].word, only);
			continue;
		}
		ran++;
		backend = runs[i].backend;
		if (libpidfd_set_backend(backend) < 0)
			return EXIT_FAILURE;
		failed |= pt_main(backend_suite(runs[i].name));
	}
	if (!ran) {
		fprintf(stderr, "PIDFD_BACKENDS='%s' names no backend\n", only);
		return EXIT_FAILURE;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
