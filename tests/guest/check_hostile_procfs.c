// SPDX-License-Identifier: GPL-2.0
/*
 * A hostile caller's procfs (issue 23, docs/security.md): an unprivileged
 * user in its own user and mount namespace lays mounts and forged files
 * over /proc entries, hands the module directories that are not what they
 * seem, and rewrites its own memory during the call. Each case asserts
 * the errno or the process the result names, and that the initial mount
 * namespace did not change (its mountinfo before and after, and a tmpfs
 * of root's that the caller bound, with its submount, over /proc/<pid>).
 */
#include "pidfd_test.h"
#include "diff_backend.h"

#include <linux/landlock.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* Root's directory with a tmpfs mounted below it, in the initial ns. */
struct victim {
	char dir[64];
	char sub[96];
	char mountinfo[16384];
};

static void victim_setup(struct victim *v)
{
	ck_assert_ok(pt_tmpdir(v->dir, sizeof(v->dir)));
	ck_assert_ok(chmod(v->dir, 0755));
	snprintf(v->sub, sizeof(v->sub), "%s/m1", v->dir);
	ck_assert_ok(mkdir(v->sub, 0755));
	ck_assert_ok(mount("victim", v->sub, "tmpfs", 0, "size=64k"));
	ck_assert_ok(pt_read_text("/proc/1/mountinfo", v->mountinfo,
				  sizeof(v->mountinfo)));
	ck_assert_msg(strstr(v->mountinfo, v->sub), "%s not mounted", v->sub);
}

/* Nothing changed in the initial namespace; then root's mount goes. */
static void victim_check_and_remove(struct victim *v)
{
	static char now[sizeof(v->mountinfo)];

	ck_assert_ok(pt_read_text("/proc/1/mountinfo", now, sizeof(now)));
	ck_assert_msg(strcmp(now, v->mountinfo) == 0,
		      "the initial namespace's mounts changed:\n%s\nnow:\n%s",
		      v->mountinfo, now);
	ck_assert_ok(umount(v->sub));
	ck_assert_ok(rmdir(v->sub));
	ck_assert_ok(rmdir(v->dir));
}

/* uid 65534, still dumpable (its own fdinfo readable on 5.10). */
static void drop_to_nobody(void)
{
	PT_REQUIRE(pt_drop_privs(PT_NOBODY, PT_NOBODY) == 0, "drop: %m");
	PT_REQUIRE(prctl(PR_SET_DUMPABLE, 1) == 0, "PR_SET_DUMPABLE: %m");
}

static void __attribute__((format(printf, 2, 3)))
bind_over(const char *src, const char *fmt, ...)
{
	char target[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(target, sizeof(target), fmt, ap);
	va_end(ap);
	PT_REQUIRE(mount(src, target, NULL, MS_BIND | MS_REC, NULL) == 0,
		 "bind %s over %s: %m", src, target);
}

static int __attribute__((format(printf, 1, 2))) open_dir(const char *fmt, ...)
{
	char path[96];
	va_list ap;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_REQUIRE(fd >= 0, "open %s: %m", path);
	return fd;
}

/* @fd is the directory @want was (same device and inode). */
static bool same_dir(int fd, const struct stat *want)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_dev == want->st_dev && st.st_ino == want->st_ino;
}

/* ---- mounts over the entries the module walks ---- */

struct cover_case {
	const char *what;
	const char *below;	/* covered: /proc/<pid><below>[/<pid>] */
	bool then_pid;
	int want;		/* errno, or 0: the pid's own directory */
};

static const struct cover_case cover_cases[] = {
	{ "a directory with a submount over /proc/<pid>", "", false, EXDEV },
	{ "over /proc/<pid>/task", "/task", false, EXDEV },
	/* Not on the way: task/ is read, never walked into. */
	{ "over /proc/<pid>/task/<pid>", "/task", true, 0 },
	{ "over /proc/<pid>/ns", "/ns", false, 0 },
};

struct cover_arg {
	const struct cover_case *c;
	const char *victim;
	pid_t target;
};

