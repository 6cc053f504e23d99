// SPDX-License-Identifier: GPL-2.0
/*
 * libpidfd-preload.so (docs/interposer.md) as an unmodified dynamically
 * linked program meets it: glibc's pidfd calls, waitid(P_PIDFD), ioctl()
 * and getsockopt() and syscall(), each as a program makes them, on the
 * running kernel, with and without the module (the same program runs as
 * check_native_interpose before the module is loaded), under either of
 * the module's signal policies.
 *
 * The program starts itself again through "pidfdctl exec" ($PIDFDCTL,
 * default /bin/pidfdctl), after probing what the kernel itself has
 * (tests/lib/pt_kernel.h, without the interposer): the expectations are
 * the newest kernel's where the kernel or the module can serve a call,
 * and the kernel's own answer (asked through libc's syscall(), past the
 * interposer) where neither can, or where the module's policy refuses.
 *
 * The program also defines ioctl() itself, counting and passing each call
 * on with dlsym(RTLD_NEXT), as programs with wrappers of their own do: the
 * interposer must sit behind it and still serve the pidfd ioctls.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <gnu/libc-version.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "check_glue.h"
#include "pt_files.h"
#include "pt_ioctl.h"
#include "pt_kernel.h"
#include "pt_policy.h"
#include "pt_process.h"
#include "pt_sys_pidfd.h"

#define PT_P_PIDFD	((idtype_t)3)
#define SO_PEERPIDFD_	77
/* glibc 2.31 names neither; the same numbers everywhere. */
#define SYS_clone3_		435
#define SYS_process_madvise_	440
#define SYS_process_mrelease_	448
#define MADV_COLD_		20

/* What the kernel has, probed before the interposer came in. */
#define KERNEL_ENV	"PT_INTERPOSE_KERNEL"
enum {
	K_THREAD = 1 << 0,	/* PIDFD_THREAD, 6.9 */
	K_SCOPE = 1 << 1,	/* PIDFD_SIGNAL_* flags, 6.9 */
	K_NS = 1 << 2,		/* namespace ioctls, 6.11 */
	K_INFO = 1 << 3,	/* PIDFD_GET_INFO, 6.13 */
	K_EXIT = 1 << 4,	/* the exit status after the reap, 6.15 */
	K_EXIT_SAID = 1 << 5,	/* ...and its supported mask says so, 6.19 */
	K_PEER = 1 << 6,	/* SO_PEERPIDFD, 6.5 */
};

static unsigned int kernel;
static bool module;
/* libc's own syscall(), past the interposer: the kernel's answers. */
static long (*raw_syscall)(long, ...);

/* ---- this program's own ioctl(), in front of the interposer ---------- */

static unsigned long own_ioctls;

int ioctl(int fd, unsigned long req, ...)
{
	static int (*next)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!next)
		next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	__atomic_add_fetch(&own_ioctls, 1, __ATOMIC_RELAXED);
	return next(fd, req, arg);
}

/* ---- the kernel's own answers ------------------------------------------ */

static int raw_open(pid_t pid, unsigned int flags)
{
	return (int)raw_syscall(SYS_pidfd_open, pid, flags);
}

static int raw_ioctl(int fd, unsigned long req, void *arg)
{
	return (int)raw_syscall(SYS_ioctl, fd, req, arg);
}

/* One of the kernel's pidfds: its waitid(P_PIDFD) takes it. */
static bool is_kernel_pidfd(int fd)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return raw_syscall(SYS_waitid, PT_P_PIDFD, fd, &si,
			   WEXITED | WNOHANG | WNOWAIT | __WALL, NULL) == 0 ||
	       errno == ECHILD;
}

static bool is_module_pidfd(int fd)
{
	return module && ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, fd) == 1;
}

/* A call's outcome: its return value and errno (0 on success). */
struct res {
	long ret;
	int err;
};

#define CALL(expr) ({ errno = 0; long __r = (long)(expr); \
		      (struct res){ __r, __r < 0 ? errno : 0 }; })

/* Asserts that @got succeeded if @ok, else failed with @err. */
static void expect(const char *what, struct res got, bool ok, int err)
{
	if (ok)
		ck_assert_msg(got.ret >= 0, "%s: failed with %s, want success",
			      what, pt_errname(got.err));
	else
		ck_assert_msg(got.ret < 0 && got.err == err,
			      "%s: %ld/%s, want -1/%s", what, got.ret,
			      pt_errname(got.err), pt_errname(err));
}

/* Asserts that @got is the kernel's own answer @raw (fds: both open). */
static void same(const char *what, struct res got, struct res raw)
{
	ck_assert_msg((got.ret < 0) == (raw.ret < 0) && got.err == raw.err,
		      "%s: %ld/%s, the kernel's %ld/%s", what, got.ret,
		      pt_errname(got.err), raw.ret, pt_errname(raw.err));
}

/* What the module would do here: loaded, and the backend not native. */
static bool module_serves(void)
{
	const char *b = getenv("LIBPIDFD_BACKEND");

	return module && !(b && !strcmp(b, "native"));
}

/* pidfd_open() makes the module's pidfds (docs/interposer.md). */
static bool opens_module_pidfds(void)
{
	return module_serves() && !(kernel & K_EXIT_SAID);
}

/* Says what a run under a refusing policy asserted instead. */
static void note_policy(const char *what)
{
	printf("[policy] %s, as a kernel without the feature, where the "
	       "module refuses it (%s)\n", what, pt_policy_describe());
	fflush(stdout);
}

/* /dev/pidfd fds open in this process. */
static int device_fds(void)
{
	char target[64];
	struct dirent *d;
	int n = 0;
	DIR *dir = opendir("/proc/self/fd");

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		ssize_t len = readlinkat(dirfd(dir), d->d_name, target,
					 sizeof(target) - 1);

		if (len <= 0)
			continue;
		target[len] = '\0';
		if (!strcmp(target, "/dev/pidfd"))
			n++;
	}
	closedir(dir);
	return n;
}

static struct res get_info(int fd, struct pidfd_dev_info *info, __u64 mask)
{
	memset(info, 0, sizeof(*info));
	info->mask = mask;
	return CALL(ioctl(fd, PIDFD_DEV_GET_INFO, info));
}

/*
 * What PIDFD_GET_INFO on a pidfd of ours must give: 0 where the kernel or
 * the module has it, else the kernel's own errno (ENOTTY; EINVAL from
 * 6.11 and 6.12's pidfs).
 */
static int get_info_err(void)
{
	struct pidfd_dev_info info;
	int fd, err;

	if ((kernel & K_INFO) || module_serves())
		return 0;
	fd = ck_assert_ok(raw_open(getpid(), 0));
	memset(&info, 0, sizeof(info));
	err = raw_ioctl(fd, PIDFD_DEV_GET_INFO, &info) < 0 ? errno : 0;
	close(fd);
	return err;
}

/* ---- the interposer is there ------------------------------------------ */

