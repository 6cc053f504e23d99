// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libpidfd on the kernel's own pidfd calls, without the module: run by
 * vm/run before the module is loaded, on every kernel of the matrix (and
 * alone on kernels whose headers Debian no longer serves).
 *
 * - Every row of the route table (lib/libpidfd_routes.h, docs/libpidfd.md)
 *   works from its kernel version on and gives ENOPKG before it.
 * - The feature probes find what the running kernel has, by its version.
 * - A probe costs the program nothing it can notice: no SIGCHLD, no child
 *   for waitpid(-1), no fd left open; a probe that seccomp refuses means
 *   "not there".
 * - libpidfd gives the kernel's own answer (value and errno) for the same
 *   arguments, valid or not.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

#include "pidfd_test.h"
#include "libpidfd_routes.h"
#include "../../userspace/lib/internal.h"

/* The suite means nothing with the module there. */
START_TEST(module_is_not_loaded)
{
	ck_assert_int_eq(access(PT_DEV_PATH, F_OK), -1);
	ck_assert_errno(libpidfd_probe(), ENOPKG);
}
END_TEST

/* ---- the route table ---- */

enum route_id {
#define ROUTE_ENUM(id, call, major, minor, before, route) ROUTE_##id,
	LIBPIDFD_ROUTES(ROUTE_ENUM)
#undef ROUTE_ENUM
	ROUTE_COUNT
};

static const struct route_row {
	const char *call;
	int major, minor, before;
} route_rows[] = {
#define ROUTE_ROW(id, call, major, minor, before, route) \
	{ call, major, minor, before },
	LIBPIDFD_ROUTES(ROUTE_ROW)
#undef ROUTE_ROW
};

/* A thread that waits until the process ends; its TID. */
static pid_t start_thread(void)
{
	struct pt_sync sync;
	pthread_t t;
	pid_t tid;

	pt_sync_init(&sync);
	ck_assert_int_eq(pthread_create(&t, NULL, pt_idle_thread, &sync), 0);
	tid = pt_sync_get(&sync, 10000);
	pt_sync_close(&sync);
	ck_assert_int_gt(tid, 0);
	return tid;
}

/* A child that sleeps until killed, in *@child, and its pidfd. */
static int open_sleeper(pid_t *child)
{
	*child = pt_fork_sleeper();
	return ck_assert_ok(libpidfd_open(*child, 0));
}

/* The pidfd of a child that is already reaped (its exit code 7). */
static int reaped_child_pidfd(void)
{
	pid_t child;
	int fd = open_sleeper(&child);

	ck_assert_int_eq(kill(child, SIGTERM), 0);
	ck_assert_int_eq(pt_reap(child), 128 + SIGTERM);
	return fd;
}

/* A /proc/<pid> directory fd of @pid. */
static int open_procdir_of(pid_t pid)
{
	char name[32];
	int dir;

	snprintf(name, sizeof(name), "/proc/%d", pid);
	dir = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(dir, 0);
	return dir;
}

/*
 * Run row @id's call once, as a valid caller would, and check that it did
 * what it says: 0 if it worked, else the errno. @made is an fd the call
 * returned, @used one the call was given.
 */