/*
 * Runs @child as a pt_run() child with root's victim mount in a->victim
 * and a sleeping target of root's in a->target, which must outlive it;
 * then checks that nothing changed in the initial mount namespace.
 */
static void run_against_victim(int (*child)(void *), struct cover_arg *a)
{
	char msg[4096];
	struct victim v;
	int rc;

	victim_setup(&v);
	a->victim = v.dir;
	a->target = pt_fork_sleeper();
	ck_assert_int_gt(a->target, 0);
	rc = pt_run(child, a, msg, sizeof(msg));
	ck_assert_msg(rc == 0, "child exited %d: %s", rc, msg);
	ck_assert_msg(pt_alive(a->target), "the target died");
	pt_kill_reap(a->target);
	victim_check_and_remove(&v);
}

static void cover(const struct cover_arg *a, pid_t nr)
{
	if (a->c->then_pid)
		bind_over(a->victim, "/proc/%d%s/%d", nr, a->c->below, nr);
	else
		bind_over(a->victim, "/proc/%d%s", nr, a->c->below);
}

static int cover_child(void *arg)
{
	const struct cover_arg *a = arg;
	struct stat real, net;
	char path[64];
	int pidfd, own, procfd, fd;

	pidfd = pt_open(a->target, 0);
	own = pt_open(getpid(), 0);
	PT_CHECK(pidfd >= 0 && own >= 0, "open the pidfds: %m");
	snprintf(path, sizeof(path), "/proc/%d", a->target);
	PT_CHECK(stat(path, &real) == 0, "stat %s: %m", path);
	PT_CHECK(stat("/proc/self/ns/net", &net) == 0, "stat ns/net: %m");
	pt_become_hostile();
	cover(a, a->target);
	cover(a, getpid());
	procfd = open_dir("/proc");

	errno = 0;
	fd = pt_get_procfd(pidfd, procfd);
	if (a->c->want) {
		PT_CHECK(fd < 0 && errno == a->c->want,
			 "%s: GET_PROCFD %d/%s, want %s", a->c->what, fd,
			 pt_errname(errno), pt_errname(a->c->want));
	} else {
		PT_CHECK(fd >= 0, "%s: GET_PROCFD %s", a->c->what,
			 pt_errname(errno));
		PT_CHECK(same_dir(fd, &real), "%s: not /proc/%d's directory",
			 a->c->what, a->target);
	}
	/* The namespace ioctls walk a procfs of the module's own. */
	fd = ioctl(own, PIDFD_GET_NET_NAMESPACE, 0);
	PT_CHECK(fd >= 0, "PIDFD_GET_NET_NAMESPACE: %s", pt_errname(errno));
	PT_CHECK(fstat(fd, &real) == 0 && real.st_ino == net.st_ino &&
		 real.st_dev == net.st_dev, "not our network namespace");
	return 0;
}

START_TEST(hostile_mount_over_entry)
{
	struct cover_arg a = { .c = &cover_cases[_i] };

	run_against_victim(cover_child, &a);
}
END_TEST

/* The same through PIDFD_DEV_OPEN_PROCDIR: the caller's own dir fd. */
static int procdir_cover_child(void *arg)
{
	const struct cover_arg *a = arg;
	int dir, pidfd;

	pt_become_hostile();
	dir = open_dir("/proc/%d", a->target);
	bind_over(a->victim, "/proc/%d/task", a->target);
	errno = 0;
	pidfd = pt_open_procdir(dir, 0);
	PT_CHECK(pidfd < 0 && errno == EXDEV,
		 "OPEN_PROCDIR, task/ covered: %d/%s, want EXDEV", pidfd,
		 pt_errname(errno));
	return 0;
}

/* ---- forged files: nothing the module proves with is a file ---- */

struct forge_arg {
	char file[96];		/* a forged stat: another process's number */
	pid_t target, other;
};