START_TEST(interposer_active)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	const char *preload = getenv("LD_PRELOAD");

	ck_assert_ptr_nonnull(libc);
	ck_assert_ptr_nonnull(preload);
	ck_assert_msg(strstr(preload, "libpidfd-preload.so"),
		      "LD_PRELOAD='%s'", preload);
	/* syscall() and ioctl() are the interposer's, not libc's. */
	ck_assert_ptr_ne(dlsym(RTLD_DEFAULT, "syscall"), dlsym(libc, "syscall"));
	ck_assert_ptr_ne(dlsym(RTLD_NEXT, "ioctl"), dlsym(libc, "ioctl"));
}
END_TEST

/* ---- pidfd_open --------------------------------------------------------- */

START_TEST(open_process)
{
	pid_t child = pt_fork_sleeper();
	struct res high, raw_high;
	int raw, fd, nb, sys;

	ck_assert_int_gt(child, 0);
	raw = ck_assert_ok(raw_open(child, 0));
	close(raw);
	fd = ck_assert_ok(pidfd_open(child, 0));
	/* The number the kernel gave: the module's pidfd took its place. */
	ck_assert_int_eq(fd, raw);
	ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	ck_assert_int_eq(pt_pidfd_pid(fd), child);
	ck_assert_int_eq(is_module_pidfd(fd), opens_module_pidfds());
	ck_assert_int_eq(is_kernel_pidfd(fd), !opens_module_pidfds());

	nb = ck_assert_ok(pidfd_open(child, PIDFD_NONBLOCK));
	ck_assert(fcntl(nb, F_GETFL) & O_NONBLOCK);
	sys = ck_assert_ok(syscall(SYS_pidfd_open, child, 0));
	ck_assert_int_eq(is_module_pidfd(sys), opens_module_pidfds());
	/*
	 * A number with high bits: pidfd_open where the kernel reads its low
	 * 32 bits only, and then a module pidfd where pidfd_open() gives
	 * one; ENOSYS where it reads them all (5.10), as the kernel's.
	 */
	raw_high = CALL(raw_syscall((1L << 32) | SYS_pidfd_open, child, 0));
	high = CALL(syscall((1L << 32) | SYS_pidfd_open, child, 0));
	if (raw_high.ret >= 0) {
		close((int)raw_high.ret);
		ck_assert_msg(high.ret >= 0, "high bits: %s",
			      pt_errname(high.err));
		ck_assert_int_eq(is_module_pidfd((int)high.ret),
				 opens_module_pidfds());
		close((int)high.ret);
	} else {
		same("pidfd_open, high bits", high, raw_high);
	}
	pt_kill_reap(child);
	close(fd);
	close(nb);
	close(sys);
}
END_TEST

/*
 * fstat()'s st_ino identifies a pidfd's process where each has an inode:
 * the kernel's pidfds from 6.9 (pidfs), the module's on every kernel
 * (docs/abi.md, "Identity"). Elsewhere the kernel's share one.
 */
START_TEST(fstat_identity)
{
	pid_t a = pt_fork_sleeper(), b = pt_fork_sleeper();
	int raw = ck_assert_ok(raw_open(a, 0));
	int fa = ck_assert_ok(pidfd_open(a, 0));
	int fa2 = ck_assert_ok(pidfd_open(a, 0));
	int fb = ck_assert_ok(pidfd_open(b, 0));
	struct stat sa, sa2, sb;
	struct statfs sfs;
	bool pidfs, own;

	ck_assert_int_eq(fstatfs(raw, &sfs), 0);
	pidfs = sfs.f_type == 0x50494446;	/* PID_FS_MAGIC */
	own = pidfs || opens_module_pidfds();
	ck_assert_int_eq(fstat(fa, &sa), 0);
	ck_assert_int_eq(fstat(fa2, &sa2), 0);
	ck_assert_int_eq(fstat(fb, &sb), 0);
	ck_assert_uint_eq(sa.st_ino, sa2.st_ino);
	ck_assert_msg((sa.st_ino != sb.st_ino) == own,
		      "two processes' pidfds: inodes %lu and %lu", sa.st_ino,
		      sb.st_ino);
	pt_kill_reap(a);
	pt_kill_reap(b);
	close(raw);
	close(fa);
	close(fa2);
	close(fb);
}
END_TEST

/* A thread that waits for SIGUSR1 (blocked everywhere) and notes it. */
struct waiter {
	struct pt_sync ready;
	siginfo_t si;
	int got;
};

static void *wait_usr1(void *arg)
{
	struct waiter *w = arg;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pt_sync_put(&w->ready, pt_gettid());
	w->got = pt_sigtimedwait(&set, &w->si, 20000);
	return NULL;
}