static int run_route(enum route_id id)
{
	int made = -1, used = -1, ret = -1, err, status;
	struct pidfd_dev_info info;
	struct stat want, got;
	pid_t child = 0;
	siginfo_t si;

	switch (id) {
	case ROUTE_OPEN:
		ret = made = libpidfd_open(getpid(), PIDFD_NONBLOCK);
		if (made >= 0)
			ck_assert_int_eq(libpidfd_pidfd_backend(made),
					 LIBPIDFD_BACKEND_NATIVE);
		break;
	case ROUTE_OPEN_THREAD:
		ret = made = libpidfd_open(start_thread(), PIDFD_THREAD);
		break;
	case ROUTE_OPEN_AUTOKILL:
		child = pt_fork_sleeper();
		ret = made = libpidfd_open(child, PIDFD_AUTOKILL);
		break;
	case ROUTE_SIGNAL:
		ret = libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP, 0, NULL, 0);
		break;
	case ROUTE_SIGNAL_PROCDIR:
		child = pt_fork_sleeper();
		used = open_procdir_of(child);
		ret = libpidfd_send_signal(used, SIGKILL, NULL, 0);
		if (ret == 0) {
			ck_assert_int_eq(pt_reap(child), 128 + SIGKILL);
			child = 0;
		}
		break;
	case ROUTE_SIGNAL_SCOPE:
		ret = libpidfd_send_signal(PIDFD_SELF_THREAD, 0, NULL,
					   PIDFD_SIGNAL_THREAD);
		break;
	case ROUTE_WAITID:
		child = pt_fork_exit(5);
		used = ck_assert_ok(libpidfd_open(child, 0));
		memset(&si, 0, sizeof(si));
		ret = libpidfd_waitid(used, &si, WEXITED);
		if (ret == 0) {
			ck_assert_int_eq(si.si_pid, child);
			ck_assert_int_eq(si.si_status, 5);
			child = 0;
		}
		break;
	case ROUTE_WAIT_EXIT:
		child = pt_fork_exit(0);
		used = ck_assert_ok(libpidfd_open(child, 0));
		ret = libpidfd_wait_exit(used, 10000);
		break;
	case ROUTE_GETPID:
		used = ck_assert_ok(libpidfd_open(getpid(), 0));
		ret = libpidfd_getpid(used);
		if (ret >= 0)
			ck_assert_int_eq(ret, getpid());
		break;
	case ROUTE_GET_PROCFD:
		used = ck_assert_ok(libpidfd_open(getpid(), 0));
		ret = made = libpidfd_open_procdir(used);
		if (made >= 0) {
			ck_assert_int_eq(stat("/proc/self", &want), 0);
			ck_assert_int_eq(fstat(made, &got), 0);
			ck_assert(want.st_ino == got.st_ino &&
				  want.st_dev == got.st_dev);
		}
		break;
	case ROUTE_FROM_PROCDIR:
		used = open_procdir_of(getpid());
		ret = made = libpidfd_from_procdir(used, 0);
		if (made >= 0)
			ck_assert_int_eq(libpidfd_getpid(made), getpid());
		break;
	case ROUTE_NAMESPACE:
		ret = made = libpidfd_get_namespace(PIDFD_SELF_THREAD_GROUP,
						    PIDFD_GET_UTS_NAMESPACE);
		if (made >= 0) {
			ck_assert_int_eq(stat("/proc/self/ns/uts", &want), 0);
			ck_assert_int_eq(fstat(made, &got), 0);
			ck_assert(want.st_ino == got.st_ino);
		}
		break;
	case ROUTE_INFO:
		memset(&info, 0, sizeof(info));
		ret = libpidfd_get_info(PIDFD_SELF_THREAD_GROUP, &info,
					sizeof(info));
		if (ret == 0)
			ck_assert_int_eq(info.pid, getpid());
		break;
	case ROUTE_INFO_EXIT:
		used = reaped_child_pidfd();
		ret = libpidfd_exit_status(used, &status);
		if (ret == 0)
			ck_assert_int_eq(status, SIGTERM);
		break;
	case ROUTE_INFO_COREDUMP:
		memset(&info, 0, sizeof(info));
		info.mask = PIDFD_INFO_COREDUMP;
		ret = libpidfd_get_info(PIDFD_SELF_THREAD_GROUP, &info,
					sizeof(info));
		if (ret == 0)
			ck_assert(info.mask & PIDFD_INFO_COREDUMP);
		break;
	case ROUTE_PEER: {
		int sv[2];

		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		ret = made = libpidfd_peer_open(sv[0], 0);
		err = errno;
		if (made >= 0)
			ck_assert_int_eq(libpidfd_getpid(made), getpid());
		close(sv[0]);
		close(sv[1]);
		errno = err;
		break;
	}
	case ROUTE_TO_NATIVE:
		used = ck_assert_ok(libpidfd_open(getpid(), 0));
		ret = made = libpidfd_to_native(used);
		break;
	case ROUTE_TO_MODULE:
		used = ck_assert_ok(libpidfd_open(getpid(), 0));
		ret = made = libpidfd_to_module(used);
		break;
	case ROUTE_COUNT:
		break;
	}
	err = ret < 0 ? errno : 0;
	if (made >= 0)
		close(made);
	if (used >= 0)
		close(used);
	if (child > 0)
		pt_kill_reap(child);
	return err;
}