static int forge_child(void *arg)
{
	const struct forge_arg *a = arg;
	struct stat real;
	char path[64];
	int pidfd, procfd, dir, fd;

	snprintf(path, sizeof(path), "/proc/%d", a->target);
	PT_CHECK(stat(path, &real) == 0, "stat %s: %m", path);
	pt_become_hostile();
	bind_over(a->file, "/proc/%d/stat", a->target);
	bind_over(a->file, "/proc/%d/status", a->target);
	procfd = open_dir("/proc");
	dir = open_dir("/proc/%d", a->target);

	/* The directory is the target's, whatever its files say. */
	pidfd = pt_open_procdir(dir, 0);
	PT_CHECK(pidfd >= 0, "OPEN_PROCDIR: %s", pt_errname(errno));
	PT_CHECK(pt_pidfd_pid(pidfd) == a->target, "names %d, want %d",
		 pt_pidfd_pid(pidfd), a->target);
	fd = pt_get_procfd(pidfd, procfd);
	PT_CHECK(fd >= 0, "GET_PROCFD: %s", pt_errname(errno));
	PT_CHECK(same_dir(fd, &real), "not /proc/%d's directory", a->target);
	return 0;
}

START_TEST(hostile_forged_stat)
{
	struct forge_arg a = { 0 };
	struct victim v;
	FILE *f;

	victim_setup(&v);
	a.target = pt_fork_sleeper();
	a.other = pt_fork_sleeper();
	ck_assert_int_gt(a.target, 0);
	ck_assert_int_gt(a.other, 0);
	snprintf(a.file, sizeof(a.file), "%s/forged", v.dir);
	f = fopen(a.file, "we");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%d (forged) S 1 %d %d 0\nPid:\t%d\n", a.other, a.other,
		a.other, a.other);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ok(chmod(a.file, 0644));
	pt_assert_child(forge_child, &a);
	pt_kill_reap(a.target);
	pt_kill_reap(a.other);
	ck_assert_ok(unlink(a.file));
	victim_check_and_remove(&v);
}
END_TEST

/* ---- a thread directory that outlived its thread ---- */

/* A thread of ours that waits until cancelled; its number. */
static pid_t start_idle_thread(pthread_t *thread)
{
	struct pt_sync s;
	pid_t tid;

	pt_sync_init(&s);
	PT_REQUIRE(pthread_create(thread, NULL, pt_idle_thread, &s) == 0,
		   "pthread_create");
	tid = pt_sync_get(&s, 10000);
	pt_sync_close(&s);
	return tid;
}

/*
 * Pid 1 of a pid namespace of its own, with its procfs: an fd of
 * /proc/1/task/<t> kept after thread t exited, and a new thread that got
 * the number t again (ns_last_pid). The old directory must not give a
 * pidfd for the newcomer, though task/ lists t again.
 */
static int stale_thread_child(void *arg)
{
	pthread_t old, newcomer;
	char path[64];
	pid_t t, again;
	int dir, fd, i;

	(void)arg;
	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0,
		 "mount proc: %m");
	t = start_idle_thread(&old);
	dir = open_dir("/proc/1/task/%d", t);
	PT_CHECK(pthread_cancel(old) == 0 && pthread_join(old, NULL) == 0,
		 "end thread %d", t);
	snprintf(path, sizeof(path), "/proc/1/task/%d", t);
	for (i = 0; i < 1000 && access(path, F_OK) == 0; i++)
		usleep(1000);
	PT_CHECK(access(path, F_OK) != 0, "thread %d still there", t);

	PT_CHECK(pt_set_ns_last_pid(t - 1) == 0, "ns_last_pid: %m");
	again = start_idle_thread(&newcomer);
	PT_CHECK(again == t, "the newcomer is %d, not %d", again, t);
	errno = 0;
	fd = pt_open_procdir(dir, PIDFD_THREAD);
	PT_CHECK(fd < 0 && errno == ESRCH,
		 "the old thread's directory gave %d/%s, want ESRCH", fd,
		 pt_errname(errno));
	/* The newcomer's own directory does. */
	fd = pt_open_procdir(open_dir("/proc/1/task/%d", t), PIDFD_THREAD);
	PT_CHECK(fd >= 0, "the newcomer's directory: %s", pt_errname(errno));
	return 0;
}