static void block_usr1(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

START_TEST(open_thread_and_signal_it)
{
	bool want = (kernel & K_THREAD) ||
		    (module_serves() && !pt_policy_refuses_approx());
	struct waiter w = { .got = -1 };
	struct res r, raw;
	pthread_t t;
	pid_t tid;
	int fd;

	block_usr1();
	pt_sync_init(&w.ready);
	ck_assert_int_eq(pthread_create(&t, NULL, wait_usr1, &w), 0);
	tid = pt_sync_get(&w.ready, 10000);
	ck_assert_int_gt(tid, 0);

	r = CALL(pidfd_open(tid, PIDFD_THREAD));
	raw = CALL(raw_open(tid, PIDFD_THREAD));
	if (raw.ret >= 0)
		close((int)raw.ret);
	expect("pidfd_open(tid, PIDFD_THREAD)", r, want, EINVAL);
	if (!want) {
		/* The kernel's EINVAL: the program falls back to tgkill(). */
		same("pidfd_open(tid, PIDFD_THREAD)", r, raw);
		if (module_serves())
			note_policy("pidfd_open(PIDFD_THREAD): EINVAL");
		ck_assert_int_eq(syscall(SYS_tgkill, getpid(), tid, SIGUSR1), 0);
		pthread_join(t, NULL);
		return;
	}
	fd = (int)r.ret;
	ck_assert(fcntl(fd, F_GETFL) & PIDFD_THREAD);
	ck_assert_int_eq(pidfd_send_signal(fd, SIGUSR1, NULL, 0), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(w.got, SIGUSR1);
	ck_assert_int_eq(w.si.si_code, SI_TKILL);
	ck_assert_int_eq(w.si.si_pid, getpid());
	/* Its exit is seen on the thread's pidfd while the process lives. */
	ck_assert_int_gt(pt_poll1(fd, POLLIN, 10000), 0);
	close(fd);
}
END_TEST

/* ---- pidfd_send_signal ------------------------------------------------- */

START_TEST(signal_scopes)
{
	bool scopes = (kernel & K_SCOPE) || module_serves();
	bool thread_ok = (kernel & K_SCOPE) ||
			 (module_serves() && !pt_policy_refuses_approx());
	static const unsigned int flags[] = {
		PIDFD_SIGNAL_THREAD_GROUP, PIDFD_SIGNAL_PROCESS_GROUP,
		PIDFD_SIGNAL_THREAD,
	};
	uint64_t sigpnd = 0, shdpnd = 0;
	siginfo_t si;
	int fd = ck_assert_ok(pidfd_open(getpid(), 0));
	sigset_t set;

	/* Signal 0 at every scope: the module checks it exactly. */
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		expect("pidfd_send_signal(0, scope)",
		       CALL(pidfd_send_signal(fd, 0, NULL, flags[i])), scopes,
		       EINVAL);
	/* A real thread-directed signal, to ourselves: pending on us. */
	block_usr1();
	expect("pidfd_send_signal(SIGUSR1, PIDFD_SIGNAL_THREAD)",
	       CALL(pidfd_send_signal(fd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD)),
	       thread_ok, EINVAL);
	if (thread_ok) {
		ck_assert_int_eq(pt_thread_pending(getpid(), pt_gettid(),
						   &sigpnd, &shdpnd), 0);
		ck_assert(sigpnd & (1ULL << (SIGUSR1 - 1)));
		ck_assert(!(shdpnd & (1ULL << (SIGUSR1 - 1))));
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		ck_assert_int_eq(pt_sigtimedwait(&set, &si, 1000), SIGUSR1);
	}
	close(fd);
}
END_TEST

static int child_wait_usr1(void)
{
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (pt_sigtimedwait(&set, &si, 20000) != SIGUSR1)
		return 1;
	return si.si_code == SI_QUEUE && si.si_value.sival_int == 7 &&
	       si.si_pid == getppid() ? 0 : 2;
}

START_TEST(signal_child)
{
	struct pt_sync ready;
	siginfo_t si;
	pid_t child;
	int fd, status;

	child = pt_fork_sleeper();
	fd = ck_assert_ok(pidfd_open(child, 0));
	ck_assert_int_eq(pidfd_send_signal(fd, SIGTERM, NULL, 0), 0);
	status = pt_reap_status(child);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	/* Reaped: ESRCH, as every kernel says. */
	ck_assert_errno(pidfd_send_signal(fd, 0, NULL, 0), ESRCH);
	close(fd);

	/* A caller's siginfo, through syscall(): delivered as queued. */
	block_usr1();
	pt_sync_init(&ready);
	child = pt_fork();
	if (child == 0) {
		pt_sync_put(&ready, 1);
		_exit(child_wait_usr1());
	}
	ck_assert_int_eq(pt_sync_get(&ready, 10000), 1);
	fd = ck_assert_ok(pidfd_open(child, 0));
	ck_assert_int_eq(syscall(SYS_pidfd_send_signal, fd, SIGUSR1,
				 pt_siginfo(&si, SIGUSR1, SI_QUEUE, 7), 0), 0);
	status = pt_reap_status(child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child's signal: status %#x", status);
	close(fd);
	pt_sync_close(&ready);
}
END_TEST

/* ---- waitid(P_PIDFD) and poll ------------------------------------------ */

START_TEST(waitid_and_poll)
{
	struct rusage ru;
	siginfo_t si;
	pid_t child;
	int fd;

	child = pt_fork_exit(42);
	fd = ck_assert_ok(pidfd_open(child, 0));
	ck_assert_int_gt(pt_poll1(fd, POLLIN, 10000), 0);
	memset(&si, 0, sizeof(si));
	ck_assert_int_eq(waitid(PT_P_PIDFD, fd, &si, WEXITED), 0);
	ck_assert_int_eq(si.si_pid, child);
	ck_assert_int_eq(si.si_code, CLD_EXITED);
	ck_assert_int_eq(si.si_status, 42);
	/* Reaped: no such child any more. */
	ck_assert_errno(waitid(PT_P_PIDFD, fd, &si, WEXITED | WNOHANG), ECHILD);
	close(fd);

	/* Through syscall(), with a struct rusage. */
	child = pt_fork_exit(3);
	fd = ck_assert_ok(pidfd_open(child, 0));
	memset(&si, 0, sizeof(si));
	ck_assert_int_eq(syscall(SYS_waitid, PT_P_PIDFD, fd, &si, WEXITED, &ru), 0);
	ck_assert_int_eq(si.si_status, 3);
	close(fd);

	/* PIDFD_NONBLOCK: EAGAIN for a child still running. */
	child = pt_fork_sleeper();
	fd = ck_assert_ok(pidfd_open(child, PIDFD_NONBLOCK));
	ck_assert_errno(waitid(PT_P_PIDFD, fd, &si, WEXITED), EAGAIN);
	pt_kill_reap(child);
	close(fd);
}
END_TEST

/* ---- the ioctls -------------------------------------------------------- */

START_TEST(get_info_ioctl)
{
	bool want = (kernel & K_INFO) || module_serves();
	int fds[2] = { ck_assert_ok(pidfd_open(getpid(), 0)),
		       ck_assert_ok(raw_open(getpid(), 0)) };
	const unsigned long small = _IOWR(PIDFS_IOCTL_MAGIC, 11, char[32]);
	struct pidfd_dev_info info;
	unsigned long before = own_ioctls;
	struct res r;
	int server;

	for (int i = 0; i < 2; i++) {
		r = get_info(fds[i], &info, PIDFD_INFO_PID);
		if (!want) {
			/* ENOTTY; EINVAL from 6.11 and 6.12's pidfs. */
			same("PIDFD_GET_INFO", r,
			     CALL(raw_ioctl(fds[i], PIDFD_DEV_GET_INFO, &info)));
			continue;
		}
		expect("PIDFD_GET_INFO", r, true, 0);
		ck_assert_int_eq(info.pid, getpid());
		ck_assert_int_eq(info.tgid, getpid());
		ck_assert(info.mask & PIDFD_INFO_PID);
		/* Through syscall(SYS_ioctl) alike. */
		memset(&info, 0, sizeof(info));
		ck_assert_int_eq(syscall(SYS_ioctl, fds[i], PIDFD_DEV_GET_INFO,
					 &info), 0);
		ck_assert_int_eq(info.pid, getpid());
		/*
		 * Too small a struct: the answer of whoever serves the
		 * call, the kernel on its pidfd where it has the ioctl,
		 * else the module (on a pidfd of its own, asked directly).
		 */
		server = (kernel & K_INFO) && is_kernel_pidfd(fds[i]) ?
			 fds[i] : ck_assert_ok(pt_open(getpid(), 0));
		same("GET_INFO, 32 bytes", CALL(ioctl(fds[i], small, &info)),
		     CALL(raw_ioctl(server, small, &info)));
		if (server != fds[i])
			close(server);
	}
	/* This program's own ioctl() came first each time. */
	ck_assert_uint_ge(own_ioctls - before, 2);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/*
 * A grandchild's pidfd, opened while it lives; its parent reaps it:
 * PIDFD_INFO_EXIT still reports its status, as on 6.15+.
 */
START_TEST(exit_status_of_a_non_child)
{
	bool want = (kernel & K_EXIT) || opens_module_pidfds();
	struct pidfd_dev_info info;
	struct pt_non_child nc;
	struct res r;
	int fd;

	ck_assert_int_gt(pt_fork_non_child(&nc, 7, 0), 0);
	fd = ck_assert_ok(pidfd_open(nc.pid, 0));
	pt_non_child_go(&nc);
	ck_assert_int_eq(pt_non_child_end(&nc), 0);
	ck_assert_int_gt(pt_poll1(fd, POLLIN, 10000), 0);

	r = get_info(fd, &info, PIDFD_INFO_EXIT);
	if (want) {
		ck_assert_msg(r.ret == 0, "GET_INFO: %s", pt_errname(r.err));
		ck_assert(info.mask & PIDFD_INFO_EXIT);
		ck_assert_int_eq(info.exit_code, 7 << 8);
	} else {
		struct pidfd_dev_info raw_info = { .mask = PIDFD_INFO_EXIT };

		ck_assert(r.ret < 0);
		same("GET_INFO, reaped", r,
		     CALL(raw_ioctl(fd, PIDFD_DEV_GET_INFO, &raw_info)));
	}
	close(fd);
}
END_TEST

/*
 * A child born with the kernel's pidfd @fd: close-on-exec, of the module's
 * kind where pidfd_open() would make one, and reporting its exit (status
 * 5) after our reap where the kernel or the module keeps it.
 */
static void child_pidfd_reports_exit(int fd, pid_t pid)
{
	bool want = (kernel & K_EXIT) || opens_module_pidfds();
	struct pidfd_dev_info info;
	struct res r;
	int status;

	ck_assert_int_gt(pid, 0);
	ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	ck_assert_int_eq(is_module_pidfd(fd), opens_module_pidfds());
	ck_assert_int_eq(pt_pidfd_pid(fd), pid);
	ck_assert_int_eq(pt_waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	r = get_info(fd, &info, PIDFD_INFO_EXIT);
	if (want) {
		ck_assert_msg(r.ret == 0, "GET_INFO: %s", pt_errname(r.err));
		ck_assert(info.mask & PIDFD_INFO_EXIT);
		ck_assert_int_eq(info.exit_code, 5 << 8);
	} else {
		ck_assert(r.ret < 0);
		same("GET_INFO, reaped", r,
		     CALL(raw_ioctl(fd, PIDFD_DEV_GET_INFO, &info)));
	}
	close(fd);
}

/*
 * A child made by clone3(CLONE_PIDFD) through syscall(), as upstream's
 * selftests make theirs: its pidfd reports its exit after we reaped it,
 * as a pidfd_open() one does.
 */
START_TEST(clone3_pidfd)
{
	struct {
		__u64 flags, pidfd, child_tid, parent_tid, exit_signal;
		__u64 stack, stack_size, tls;
	} args;
	int fd = -1;
	long pid;

	memset(&args, 0, sizeof(args));
	args.flags = CLONE_PIDFD;
	args.pidfd = (__u64)(uintptr_t)&fd;
	args.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3_, &args, sizeof(args));
	if (pid == 0)
		_exit(5);
	child_pidfd_reports_exit(fd, (pid_t)pid);
}
END_TEST

static int exit_5(void *arg __attribute__((unused)))
{
	_exit(5);
}

/* glibc's clone() with CLONE_PIDFD: the pidfd in its parent_tid. */
START_TEST(clone_pidfd)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int fd = -1;
	pid_t pid;

	pid = clone(exit_5, stack + sizeof(stack), CLONE_PIDFD | SIGCHLD, NULL,
		    &fd);
	child_pidfd_reports_exit(fd, pid);
}
END_TEST

/*
 * A function of glibc 2.39 the C library lacks: a counted SKIP, except in
 * the build that runs on trixie's glibc (check_interpose_trixie_libc),
 * which must have it.
 */
static void libc_lacks(const char *test, const char *function)
{
#ifdef PT_LIBC_TRIXIE
	ck_abort_msg("trixie's C library has no %s: not glibc 2.41's?",
		     function);
#endif
	printf("SKIP %s: glibc %s has no %s, which came in 2.39\n", test,
	       gnu_get_libc_version(), function);
}

/*
 * glibc's pidfd_spawn() (2.39): the interposer's, which says ENOSYS where
 * the C library has none; where it has one, the child's pidfd as above.
 */
START_TEST(pidfd_spawn_child)
{
	typedef int spawn_fn(int *, const char *, const void *, const void *,
			     char *const[], char *const[]);
	spawn_fn *ours = (spawn_fn *)dlsym(RTLD_DEFAULT, "pidfd_spawn");
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	char *argv[] = { "sh", "-c", "exit 5", NULL };
	int fd = -1;

	ck_assert_ptr_nonnull(libc);
	ck_assert_ptr_nonnull(ours);
	ck_assert_ptr_ne(ours, dlsym(libc, "pidfd_spawn"));
	if (!dlsym(libc, "pidfd_spawn")) {
		ck_assert_int_eq(ours(&fd, "/bin/sh", NULL, NULL, argv, environ),
				 ENOSYS);
		libc_lacks("pidfd_spawn_child", "pidfd_spawn (the interposer's said ENOSYS)");
	} else {
		ck_assert_int_eq(ours(&fd, "/bin/sh", NULL, NULL, argv, environ),
				 0);
		child_pidfd_reports_exit(fd, pt_pidfd_pid(fd));
	}
	dlclose(libc);
}
END_TEST

/*
 * glibc's pidfd_getpid() (2.39) is not interposed: it reads fdinfo's
 * "Pid:", which the module's pidfds have as the kernel's do, -1 (ESRCH)
 * once the process is reaped.
 */
START_TEST(libc_pidfd_getpid)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	pid_t (*libc_getpid)(int);
	pid_t child;
	int fds[2];

	ck_assert_ptr_nonnull(libc);
	libc_getpid = (pid_t (*)(int))dlsym(libc, "pidfd_getpid");
	dlclose(libc);
	if (!libc_getpid) {
		libc_lacks("libc_pidfd_getpid", "pidfd_getpid");
		return;
	}
	child = pt_fork_sleeper();
	fds[0] = ck_assert_ok(pidfd_open(child, 0));
	fds[1] = ck_assert_ok(raw_open(child, 0));
	ck_assert_int_eq(is_module_pidfd(fds[0]), opens_module_pidfds());
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(libc_getpid(fds[i]), child);
	pt_kill_reap(child);
	for (int i = 0; i < 2; i++) {
		errno = 0;
		ck_assert_int_eq(libc_getpid(fds[i]), -1);
		ck_assert_int_eq(errno, ESRCH);
		close(fds[i]);
	}
}
END_TEST

START_TEST(namespaces)
{
	bool want = (kernel & K_NS) || module_serves();
	int fds[2] = { ck_assert_ok(pidfd_open(getpid(), 0)),
		       ck_assert_ok(raw_open(getpid(), 0)) };
	struct stat want_st, st;
	struct res r;

	ck_assert_int_eq(stat("/proc/self/ns/uts", &want_st), 0);
	for (int i = 0; i < 2; i++) {
		r = CALL(ioctl(fds[i], PIDFD_GET_UTS_NAMESPACE, 0));
		expect("PIDFD_GET_UTS_NAMESPACE", r, want, ENOTTY);
		if (!want) {
			same("PIDFD_GET_UTS_NAMESPACE", r,
			     CALL(raw_ioctl(fds[i], PIDFD_GET_UTS_NAMESPACE, 0)));
			continue;
		}
		ck_assert_int_eq(fstat((int)r.ret, &st), 0);
		ck_assert_uint_eq(st.st_ino, want_st.st_ino);
		ck_assert(fcntl((int)r.ret, F_GETFD) & FD_CLOEXEC);
		close((int)r.ret);
	}
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* ---- SO_PEERPIDFD ------------------------------------------------------ */

/*
 * What getsockopt(SO_PEERPIDFD) on @sock must give: the kernel's option,
 * else the module's (the module asked directly), else ENOPROTOOPT.
 */
static void want_peer(int sock, bool *ok, int *err)
{
	int m;

	*ok = kernel & K_PEER;
	*err = ENOPROTOOPT;
	if (*ok || !module_serves())
		return;
	m = pt_open_peer(sock, 0);
	*ok = m >= 0;
	if (m >= 0)
		close(m);
	else if (errno != EACCES)
		*err = errno;
	else
		note_policy("SO_PEERPIDFD: ENOPROTOOPT");
}

START_TEST(peer_socketpair)
{
	socklen_t len = sizeof(int);
	int sv[2], fd = -1, err;
	struct res r;
	bool ok;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	want_peer(sv[0], &ok, &err);
	r = CALL(getsockopt(sv[0], SOL_SOCKET, SO_PEERPIDFD_, &fd, &len));
	expect("SO_PEERPIDFD", r, ok, err);
	if (ok) {
		ck_assert_int_eq(len, sizeof(int));
		ck_assert_int_eq(pt_pidfd_pid(fd), getpid());
		ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		ck_assert_int_eq(is_module_pidfd(fd), !(kernel & K_PEER));
		close(fd);
		/* As 6.5's: at most *optlen bytes, EFAULT for a bad buffer. */
		fd = 0x55555555;
		len = 2;
		ck_assert_int_eq(getsockopt(sv[0], SOL_SOCKET, SO_PEERPIDFD_,
					    &fd, &len), 0);
		ck_assert_int_eq(len, 2);
		ck_assert_int_eq(fd & ~0xffff, 0x55550000);
		close(fd & 0xffff);
		len = sizeof(int);
		ck_assert_errno(getsockopt(sv[0], SOL_SOCKET, SO_PEERPIDFD_,
					   pt_bad_ptr(), &len), EFAULT);
	} else if (!module) {
		same("SO_PEERPIDFD", r,
		     CALL(raw_syscall(SYS_getsockopt, sv[0], SOL_SOCKET,
				      SO_PEERPIDFD_, &fd, &len)));
	}
	close(sv[0]);
	close(sv[1]);
}
END_TEST

static struct sockaddr_un peer_addr;

static int connect_peer(void *arg)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	(void)arg;
	return s < 0 || connect(s, (struct sockaddr *)&peer_addr,
				sizeof(peer_addr)) < 0;
}

START_TEST(peer_connect_accept)
{
	socklen_t len = sizeof(int);
	int l, conn, fd = -1, err, status;
	pid_t child;
	struct res r;
	bool ok;

	memset(&peer_addr, 0, sizeof(peer_addr));
	peer_addr.sun_family = AF_UNIX;
	snprintf(peer_addr.sun_path + 1, sizeof(peer_addr.sun_path) - 1,
		 "pidfd-interpose-%d", getpid());
	l = ck_assert_ok(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	ck_assert_int_eq(bind(l, (struct sockaddr *)&peer_addr,
			      sizeof(peer_addr)), 0);
	ck_assert_int_eq(listen(l, 1), 0);
	child = pt_fork_prepared(connect_peer, NULL);
	ck_assert_int_gt(child, 0);
	conn = ck_assert_ok(accept4(l, NULL, NULL, SOCK_CLOEXEC));

	want_peer(conn, &ok, &err);
	r = CALL(getsockopt(conn, SOL_SOCKET, SO_PEERPIDFD_, &fd, &len));
	expect("SO_PEERPIDFD after accept()", r, ok, err);
	if (ok) {
		/* It names the peer, and every pidfd call takes it. */
		ck_assert_int_eq(pt_pidfd_pid(fd), child);
		ck_assert_int_eq(pidfd_send_signal(fd, SIGTERM, NULL, 0), 0);
		status = pt_reap_status(child);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
		close(fd);
	} else {
		pt_kill_reap(child);
	}
	close(conn);
	close(l);
}
END_TEST

/* ---- pidfd_getfd, process_madvise, process_mrelease, setns ------------ */

START_TEST(kernel_only_calls)
{
	int fd = ck_assert_ok(pidfd_open(getpid(), 0));
	int kfd = ck_assert_ok(raw_open(getpid(), 0));
	struct iovec iov;
	int p[2], g;
	char c = 0;

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	g = ck_assert_ok(syscall(SYS_pidfd_getfd, fd, p[1], 0));
	ck_assert_int_eq(write(g, "x", 1), 1);
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	ck_assert_int_eq(c, 'x');
	close(g);
	/* Errors as the kernel's, on either kind. */
	same("pidfd_getfd(pidfd, 9999)",
	     CALL(syscall(SYS_pidfd_getfd, fd, 9999, 0)),
	     CALL(raw_syscall(SYS_pidfd_getfd, kfd, 9999, 0)));
	same("pidfd_getfd(flags 1)", CALL(syscall(SYS_pidfd_getfd, fd, p[1], 1)),
	     CALL(raw_syscall(SYS_pidfd_getfd, kfd, p[1], 1)));
	same("pidfd_getfd(pipe)", CALL(syscall(SYS_pidfd_getfd, p[0], p[1], 0)),
	     CALL(raw_syscall(SYS_pidfd_getfd, p[0], p[1], 0)));

	/* process_madvise() (5.10), process_mrelease() (5.15) alike. */
	iov.iov_base = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	iov.iov_len = 4096;
	ck_assert(iov.iov_base != MAP_FAILED);
	same("process_madvise(MADV_COLD)",
	     CALL(syscall(SYS_process_madvise_, fd, &iov, 1, MADV_COLD_, 0)),
	     CALL(raw_syscall(SYS_process_madvise_, kfd, &iov, 1, MADV_COLD_, 0)));
	same("process_mrelease(alive)",
	     CALL(syscall(SYS_process_mrelease_, fd, 0)),
	     CALL(raw_syscall(SYS_process_mrelease_, kfd, 0)));
	munmap(iov.iov_base, 4096);
	close(p[0]);
	close(p[1]);
	close(fd);
	close(kfd);
}
END_TEST

static int setns_own(void *arg)
{
	int fd = pidfd_open(getpid(), 0);

	(void)arg;
	PT_CHECK(fd >= 0, "pidfd_open: %s", pt_errname(errno));
	PT_CHECK(setns(fd, CLONE_NEWUTS) == 0, "setns: %s", pt_errname(errno));
	PT_CHECK(syscall(SYS_setns, fd, CLONE_NEWUTS) == 0,
		 "syscall(SYS_setns): %s", pt_errname(errno));
	return 0;
}

START_TEST(setns_through_pidfd)
{
	char msg[256] = "";

	ck_assert_msg(pt_run(setns_own, NULL, msg, sizeof(msg)) == 0, "%s", msg);
}
END_TEST

/* ---- errors: the kernel's, for the same arguments ---------------------- */

START_TEST(errors_as_the_kernel)
{
	int fd = ck_assert_ok(pidfd_open(getpid(), 0));
	int kfd = ck_assert_ok(raw_open(getpid(), 0));
	struct pidfd_dev_info info;
	socklen_t len = sizeof(int);
	int p[2], closed, v;
	siginfo_t si;

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	closed = dup(p[0]);
	close(closed);

	same("pidfd_open(-1)", CALL(pidfd_open(-1, 0)), CALL(raw_open(-1, 0)));
	same("pidfd_open(flag 1)", CALL(pidfd_open(getpid(), 1)),
	     CALL(raw_open(getpid(), 1)));
	/* No kernel's pidfd_open() takes PIDFD_AUTOKILL: nor do we. */
	ck_assert_errno(pidfd_open(getpid(), PIDFD_AUTOKILL), EINVAL);
	ck_assert_errno(pidfd_open(getpid(), PIDFD_THREAD | 1), EINVAL);
	same("pidfd_open(no such pid)", CALL(pidfd_open(0x3fffffff, 0)),
	     CALL(raw_open(0x3fffffff, 0)));

	same("send_signal(-1)", CALL(pidfd_send_signal(-1, 0, NULL, 0)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, -1, 0, NULL, 0)));
	same("send_signal(pipe)", CALL(pidfd_send_signal(p[0], 0, NULL, 0)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, p[0], 0, NULL, 0)));
	same("send_signal(closed)", CALL(pidfd_send_signal(closed, 0, NULL, 0)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, closed, 0, NULL, 0)));
	same("send_signal(flag 1 << 5)",
	     CALL(pidfd_send_signal(fd, 0, NULL, 1U << 5)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, kfd, 0, NULL, 1U << 5)));
	same("send_signal(two scopes)",
	     CALL(pidfd_send_signal(fd, 0, NULL, PIDFD_SIGNAL_THREAD |
				    PIDFD_SIGNAL_PROCESS_GROUP)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, kfd, 0, NULL,
			      PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_PROCESS_GROUP)));
	same("send_signal(sig -1)", CALL(pidfd_send_signal(fd, -1, NULL, 0)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, kfd, -1, NULL, 0)));
	same("send_signal(sig 65)", CALL(pidfd_send_signal(fd, 65, NULL, 0)),
	     CALL(raw_syscall(SYS_pidfd_send_signal, kfd, 65, NULL, 0)));

	same("waitid(P_PIDFD, pipe)", CALL(waitid(PT_P_PIDFD, p[0], &si, WEXITED)),
	     CALL(raw_syscall(SYS_waitid, PT_P_PIDFD, p[0], &si, WEXITED, NULL)));
	same("waitid(P_PIDFD, self)",
	     CALL(waitid(PT_P_PIDFD, fd, &si, WEXITED | WNOHANG)),
	     CALL(raw_syscall(SYS_waitid, PT_P_PIDFD, kfd, &si,
			      WEXITED | WNOHANG, NULL)));

	same("GET_INFO(pipe)", CALL(ioctl(p[0], PIDFD_DEV_GET_INFO, &info)),
	     CALL(raw_ioctl(p[0], PIDFD_DEV_GET_INFO, &info)));
	same("GET_INFO(-1)", CALL(ioctl(-1, PIDFD_DEV_GET_INFO, &info)),
	     CALL(raw_ioctl(-1, PIDFD_DEV_GET_INFO, &info)));
	same("UTS_NAMESPACE(pipe)", CALL(ioctl(p[0], PIDFD_GET_UTS_NAMESPACE, 0)),
	     CALL(raw_ioctl(p[0], PIDFD_GET_UTS_NAMESPACE, 0)));
	same("SO_PEERPIDFD(pipe)",
	     CALL(getsockopt(p[0], SOL_SOCKET, SO_PEERPIDFD_, &v, &len)),
	     CALL(raw_syscall(SYS_getsockopt, p[0], SOL_SOCKET, SO_PEERPIDFD_,
			      &v, &len)));
	same("SO_PEERPIDFD(-1)",
	     CALL(getsockopt(-1, SOL_SOCKET, SO_PEERPIDFD_, &v, &len)),
	     CALL(raw_syscall(SYS_getsockopt, -1, SOL_SOCKET, SO_PEERPIDFD_,
			      &v, &len)));
	close(p[0]);
	close(p[1]);
	close(fd);
	close(kfd);
}
END_TEST