START_TEST(route_table_row)
{
	const struct route_row *row = &route_rows[_i];
	int err = run_route((enum route_id)_i);

	if (pt_kernel_at_least(row->major, row->minor))
		ck_assert_msg(err == 0, "%s: %s, want success from %d.%d on",
			      row->call, pt_errname(err), row->major,
			      row->minor);
	else
		ck_assert_msg(err == row->before, "%s: %s, want %s before %d.%d",
			      row->call, pt_errname(err),
			      pt_errname(row->before), row->major, row->minor);
}
END_TEST

/* ---- the probes ---- */

START_TEST(probes_match_the_kernel)
{
	unsigned int has = libpidfd_kernel_features();
	const struct libpidfd_native native = libpidfd_priv_native();
	__u64 mask = native.info_mask;

	ck_assert(has & LIBPIDFD_KERNEL_PIDFD_OPEN);
	ck_assert(has & LIBPIDFD_KERNEL_SEND_SIGNAL);
	ck_assert(has & LIBPIDFD_KERNEL_WAITID);
	ck_assert_int_eq(!!(has & LIBPIDFD_KERNEL_THREAD),
			 pt_kernel_at_least(6, 9));
	ck_assert_int_eq(!!(has & LIBPIDFD_KERNEL_SIGNAL_SCOPE),
			 pt_kernel_at_least(6, 9));
	ck_assert_int_eq(!!(has & LIBPIDFD_KERNEL_NAMESPACES),
			 pt_kernel_at_least(6, 11));
	ck_assert_int_eq(!!(has & LIBPIDFD_KERNEL_GET_INFO),
			 pt_kernel_at_least(6, 13));
	ck_assert_int_eq(!!(has & LIBPIDFD_KERNEL_EXIT_INFO),
			 pt_kernel_at_least(6, 15));
	/* The probed mask behind them, which the calls go by. */
	ck_assert_int_eq(!!(mask & PIDFD_INFO_PID), pt_kernel_at_least(6, 13));
	ck_assert_int_eq(!!(mask & PIDFD_INFO_EXIT), pt_kernel_at_least(6, 15));
	ck_assert_int_eq(!!(mask & PIDFD_INFO_COREDUMP), pt_kernel_at_least(6, 16));
	ck_assert_int_eq(!!(mask & PIDFD_INFO_SUPPORTED_MASK),
			 pt_kernel_at_least(6, 19));
}
END_TEST

static volatile sig_atomic_t sigchld_seen;

static void count_sigchld(int sig)
{
	(void)sig;
	sigchld_seen++;
}

