// SPDX-License-Identifier: GPL-2.0
/*
 * A pidfd's identity (docs/abi.md, "Identity"): fstat()'s st_ino is its
 * struct pid's number for the boot, the kernel pidfd's own on 6.9+ (pidfs),
 * distinct across processes even where their pid numbers are reused,
 * stable for as long as the process lives (through close and reopen, the
 * holder's fork and exec, the process's own exec) on every kernel; and
 * what userspace saw before stays: anon_inode:[pidfd], ANON_INODE_FS_MAGIC.
 */
#include "pidfd_test.h"
#include "../../lib/pt_sys_pidfd.h"

#include <inttypes.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/mman.h>
#include <sys/wait.h>

#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC	0x50494446	/* "PIDF", 6.9 */
#endif

#define REOPEN_ARG	"--identity-reopen"

/*
 * How many processes the distinctness test makes (PIDFD_IDENTITY_PROCESSES,
 * default MANY), and how long it may take.
 */
#define MANY		100000
#define MANY_TIMEOUT	900
#define MANY_WORKERS	2	/* the VM's CPUs (vm/run) */

static int many_processes(void)
{
	const char *env = getenv("PIDFD_IDENTITY_PROCESSES");
	char *end;
	long n;

	if (!env || !*env)
		return MANY;
	n = strtol(env, &end, 10);
	ck_assert_msg(!*end && n >= 2 && n <= 10 * MANY,
		      "PIDFD_IDENTITY_PROCESSES=%s: not 2 to %d", env, 10 * MANY);
	return n;
}

static uint64_t ino_of(int fd)
{
	struct stat st;

	ck_assert_msg(fstat(fd, &st) == 0, "fstat(%d): %m", fd);
	return st.st_ino;
}

static uint64_t module_id(pid_t pid, unsigned int flags)
{
	int fd = pt_open_ok(pid, flags);
	uint64_t id = ino_of(fd);

	close(fd);
	return id;
}

/* Is @fd a pidfs file (the kernel's pidfds from 6.9)? */
static bool on_pidfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PID_FS_MAGIC;
}

static bool kernel_has_pidfs(void)
{
	int fd = pidfd_open(getpid(), 0);
	bool yes;

	if (fd < 0)
		return false;
	yes = on_pidfs(fd);
	close(fd);
	return yes;
}

/* The kernel's identity of @pid (a pidfs inode), or 0 without one. */
static uint64_t kernel_id(pid_t pid, unsigned int flags)
{
	int fd = pidfd_open(pid, flags);
	uint64_t id;

	if (fd < 0)
		return 0;
	id = on_pidfs(fd) ? ino_of(fd) : 0;
	close(fd);
	return id;
}

START_TEST(same_as_kernel)
{
	pid_t child, tid;
	uint64_t mine;

	PT_SKIP_UNLESS(kernel_has_pidfs(), pt_kernel_at_least(6, 9), "pidfs");
	mine = module_id(getpid(), 0);
	ck_assert_msg(mine == kernel_id(getpid(), 0),
		      "self: module %" PRIu64 ", kernel %" PRIu64, mine,
		      kernel_id(getpid(), 0));
	child = pt_fork_sleeper();
	ck_assert_int_gt(child, 0);
	ck_assert_msg(module_id(child, 0) == kernel_id(child, 0),
		      "child: module %" PRIu64 ", kernel %" PRIu64,
		      module_id(child, 0), kernel_id(child, 0));
	pt_kill_reap(child);

	/* A thread's own struct pid, through PIDFD_THREAD (6.9, as pidfs). */
	tid = pt_start_idle_thread();
	ck_assert_int_gt(tid, 0);
	ck_assert_msg(module_id(tid, PIDFD_THREAD) ==
		      kernel_id(tid, PIDFD_THREAD),
		      "thread: module %" PRIu64 ", kernel %" PRIu64,
		      module_id(tid, PIDFD_THREAD),
		      kernel_id(tid, PIDFD_THREAD));
}
END_TEST