/* ---- what is not about pidfds passes unchanged ------------------------- */

START_TEST(passthrough)
{
	struct termios t;
	int p[2], n = -1, sv[2], type = 0;
	socklen_t len = sizeof(type);

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	ck_assert_int_eq(write(p[1], "abc", 3), 3);
	ck_assert_int_eq(ioctl(p[0], FIONREAD, &n), 0);
	ck_assert_int_eq(n, 3);
	same("TCGETS(pipe)", CALL(ioctl(p[0], TCGETS, &t)),
	     CALL(raw_ioctl(p[0], TCGETS, &t)));
	same("TCGETS(-1)", CALL(ioctl(-1, TCGETS, &t)),
	     CALL(raw_ioctl(-1, TCGETS, &t)));
	ck_assert_int_eq(syscall(SYS_getpid), getpid());
	ck_assert_int_eq(syscall(SYS_gettid), pt_gettid());
	ck_assert_errno(syscall(-1), ENOSYS);
	/* An unknown number that shares its low byte with one we look at. */
	ck_assert_errno(syscall(SYS_ioctl | 0x10000), ENOSYS);
#if SYS_getpeername % 256 == SYS_setns % 256
	/* x86-64: a real call that does, passed on after a look. */
	ck_assert_errno(syscall(SYS_getpeername, -1, NULL, NULL), EBADF);
#endif
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	ck_assert_int_eq(getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &type, &len), 0);
	ck_assert_int_eq(type, SOCK_STREAM);
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
}
END_TEST