static int open_fd_count(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

/* The first call probes the kernel: nothing of it may show. */
START_TEST(probe_is_invisible)
{
	struct sigaction sa = { .sa_handler = count_sigchld };
	int fds, pidfd;

	ck_assert_int_eq(sigaction(SIGCHLD, &sa, NULL), 0);
	fds = open_fd_count();
	pidfd = ck_assert_ok(libpidfd_open(getpid(), 0));
	close(pidfd);
	(void)libpidfd_kernel_features();
	usleep(100 * 1000);
	ck_assert_int_eq(sigchld_seen, 0);
	ck_assert_errno(waitpid(-1, NULL, WNOHANG), ECHILD);
	ck_assert_int_eq(open_fd_count(), fds);
}
END_TEST

/* A seccomp filter that makes pidfd_open(2) fail with errno _i. */
static const int refusals[] = { ENOSYS, EPERM, EACCES };

static int refuse_pidfd_open(int err)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | ((unsigned int)err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return pt_seccomp_filter(code, sizeof(code) / sizeof(code[0]), 0);
}

START_TEST(probe_refused_means_absent)
{
	int err = refusals[_i];

	ck_assert_int_eq(refuse_pidfd_open(err), 0);
	ck_assert(!(libpidfd_kernel_features() & LIBPIDFD_KERNEL_PIDFD_OPEN));
	/* Valid, and only the module could do it now. */
	ck_assert_errno(libpidfd_open(getpid(), 0), ENOPKG);
	/* Invalid whatever serves it. */
	ck_assert_errno(libpidfd_open(getpid(), 1), EINVAL);
	ck_assert_errno(libpidfd_open(0, 0), EINVAL);
}
END_TEST

/* ---- the kernel's own answers ---- */

struct open_case {
	const char *what;
	int pid;	/* 0: ours; -1: the thread's; else literal */
	unsigned int flags;
};

static const struct open_case open_cases[] = {
	{ "pid 0", INT_MIN + 1, 0 },
	{ "negative pid", -5, 0 },
	{ "unused pid", 4194303, 0 },
	{ "own pid", 0, 0 },
	{ "own pid, nonblock", 0, PIDFD_NONBLOCK },
	{ "unknown flag", 0, 1 },
	{ "all flags", 0, ~0U },
	{ "thread ID without PIDFD_THREAD", -1, 0 },
	{ "unknown flag on pid 0", INT_MIN + 1, 1 },
};

static pid_t case_pid(int pid)
{
	if (pid == 0)
		return getpid();
	if (pid == -1)
		return start_thread();
	return pid == INT_MIN + 1 ? 0 : pid;
}

START_TEST(open_as_kernel)
{
	const struct open_case *c = &open_cases[_i];
	pid_t pid = case_pid(c->pid);
	int kfd, kerr, lfd, lerr;

	errno = 0;
	kfd = (int)syscall(SYS_pidfd_open, pid, c->flags);
	kerr = errno;
	errno = 0;
	lfd = libpidfd_open(pid, c->flags);
	lerr = errno;
	ck_assert_msg((kfd >= 0) == (lfd >= 0) && (kfd >= 0 || kerr == lerr),
		      "%s: kernel %d/%s, libpidfd %d/%s", c->what, kfd,
		      pt_errname(kerr), lfd, pt_errname(lerr));
	if (lfd >= 0)
		ck_assert_int_eq(fcntl(lfd, F_GETFL) & O_NONBLOCK,
				 fcntl(kfd, F_GETFL) & O_NONBLOCK);
}
END_TEST

struct signal_case {
	const char *what;
	int sig;
	unsigned int flags;
	bool bad_info;
	bool not_pidfd;
};

static const struct signal_case signal_cases[] = {
	{ "signal 0", 0, 0, false, false },
	{ "signal 65", 65, 0, false, false },
	{ "negative signal", -1, 0, false, false },
	{ "unknown flag", 0, 8, false, false },
	{ "two scopes", 0, PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP,
	  false, false },
	{ "unmapped siginfo", SIGUSR1, 0, true, false },
	{ "regular file", 0, 0, false, true },
	{ "regular file, negative signal", -1, 0, false, true },
	{ "regular file, two scopes", 0, 3, false, true },
	/* Valid scopes: the kernel's from 6.9, before that the module's. */
	{ "thread scope", 0, PIDFD_SIGNAL_THREAD, false, false },
	{ "thread group scope", 0, PIDFD_SIGNAL_THREAD_GROUP, false, false },
	{ "process group scope", 0, PIDFD_SIGNAL_PROCESS_GROUP, false, false },
};

START_TEST(send_signal_as_kernel)
{
	const struct signal_case c = signal_cases[_i];
	siginfo_t *info = c.bad_info ? pt_bad_ptr() : NULL;
	int fd, kret, kerr, lret, lerr;

	if (c.flags == PIDFD_SIGNAL_THREAD ||
	    c.flags == PIDFD_SIGNAL_THREAD_GROUP ||
	    c.flags == PIDFD_SIGNAL_PROCESS_GROUP) {
		char what[96];

		/* Where the kernel has none, a valid scope is the module's. */
		snprintf(what, sizeof(what), "signal scope flags (%s)", c.what);
		PT_SKIP_UNLESS(libpidfd_kernel_features() &
			       LIBPIDFD_KERNEL_SIGNAL_SCOPE,
			       pt_kernel_has_signal_scope(), what);
	}
	fd = c.not_pidfd ? open("/proc/self/stat", O_RDONLY) :
			   ck_assert_ok(libpidfd_open(getpid(), 0));
	ck_assert_int_ge(fd, 0);
	errno = 0;
	kret = (int)syscall(SYS_pidfd_send_signal, fd, c.sig, info, c.flags);
	kerr = errno;
	errno = 0;
	lret = libpidfd_send_signal(fd, c.sig, info, c.flags);
	lerr = errno;
	ck_assert_msg(kret == lret && (kret == 0 || kerr == lerr),
		      "%s: kernel %d/%s, libpidfd %d/%s", c.what, kret,
		      pt_errname(kerr), lret, pt_errname(lerr));
	close(fd);
}
END_TEST

/* A TID: one rule on every kernel, pidfd_open(2)'s. */
START_TEST(thread_id_needs_pidfd_thread)
{
	pid_t tid = start_thread();

	ck_assert_errno(libpidfd_open(tid, 0), pt_kernel_tid_open_errno(tid));
	ck_assert_errno(libpidfd_open(tid, PIDFD_NONBLOCK),
			pt_kernel_tid_open_errno(tid));
	ck_assert_int_eq(pt_kernel_tid_open_errno(tid),
			 pt_kernel_at_least(6, 15) ? ENOENT : EINVAL);
	/* With PIDFD_THREAD: the kernel's, or where it has none the module's. */
	if (pt_kernel_has_pidfd_thread())
		close(ck_assert_ok(libpidfd_open(tid, PIDFD_THREAD)));
	else
		ck_assert_errno(libpidfd_open(tid, PIDFD_THREAD), ENOPKG);
}
END_TEST

/* /proc/<pid> from a pidfd and back, by the userspace proof. */
START_TEST(procdir_round_trip)
{
	pid_t child = pt_fork_sleeper();
	int pidfd, dir, back, proc;
	char name[16];
	struct stat want, got;

	pidfd = ck_assert_ok(libpidfd_open(child, 0));
	proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(proc, 0);
	dir = ck_assert_ok(libpidfd_get_procfd(pidfd, proc));
	ck_assert_int_eq(fcntl(dir, F_GETFD), FD_CLOEXEC);
	snprintf(name, sizeof(name), "%d", child);
	ck_assert_int_eq(fstatat(proc, name, &want, 0), 0);
	ck_assert_int_eq(fstat(dir, &got), 0);
	ck_assert(want.st_ino == got.st_ino && want.st_dev == got.st_dev);

	back = ck_assert_ok(libpidfd_from_procdir(dir, PIDFD_NONBLOCK));
	ck_assert_int_eq(libpidfd_pidfd_backend(back), LIBPIDFD_BACKEND_NATIVE);
	ck_assert_int_eq(libpidfd_getpid(back), child);
	ck_assert_int_eq(fcntl(back, F_GETFL) & O_NONBLOCK, O_NONBLOCK);
	ck_assert_int_eq(libpidfd_send_signal(back, SIGKILL, NULL, 0), 0);
	ck_assert_int_eq(pt_reap(child), 128 + SIGKILL);

	/* Reaped: both ways say ESRCH, never another process. */
	ck_assert_errno(libpidfd_get_procfd(pidfd, proc), ESRCH);
	ck_assert_errno(libpidfd_from_procdir(dir, 0), ESRCH);
	/* Not a procfs root, not a process directory, not open. */
	ck_assert_errno(libpidfd_get_procfd(PIDFD_SELF_THREAD_GROUP, dir),
			EINVAL);
	ck_assert_errno(libpidfd_from_procdir(proc, 0), EINVAL);
	ck_assert_errno(libpidfd_get_procfd(PIDFD_SELF_THREAD_GROUP, 1000),
			EBADF);
	ck_assert_errno(libpidfd_from_procdir(1000, 0), EBADF);
	ck_assert_errno(libpidfd_from_procdir(proc, PIDFD_AUTOKILL), EINVAL);
	close(back);
	close(dir);
	close(proc);
	close(pidfd);
}
END_TEST

/* A reused number: the stale directory never yields the newcomer. */
START_TEST(procdir_of_recycled_number)
{
	pid_t child = pt_fork_sleeper(), again;
	char name[16];
	int dir;

	snprintf(name, sizeof(name), "/proc/%d", child);
	dir = open(name, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dir, 0);
	pt_kill_reap(child);
	again = pt_fork_sleeper_at(child);
	ck_assert_int_eq(again, child);
	ck_assert_errno(libpidfd_from_procdir(dir, 0), ESRCH);
	pt_kill_reap(again);
	close(dir);
}
END_TEST

/* Without /proc, a kernel with PIDFD_GET_INFO still gives the number. */
START_TEST(getpid_without_proc)
{
	pid_t child;
	int pidfd = open_sleeper(&child);

	ck_assert_int_eq(pt_private_mounts(), 0);
	ck_assert_int_eq(umount2("/proc", MNT_DETACH), 0);
	ck_assert_int_eq(access("/proc/self", F_OK), -1);
	if (pt_kernel_has_get_info())
		ck_assert_int_eq(libpidfd_getpid(pidfd), child);
	else
		ck_assert_errno(libpidfd_getpid(pidfd), ENOENT);
	ck_assert_int_eq(libpidfd_pidfd_backend(pidfd), LIBPIDFD_BACKEND_NATIVE);
	ck_assert_int_eq(libpidfd_send_signal(pidfd, SIGKILL, NULL, 0), 0);
	ck_assert_int_eq(pt_reap(child), 128 + SIGKILL);
	close(pidfd);
}
END_TEST

/* ---- a passed fd may come from someone else's mounts ---- */

/* In a mount namespace of our own, bind @from over @to. */
static void bind_over(const char *from, const char *to)
{
	ck_assert_int_eq(mount(from, to, NULL, MS_BIND, NULL), 0);
}

static void private_mounts(void)
{
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
}

/* A stat that names pid 1: the directory's pidfd, never pid 1's. */
START_TEST(from_procdir_forged_stat)
{
	char path[64];
	FILE *f;
	int dir;

	private_mounts();
	f = fopen("/tmp/forged-stat", "w");
	ck_assert_ptr_nonnull(f);
	fputs("1 (init) S 0 1 1 0 -1 4194560 0 0 0 0\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", getpid());
	bind_over("/tmp/forged-stat", path);
	dir = open_procdir_of(getpid());
	/* Covered: not provable here, and no module to ask. */
	ck_assert_errno(libpidfd_from_procdir(dir, 0), ENOPKG);
	close(dir);
}
END_TEST

/* Another directory bound over /proc/<pid>: EXDEV, as the module says. */
START_TEST(get_procfd_covered)
{
	pid_t child;
	int pidfd = open_sleeper(&child);
	int proc;
	char path[64];

	private_mounts();
	snprintf(path, sizeof(path), "/proc/%d", child);
	bind_over("/proc/self", path);
	proc = open("/proc", O_PATH | O_DIRECTORY);
	ck_assert_errno(libpidfd_get_procfd(pidfd, proc), EXDEV);
	close(proc);
	close(pidfd);
	pt_kill_reap(child);
}
END_TEST

/* A procfs instance not our /proc: left to the module. */
START_TEST(other_procfs_instance)
{
	pid_t child;
	int pidfd = open_sleeper(&child);
	char path[64];
	int root, dir;

	private_mounts();
	ck_assert_int_eq(mkdir("/tmp/proc2", 0755) == 0 || errno == EEXIST, 1);
	ck_assert_int_eq(mount("proc", "/tmp/proc2", "proc", 0, NULL), 0);
	root = open("/tmp/proc2", O_PATH | O_DIRECTORY);
	ck_assert_int_ge(root, 0);
	ck_assert_errno(libpidfd_get_procfd(pidfd, root), ENOPKG);
	snprintf(path, sizeof(path), "/tmp/proc2/%d", child);
	dir = open(path, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dir, 0);
	ck_assert_errno(libpidfd_from_procdir(dir, 0), ENOPKG);
	close(dir);
	close(root);
	close(pidfd);
	pt_kill_reap(child);
}
END_TEST

struct own_table {
	int number;	/* the leader's fd number the thread reuses */
	pid_t child;
	pid_t got;
	int procdir_ok;
};

static void *own_table_thread(void *arg)
{
	struct own_table *t = arg;
	struct stat want, got;
	char path[64];
	int fd, dir;

	if (unshare(CLONE_FILES) < 0)
		return NULL;
	close(t->number);
	fd = libpidfd_open(t->child, 0);
	if (fd != t->number)
		return NULL;
	t->got = libpidfd_getpid(fd);
	dir = libpidfd_open_procdir(fd);
	snprintf(path, sizeof(path), "/proc/%d", t->child);
	t->procdir_ok = dir >= 0 && fstat(dir, &got) == 0 &&
			stat(path, &want) == 0 && want.st_ino == got.st_ino;
	return NULL;
}

/* A thread with its own fd table: its fds, not the leader's. */
START_TEST(thread_with_own_fd_table)
{
	struct own_table t = { .child = pt_fork_sleeper() };
	pthread_t thread;

	t.number = ck_assert_ok(libpidfd_open(getpid(), 0));
	ck_assert_int_eq(pthread_create(&thread, NULL, own_table_thread, &t),
			 0);
	ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_int_eq(t.got, t.child);
	ck_assert(t.procdir_ok);
	ck_assert_int_eq(libpidfd_getpid(t.number), getpid());
	pt_kill_reap(t.child);
}
END_TEST

static Suite *native_suite(void)
{
	Suite *s = suite_create("native_libpidfd");
	TCase *tc;

	tc = pt_tcase(s, "setting");
	tcase_add_test(tc, module_is_not_loaded);
	tc = pt_tcase(s, "routes");
	tcase_add_loop_test(tc, route_table_row, 0, ROUTE_COUNT);
	tc = pt_add_tests(pt_tcase(s, "probes"), probes_match_the_kernel,
			  probe_is_invisible);
	tcase_add_loop_test(tc, probe_refused_means_absent, 0,
			    sizeof(refusals) / sizeof(refusals[0]));
	tc = pt_tcase(s, "as_kernel");
	tcase_add_loop_test(tc, open_as_kernel, 0,
			    sizeof(open_cases) / sizeof(open_cases[0]));
	tcase_add_loop_test(tc, send_signal_as_kernel, 0,
			    sizeof(signal_cases) / sizeof(signal_cases[0]));
	tcase_add_test(tc, thread_id_needs_pidfd_thread);
	pt_add_tests(pt_tcase(s, "procdir"), procdir_round_trip,
		     procdir_of_recycled_number, getpid_without_proc);
	pt_add_tests(pt_tcase(s, "hostile"), from_procdir_forged_stat,
		     get_procfd_covered, other_procfs_instance,
		     thread_with_own_fd_table);
	return s;
}

int main(void)
{
	return pt_main(native_suite());
}