/* In a new pid and mount namespace, as root. */
static int new_pidns(void *arg)
{
	pid_t pid;

	PT_CHECK(unshare(CLONE_NEWPID | CLONE_NEWNS) == 0, "unshare: %m");
	PT_CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
		 "private mounts: %m");
	pid = pt_fork();
	if (pid == 0)
		_exit(stale_thread_child(arg));
	return pt_reap(pid);
}

START_TEST(hostile_stale_thread_dir)
{
	pt_assert_child(new_pidns, NULL);
}
END_TEST

/* ---- a path-based LSM that knows no path of the module's ---- */

/*
 * Landlock denying every read of a directory or file: the namespace
 * ioctls still work, as upstream's (no path of the caller's is read; the
 * module proves its own procfs with kernel credentials), and
 * PIDFD_GET_PROCFD is refused as openat(/proc, "<pid>") is.
 */
static int landlocked_child(void *arg)
{
	const int read_fs = LANDLOCK_ACCESS_FS_READ_FILE |
			    LANDLOCK_ACCESS_FS_READ_DIR;
	int own, procfd, fd;
	char path[32];

	(void)arg;
	own = pt_open(getpid(), 0);
	procfd = open_dir("/proc");
	PT_CHECK(db_landlock_restrict(read_fs, 0) == 0, "landlock: %m");
	fd = ioctl(own, PIDFD_GET_NET_NAMESPACE, 0);
	PT_CHECK(fd >= 0, "GET_NET_NAMESPACE under Landlock: %s",
		 pt_errname(errno));
	snprintf(path, sizeof(path), "%d", getpid());
	errno = 0;
	PT_CHECK(openat(procfd, path, O_RDONLY | O_DIRECTORY) < 0 &&
		 errno == EACCES, "openat under Landlock: %s", pt_errname(errno));
	errno = 0;
	fd = pt_get_procfd(own, procfd);
	PT_CHECK(fd < 0 && errno == EACCES, "GET_PROCFD under Landlock: %d/%s",
		 fd, pt_errname(errno));
	return 0;
}

START_TEST(hostile_landlock)
{
	/* 5.13; Debian's 5.10 has none, 6.1 and later have it enabled. */
	PT_SKIP_UNLESS(pt_landlock_abi() >= 1, pt_kernel_has_landlock(),
		       "Landlock");
	pt_assert_child(landlocked_child, NULL);
}
END_TEST

/* ---- what is not a procfs root or process directory ---- */