/*
 * syscall()'s sixth argument, on the stack on x86-64, reaches the kernel:
 * the third of three pages, each marked, mapped by its offset.
 */
START_TEST(passthrough_sixth_argument)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = memfd_create("sixth", MFD_CLOEXEC);
	char *map;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 3 * page), 0);
	ck_assert_int_eq(pwrite(fd, "first", 5, 0), 5);
	ck_assert_int_eq(pwrite(fd, "second", 6, page), 6);
	ck_assert_int_eq(pwrite(fd, "third", 5, 2 * page), 5);
	map = (char *)syscall(SYS_mmap, NULL, page, PROT_READ, MAP_SHARED, fd,
			      2 * page);
	ck_assert_msg(map != MAP_FAILED, "mmap: %s", pt_errname(errno));
	ck_assert_mem_eq(map, "third", 5);
	ck_assert_int_eq(munmap(map, page), 0);
	close(fd);
}
END_TEST

/* ---- fork, exec, signal handlers, threads ------------------------------ */

static const char *pidfdctl_path(void)
{
	return getenv("PIDFDCTL") ?: "/bin/pidfdctl";
}

/*
 * Runs @path with @argv, without the interposer unless @interposed, its
 * stdout read back into @out; it must exit 0.
 */
static void run_output(const char *path, char *const argv[], bool interposed,
		       char *out, size_t len)
{
	struct pt_sync pipe_;
	ssize_t n, used = 0;
	pid_t pid;

	pt_sync_init(&pipe_);
	pid = pt_fork();
	if (pid == 0) {
		dup2(pipe_.fd[1], STDOUT_FILENO);
		if (!interposed)
			unsetenv("LD_PRELOAD");
		execv(path, argv);
		_exit(127);
	}
	close(pipe_.fd[1]);
	pipe_.fd[1] = -1;
	while ((n = read(pipe_.fd[0], out + used, len - 1 - (size_t)used)) > 0)
		used += n;
	out[used] = '\0';
	ck_assert_int_eq(pt_reap_status(pid), 0);
	pt_sync_close(&pipe_);
}