/* A zombie child whose number was @nr if @nr > 0, else any. */
static pid_t zombie_at(pid_t nr)
{
	pid_t pid = nr > 0 ? pt_fork_at(nr) : pt_fork();

	if (pid == 0)
		_exit(0);
	return pid;
}

/*
 * The same, cheaply, for the many: vfork() copies no page tables (under
 * TCG a fork of this program costs milliseconds), and ns_last_pid stays
 * open (@last_pid_fd, or -1: any number).
 */
static pid_t quick_zombie_at(int last_pid_fd, pid_t nr)
{
	char buf[16];
	int n;
	pid_t pid;

	if (last_pid_fd >= 0 && nr > 0) {
		n = snprintf(buf, sizeof(buf), "%d", nr - 1);
		if (pwrite(last_pid_fd, buf, (size_t)n, 0) != n)
			return -1;
	}
	pid = vfork();
	if (pid == 0)
		_exit(0);
	return pid;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_pid(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

/* What the workers of distinct_under_reuse share with the test. */
struct many_share {
	int reused[MANY_WORKERS];	/* numbers forced onto the last one */
	char msg[MANY_WORKERS][160];	/* why a worker failed */
	uint64_t *ids;			/* each process's identity */
	pid_t *nrs;			/* and its number, in its namespace */
};

/*
 * One worker: @count processes one after another, as init of a pid
 * namespace of its own (so that its ns_last_pid is its own), each
 * identified through a module pidfd while a zombie. Returns 0, or 1 with
 * the reason in @sh's msg[@w].
 */
static int many_worker(struct many_share *sh, int w, int first, int count,
		       bool pidfs)
{
	char *msg = sh->msg[w];
	int i, fd, last_pid_fd;
	pid_t pid, last = 0;
	uint64_t id;

	last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (last_pid_fd < 0)
		return snprintf(msg, 160, "ns_last_pid: %m"), 1;
	for (i = 0; i < count; i++) {
		pid = quick_zombie_at(last_pid_fd, i % 2 ? last : 0);
		if (pid <= 0)
			return snprintf(msg, 160, "fork %d: %m", i), 1;
		fd = pt_open(pid, 0);
		if (fd < 0)
			return snprintf(msg, 160, "open %d: %m", pid), 1;
		id = ino_of(fd);
		close(fd);
		/* On 6.9+ the kernel's number, every 1000th time. */
		if (pidfs && i % 1000 == 0 && id != kernel_id(pid, 0))
			return snprintf(msg, 160, "pid %d: module %" PRIu64
					", kernel %" PRIu64, pid, id,
					kernel_id(pid, 0)), 1;
		if (pt_reap(pid) != 0)
			return snprintf(msg, 160, "reap %d", pid), 1;
		sh->reused[w] += i % 2 && pid == last;
		sh->ids[first + i] = id;
		sh->nrs[first + i] = pid;
		last = pid;
	}
	return 0;
}

/*
 * Many processes, each identified through a module pidfd while a zombie:
 * every identity differs, though the numbers are reused (every other
 * process takes its predecessor's number through ns_last_pid, the rest
 * wrap around pid_max, and the workers' namespaces give the same numbers
 * again). The workers run at once, one per CPU the VM has.
 */
START_TEST(distinct_under_reuse)
{
	int many = many_processes();
	struct many_share *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	bool pidfs = kernel_has_pidfs();
	int i, w, dup, reused = 0, per = many / MANY_WORKERS;
	pid_t worker[MANY_WORKERS];

	ck_assert(sh != MAP_FAILED);
	sh->ids = mmap(NULL, many * sizeof(*sh->ids), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sh->nrs = mmap(NULL, many * sizeof(*sh->nrs), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(sh->ids != MAP_FAILED && sh->nrs != MAP_FAILED);
	for (w = 0; w < MANY_WORKERS; w++) {
		worker[w] = pt_clone(CLONE_NEWPID);
		ck_assert_msg(worker[w] >= 0, "clone: %m");
		if (worker[w] == 0)
			_exit(many_worker(sh, w, w * per,
					  w == MANY_WORKERS - 1 ? many - w * per : per,
					  pidfs));
	}
	for (w = 0; w < MANY_WORKERS; w++) {
		ck_assert_msg(pt_reap(worker[w]) == 0, "worker %d: %s", w,
			      sh->msg[w]);
		reused += sh->reused[w];
	}
	qsort(sh->ids, many, sizeof(*sh->ids), cmp_u64);
	for (i = 1; i < many; i++)
		ck_assert_msg(sh->ids[i] != sh->ids[i - 1],
			      "identity %" PRIu64 " given twice", sh->ids[i]);
	qsort(sh->nrs, many, sizeof(*sh->nrs), cmp_pid);
	for (i = 1, dup = 0; i < many; i++)
		dup += sh->nrs[i] == sh->nrs[i - 1];
	printf("[identity] %d processes, %d numbers reused (%d forced), "
	       "%d distinct identities\n", many, dup, reused, many);
	ck_assert_msg(reused > many / 4, "only %d numbers reused", reused);
	munmap(sh->ids, many * sizeof(*sh->ids));
	munmap(sh->nrs, many * sizeof(*sh->nrs));
	munmap(sh, sizeof(*sh));
}
END_TEST

/*
 * Closing every pidfd of a live process and opening a new one gives the
 * same identity, also after many other processes came and went.
 */
START_TEST(stable_close_reopen)
{
	pid_t child = pt_fork_sleeper();
	uint64_t first;
	int i;

	ck_assert_int_gt(child, 0);
	first = module_id(child, 0);
	ck_assert_uint_eq(module_id(child, 0), first);
	for (i = 0; i < 200; i++) {
		pid_t other = zombie_at(0);

		ck_assert_int_gt(other, 0);
		ck_assert_int_eq(pt_wait_zombie(other), 0);
		ck_assert_uint_ne(module_id(other, 0), first);
		ck_assert_int_eq(pt_reap(other), 0);
	}
	ck_assert_uint_eq(module_id(child, 0), first);
	/* A zombie keeps it too. */
	ck_assert_int_eq(kill(child, SIGKILL), 0);
	ck_assert_int_eq(pt_wait_zombie(child), 0);
	ck_assert_uint_eq(module_id(child, 0), first);
	ck_assert_int_eq(pt_reap(child), 128 + SIGKILL);
}
END_TEST

/*
 * The holder forks (the child's copy of the pidfd is the same file) and
 * execs: the new image opens its own pidfd and finds the identity it was
 * given in argv.
 */
START_TEST(stable_holder_fork_exec)
{
	pid_t target = pt_fork_sleeper(), holder;
	char nr[16], id[32];
	uint64_t first;
	int fd, status;

	ck_assert_int_gt(target, 0);
	fd = pt_open_ok(target, 0);
	first = ino_of(fd);
	snprintf(nr, sizeof(nr), "%d", target);
	snprintf(id, sizeof(id), "%" PRIu64, first);
	holder = pt_fork();
	if (holder == 0) {
		struct stat st;

		if (fstat(fd, &st) != 0 || st.st_ino != first)
			_exit(3);
		execl("/proc/self/exe", "check_identity", REOPEN_ARG, nr, id,
		      (char *)NULL);
		_exit(4);
	}
	ck_assert_int_gt(holder, 0);
	/* The parent closes its own: the process alone keeps the number. */
	close(fd);
	ck_assert_int_eq(pt_waitpid(holder, &status, 0), holder);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "holder: status %#x", status);
	pt_kill_reap(target);
}
END_TEST

/* The exec'd holder: argv is PID ID. */
static int reopen_main(char **argv)
{
	int fd = pt_open(atoi(argv[0]), 0);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0)
		return 5;
	return st.st_ino == strtoull(argv[1], NULL, 10) ? 0 : 6;
}

/* The process execs, from its leader and from another thread. */
static void *exec_from_thread(void *arg __attribute__((unused)))
{
	execl("/bin/sh", "sh", "-c", "exec sleep 1000", (char *)NULL);
	_exit(7);
}

START_TEST(stable_target_exec)
{
	pid_t child;
	uint64_t first;
	int i, leader;

	for (leader = 0; leader < 2; leader++) {
		struct pt_sync ready;

		pt_sync_init(&ready);
		child = pt_fork();
		if (child == 0) {
			pthread_t t;

			pt_sync_put(&ready, 1);
			usleep(200000);
			if (leader)
				exec_from_thread(NULL);
			pthread_create(&t, NULL, exec_from_thread, NULL);
			pause();
			_exit(8);
		}
		ck_assert_int_gt(child, 0);
		ck_assert_int_eq(pt_sync_get(&ready, 10000), 1);
		first = module_id(child, 0);
		/* Until the exec is done: sh names the process "sleep". */
		for (i = 0; i < 100; i++) {
			char comm[64] = "";
			char path[64];

			snprintf(path, sizeof(path), "/proc/%d/comm", child);
			pt_read_text(path, comm, sizeof(comm));
			if (!strncmp(comm, "sleep", 5))
				break;
			usleep(50000);
		}
		ck_assert_msg(i < 100, "the child did not exec");
		ck_assert_uint_eq(module_id(child, 0), first);
		pt_kill_reap(child);
		pt_sync_close(&ready);
	}
}
END_TEST

/* A thread's own struct pid has its own identity; the leader's is the process's. */
START_TEST(thread_identity)
{
	pid_t tid = pt_start_idle_thread();
	uint64_t process = module_id(getpid(), 0);

	ck_assert_int_gt(tid, 0);
	ck_assert_uint_eq(module_id(getpid(), PIDFD_THREAD), process);
	ck_assert_uint_ne(module_id(tid, PIDFD_THREAD), process);
	ck_assert_uint_eq(module_id(tid, PIDFD_THREAD),
			  module_id(tid, PIDFD_THREAD));
}
END_TEST

/* What userspace saw before stays. */
START_TEST(looks_as_before)
{
	int fd = pt_open_ok(getpid(), 0), fd2 = pt_open_ok(getpid(), 0);
	struct stat st, st2;
	struct statfs sfs;
	char buf[256];
	ssize_t n;

	n = pt_fd_link(fd, buf, sizeof(buf));
	ck_assert_msg(n > 0, "readlink of fd %d: %m", fd);
	ck_assert_str_eq(buf, "anon_inode:[pidfd]");
	ck_assert_ok(fstatfs(fd, &sfs));
	ck_assert_msg(sfs.f_type == ANON_INODE_FS_MAGIC, "f_type %#lx",
		      (unsigned long)sfs.f_type);
	ck_assert_ok(fstat(fd, &st));
	ck_assert_ok(fstat(fd2, &st2));
	ck_assert_msg((st.st_mode & 07777) == 0600 && !S_ISREG(st.st_mode) &&
		      !S_ISDIR(st.st_mode), "st_mode %o", st.st_mode);
	ck_assert_int_eq(st.st_uid, 0);
	ck_assert_int_eq(st.st_gid, 0);
	/* Two pidfds of one process: one inode, one device. */
	ck_assert_uint_eq(st.st_ino, st2.st_ino);
	ck_assert_uint_eq(st.st_dev, st2.st_dev);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, fd), 1);
	close(fd);
	close(fd2);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;

	if (argc == 4 && !strcmp(argv[1], REOPEN_ARG))
		return reopen_main(argv + 2);
	s = suite_create("identity");
	pt_add_tests(pt_tcase(s, "identity"), same_as_kernel,
		     stable_close_reopen, stable_holder_fork_exec,
		     stable_target_exec, thread_identity, looks_as_before);
	tc = pt_tcase(s, "many");
	tcase_set_timeout(tc, MANY_TIMEOUT);
	pt_add_tests(tc, distinct_under_reuse);
	return pt_main(s);
}