static int not_proc_child(void *arg)
{
	const struct cover_arg *a = arg;
	int pidfd, fd, dir;

	pidfd = pt_open(a->target, 0);
	PT_CHECK(pidfd >= 0, "open the pidfd: %m");
	pt_become_hostile();

	/* Another filesystem, and a symlink, where the procfs root goes. */
	fd = open(a->victim, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(fd >= 0, "open %s: %m", a->victim);
	errno = 0;
	PT_CHECK(pt_get_procfd(pidfd, fd) < 0 && errno == EINVAL,
		 "tmpfs as procfs root: %s", pt_errname(errno));
	fd = open("/proc/self", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	PT_CHECK(fd >= 0, "open /proc/self: %m");
	errno = 0;
	PT_CHECK(pt_get_procfd(pidfd, fd) < 0 && errno == EINVAL,
		 "the /proc/self symlink as procfs root: %s", pt_errname(errno));

	/* A process directory bound over the procfs root. */
	bind_over("/proc/1", "/proc");
	fd = open_dir("/proc");
	errno = 0;
	PT_CHECK(pt_get_procfd(pidfd, fd) < 0 && errno == EINVAL,
		 "/proc/1 bound over /proc: %s", pt_errname(errno));

	/* A thread directory mounted on its own: its process is not there. */
	PT_CHECK(umount2("/proc", MNT_DETACH) == 0, "umount: %m");
	bind_over("/proc/1/task/1", "%s", a->victim);
	dir = open_dir("%s", a->victim);
	errno = 0;
	PT_CHECK(pt_open_procdir(dir, 0) < 0 && errno == EINVAL,
		 "a lone thread directory: %s", pt_errname(errno));
	return 0;
}

/* ---- the caller's memory ---- */

struct flip_arg {
	struct pidfd_open_procdir_args *args;
	int a, b;
	volatile bool stop;
};

static void *flip_procdir(void *arg)
{
	struct flip_arg *f = arg;

	while (!f->stop) {
		f->args->procdir = f->a;
		f->args->procdir = f->b;
	}
	return NULL;
}

/*
 * With no room for a new mapping (RLIMIT_AS at the current size), every
 * ioctl that proves a directory works: the module maps nothing into the
 * caller. Another thread flipping the argument between two processes'
 * directories gets a pidfd for one of them, never a third.
 */
static int memory_child(void *arg)
{
	const struct forge_arg *a = arg;
	struct pidfd_open_procdir_args args = { 0 };
	struct flip_arg flip = { .args = &args };
	char size[32];
	struct rlimit lim;
	pthread_t thread;
	int pidfd, own, procfd, fd, i;
	pid_t named;

	drop_to_nobody();
	pidfd = pt_open(a->target, 0);
	own = pt_open(getpid(), 0);
	PT_CHECK(pidfd >= 0 && own >= 0, "open the pidfds: %m");
	procfd = open_dir("/proc");
	flip.a = open_dir("/proc/%d", a->target);
	flip.b = open_dir("/proc/%d", a->other);
	args.procdir = flip.a;
	PT_CHECK(pthread_create(&thread, NULL, flip_procdir, &flip) == 0,
		 "pthread_create");

	PT_CHECK(pt_read_field("/proc/self/status", "VmSize:", size,
			       sizeof(size)) == 0, "VmSize");
	lim.rlim_cur = lim.rlim_max = strtoul(size, NULL, 10) * 1024;
	PT_CHECK(setrlimit(RLIMIT_AS, &lim) == 0, "RLIMIT_AS: %m");

	fd = pt_get_procfd(pidfd, procfd);
	PT_CHECK(fd >= 0, "GET_PROCFD at RLIMIT_AS: %s", pt_errname(errno));
	close(fd);
	fd = ioctl(own, PIDFD_GET_NET_NAMESPACE, 0);
	PT_CHECK(fd >= 0, "GET_NET_NAMESPACE at RLIMIT_AS: %s",
		 pt_errname(errno));
	close(fd);
	for (i = 0; i < 2000; i++) {
		fd = ioctl(pt_dev(), PIDFD_DEV_OPEN_PROCDIR, &args);
		PT_CHECK(fd >= 0, "OPEN_PROCDIR: %s", pt_errname(errno));
		named = pt_pidfd_pid(fd);
		PT_CHECK(named == a->target || named == a->other,
			 "names %d, neither %d nor %d", named, a->target,
			 a->other);
		close(fd);
	}
	flip.stop = true;
	pthread_join(thread, NULL);
	return 0;
}

START_TEST(hostile_memory)
{
	struct forge_arg a = { 0 };

	a.target = pt_fork_sleeper();
	a.other = pt_fork_sleeper();
	ck_assert_int_gt(a.target, 0);
	ck_assert_int_gt(a.other, 0);
	pt_assert_child(memory_child, &a);
	pt_kill_reap(a.target);
	pt_kill_reap(a.other);
}
END_TEST

/* The children that need only the victim: no cover_case of their own. */
static int (*const victim_children[])(void *) = {
	procdir_cover_child,	/* OPEN_PROCDIR with task/ covered */
	not_proc_child,		/* directories that are no /proc entry */
};

START_TEST(hostile_victim)
{
	struct cover_arg a = { 0 };

	run_against_victim(victim_children[_i], &a);
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile_procfs");
	TCase *tc = pt_tcase(s, "hostile_procfs");

	tcase_add_loop_test(tc, hostile_mount_over_entry, 0,
			    (int)(sizeof(cover_cases) / sizeof(cover_cases[0])));
	tcase_add_loop_test(tc, hostile_victim, 0,
			    (int)(sizeof(victim_children) /
				  sizeof(victim_children[0])));
	pt_add_tests(tc, hostile_forged_stat, hostile_stale_thread_dir,
		     hostile_memory, hostile_landlock);
	return s;
}

int main(void)
{
	return pt_main(hostile_suite());
}