/* Runs this program again as "--child MODE ARG", its stdout read back. */
static void run_child(const char *mode, const char *arg, char *out, size_t len)
{
	char *argv[] = { "check_interpose", "--child", (char *)mode,
			 (char *)arg, NULL };

	run_output("/proc/self/exe", argv, true, out, len);
}

/* The calls a child makes, as "open info" outcomes (errno, 0 for none). */
static void open_and_info(int *open_err, int *info_err)
{
	struct pidfd_dev_info info;
	int fd = pidfd_open(getpid(), 0);

	*open_err = fd < 0 ? errno : 0;
	*info_err = fd < 0 ? -1 : (get_info(fd, &info, PIDFD_INFO_PID).err);
	if (fd >= 0)
		close(fd);
}

START_TEST(fork_exec)
{
	int open_err, info_err, c_devfds = -1, c_open = -1, c_info = -1;
	char out[256];
	pid_t pid;
	int status;

	/* Our own use first: the control fd is open from here on. */
	open_and_info(&open_err, &info_err);
	ck_assert_int_eq(open_err, 0);

	/* A forked child keeps working. */
	pid = pt_fork();
	if (pid == 0) {
		int o, i;

		open_and_info(&o, &i);
		_exit(o == open_err && i == info_err ? 0 : 1);
	}
	status = pt_reap_status(pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "forked child: status %#x", status);

	/* An exec'd one has the interposer and not our control fd. */
	run_child("fork-exec", "", out, sizeof(out));
	ck_assert_msg(sscanf(out, "%d %d %d", &c_devfds, &c_open, &c_info) == 3,
		      "child said '%s'", out);
	ck_assert_int_eq(c_devfds, 0);
	ck_assert_int_eq(c_open, open_err);
	ck_assert_int_eq(c_info, info_err);
}
END_TEST

static volatile sig_atomic_t handler_runs, handler_failures;
static volatile sig_atomic_t want_info_err;

/* Interposed calls from a signal handler: no lock, no allocation. */
static void use_pidfds(int sig)
{
	int saved = errno, open_err, info_err;

	(void)sig;
	open_and_info(&open_err, &info_err);
	if (open_err || info_err != want_info_err)
		handler_failures++;
	handler_runs++;
	errno = saved;
}

START_TEST(signal_handler)
{
	struct sigaction sa = { .sa_handler = use_pidfds };
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	int64_t end = pt_now_ms() + 1500;
	int open_err, info_err, failures = 0;

	want_info_err = get_info_err();
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	/* The same calls here, interrupted by the handler's. */
	while (pt_now_ms() < end) {
		open_and_info(&open_err, &info_err);
		if (open_err || info_err != want_info_err)
			failures++;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	ck_assert_int_gt(handler_runs, 0);
	ck_assert_int_eq(handler_failures, 0);
	ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(threads_first_use)
{
	char out[256], want[16];
	int fails = -1, devfds = -1;

	/* In a fresh process: the probes and the control fd raced for. */
	snprintf(want, sizeof(want), "%d", get_info_err());
	run_child("threads", want, out, sizeof(out));
	ck_assert_msg(sscanf(out, "%d %d", &fails, &devfds) == 2,
		      "child said '%s'", out);
	ck_assert_int_eq(fails, 0);
	ck_assert_int_le(devfds, 1);
}
END_TEST

/*
 * What "pidfdctl exec" says before a program that will run without the
 * interposer, and that it does: a static one (busybox), and copies of
 * this program set-user-ID or set-group-ID to nobody, which the loader
 * runs in secure mode (LD_PRELOAD gone); a plain copy has it, unsaid.
 */
START_TEST(said_when_not_preloaded)
{
	static const struct {
		const char *mode, *said;
	} copies[] = {
		{ "chown 65534:65534 \"$1\" && chmod 4755 \"$1\"", "is set-user-ID" },
		{ "chown 0:65534 \"$1\" && chmod 2755 \"$1\"", "is set-group-ID" },
		{ "chmod 755 \"$1\"", NULL },
	};
	char dir[64], self[4096], prog[128] = "", cmd[256], out[4096];
	char *sh[] = { "sh", "-c", cmd, "sh", prog, self,
		       (char *)pidfdctl_path(), NULL };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	snprintf(cmd, sizeof(cmd), "\"$3\" exec -- /bin/busybox true 2>&1");
	run_output("/bin/sh", sh, true, out, sizeof(out));
	ck_assert_msg(strstr(out, "/bin/busybox is statically linked"), "%s", out);
	ck_assert_int_eq(pt_tmpdir(dir, sizeof(dir)), 0);
	snprintf(prog, sizeof(prog), "%s/copy", dir);
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "cp \"$2\" \"$1\" && %s && \"$3\" exec -- \"$1\" --child env 2>&1",
			 copies[i].mode);
		run_output("/bin/sh", sh, true, out, sizeof(out));
		if (copies[i].said) {
			ck_assert_msg(strstr(out, copies[i].said), "%s", out);
			ck_assert_msg(strstr(out, "runs without the interposer\nLD_PRELOAD=(unset)\n"),
				      "%s", out);
		} else {
			ck_assert_msg(!strstr(out, "without the interposer"), "%s", out);
			ck_assert_msg(strstr(out, "libpidfd-preload.so"), "%s", out);
		}
		ck_assert_int_eq(unlink(prog), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ---- a real program: Debian's python3 ---------------------------------- */

#define PYTHON		"/usr/bin/python3"
#define PY_SCRIPT	"/lib/pidfd-test/interpose.py"

/* tests/guest/interpose.py's output, with the interposer or without. */
static void run_python(bool interposed, char *out, size_t len)
{
	char *argv[] = { "python3", "-S", PY_SCRIPT, NULL };

	/* Its prefix said: the guest has no lib-dynload to find. */
	setenv("PYTHONHOME", "/usr", 1);
	run_output(PYTHON, argv, interposed, out, len);
	printf("[python%s]\n%s", interposed ? ", interposed" : "", out);
	fflush(stdout);
}

/* @out has a line that starts with @start. */
static bool has_line(const char *out, const char *start)
{
	size_t n = strlen(start);

	for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, start, n))
			return true;
	return false;
}

/* Asserts the line "NAME ok WANT" (@ok) or "NAME errno N" in @out. */
static void python_says(const char *out, const char *name, bool ok,
			const char *want)
{
	char line[128];

	snprintf(line, sizeof(line), ok ? "%s ok %s\n" : "%s errno ", name, want);
	ck_assert_msg(has_line(out, line), "python: want '%s' in:\n%s", line, out);
}

START_TEST(python_unmodified)
{
	bool thread = (kernel & K_THREAD) ||
		      (module_serves() && !pt_policy_refuses_approx());
	bool exit_kept = (kernel & K_EXIT) || opens_module_pidfds();
	char bare[1024], pre[1024];
	bool peer_ok;
	int sv[2], err;

	if (access(PYTHON, X_OK) < 0 || access(PY_SCRIPT, R_OK) < 0)
		PT_SKIP("no %s or %s in this guest (vm/check adds the host's)",
			PYTHON, PY_SCRIPT);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	want_peer(sv[0], &peer_ok, &err);
	close(sv[0]);
	close(sv[1]);

	/* Without the interposer: the kernel's own answers. */
	run_python(false, bare, sizeof(bare));
	python_says(bare, "thread_open", kernel & K_THREAD, "True");
	python_says(bare, "exit_status", kernel & K_EXIT, "1792");
	python_says(bare, "waitid", true, "3");
	python_says(bare, "signal", true, "15");
	python_says(bare, "peer", kernel & K_PEER, "True");

	/* The same program under it: the newest kernel's where it can. */
	run_python(true, pre, sizeof(pre));
	python_says(pre, "thread_open", thread, "True");
	python_says(pre, "exit_status", exit_kept, "1792");
	python_says(pre, "waitid", true, "3");
	python_says(pre, "signal", true, "15");
	python_says(pre, "peer", peer_ok, "True");
}
END_TEST

/* ---- the child modes --------------------------------------------------- */

#define RACERS 8

static pthread_barrier_t start;
static int want_err, race_failures;

static void *race(void *arg)
{
	int open_err, info_err;

	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < 50; i++) {
		open_and_info(&open_err, &info_err);
		if (open_err || info_err != want_err)
			__atomic_add_fetch(&race_failures, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static int child_main(const char *mode, const char *arg)
{
	int open_err, info_err, devfds = device_fds();

	if (!strcmp(mode, "fork-exec")) {
		open_and_info(&open_err, &info_err);
		printf("%d %d %d\n", devfds, open_err, info_err);
		return 0;
	}
	if (!strcmp(mode, "env")) {
		printf("LD_PRELOAD=%s\n", getenv("LD_PRELOAD") ?: "(unset)");
		return 0;
	}
	if (!strcmp(mode, "threads")) {
		pthread_t t[RACERS];

		want_err = atoi(arg);
		pthread_barrier_init(&start, NULL, RACERS);
		for (int i = 0; i < RACERS; i++)
			pthread_create(&t[i], NULL, race, NULL);
		for (int i = 0; i < RACERS; i++)
			pthread_join(t[i], NULL);
		printf("%d %d\n", race_failures, device_fds());
		return 0;
	}
	return 2;
}

/* ---- main -------------------------------------------------------------- */

static bool kernel_says_exit(void)
{
	struct pidfd_dev_info info;
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	bool says;

	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_SUPPORTED_MASK;
	says = fd >= 0 && ioctl(fd, PIDFD_DEV_GET_INFO, &info) == 0 &&
	       (info.mask & PIDFD_INFO_SUPPORTED_MASK) &&
	       (info.supported_mask & PIDFD_INFO_EXIT);
	if (fd >= 0)
		close(fd);
	return says;
}

/* Probe the kernel as it is, then run again under "pidfdctl exec". */
static int reexec(void)
{
	const char *pidfdctl = pidfdctl_path();
	char self[4096], bits[16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	unsigned int k;

	if (n <= 0) {
		perror("check_interpose: /proc/self/exe");
		return 1;
	}
	self[n] = '\0';
	k = (pt_kernel_has_pidfd_thread() ? K_THREAD : 0) |
	    (pt_kernel_has_signal_scope() ? K_SCOPE : 0) |
	    (pt_kernel_has_ns_ioctls() ? K_NS : 0) |
	    (pt_kernel_has_get_info() ? K_INFO : 0) |
	    (pt_kernel_has_info_exit() ? K_EXIT : 0) |
	    (kernel_says_exit() ? K_EXIT_SAID : 0) |
	    (pt_kernel_has_peerpidfd() ? K_PEER : 0);
	snprintf(bits, sizeof(bits), "%u", k);
	setenv(KERNEL_ENV, bits, 1);
	fflush(stdout);
	execl(pidfdctl, "pidfdctl", "exec", "--", self, (char *)NULL);
	fprintf(stderr, "check_interpose: %s: %s\n", pidfdctl, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	void *libc;
	Suite *s;

	if (argc >= 3 && !strcmp(argv[1], "--child"))
		return child_main(argv[2], argc > 3 ? argv[3] : "");
	if (!getenv(KERNEL_ENV))
		return reexec();
	kernel = (unsigned int)strtoul(getenv(KERNEL_ENV), NULL, 10);
	module = access(PT_DEV_PATH, F_OK) == 0;
	libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	raw_syscall = libc ? (long (*)(long, ...))dlsym(libc, "syscall") : NULL;
	if (!raw_syscall) {
		fprintf(stderr, "check_interpose: no libc syscall(): %s\n",
			dlerror());
		return 1;
	}
	printf("interpose: glibc %s, kernel features %#x, module %s%s\n",
	       gnu_get_libc_version(), kernel,
	       module ? "loaded, " : "not loaded",
	       module ? pt_policy_describe() : "");
	fflush(stdout);

	s = suite_create("interpose");
	pt_add_tests(pt_tcase(s, "interpose"),
		     interposer_active, open_process, fstat_identity,
		     open_thread_and_signal_it, signal_scopes, signal_child,
		     waitid_and_poll, get_info_ioctl, exit_status_of_a_non_child,
		     clone3_pidfd, clone_pidfd, pidfd_spawn_child,
		     libc_pidfd_getpid, namespaces,
		     peer_socketpair,
		     peer_connect_accept, kernel_only_calls, setns_through_pidfd,
		     errors_as_the_kernel, passthrough,
		     passthrough_sixth_argument, fork_exec, signal_handler, threads_first_use, said_when_not_preloaded,
		     python_unmodified);
	return pt_main(s);
}
