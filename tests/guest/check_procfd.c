// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_PROCFD (docs/abi.md): the 2019 seed's conversion and pid
 * recycling cases, the errors, the returned fd, pid namespaces and
 * hidepid=.
 */
#include "pidfd_test.h"

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>

static int open_proc(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "open %s: %m", dir);
	return fd;
}

/* "Pid:" of the status file in a /proc/<pid> directory fd. */
static int status_pid(int dirfd)
{
	char buf[64];

	if (pt_read_field_at(dirfd, "status", "Pid:", buf, sizeof(buf)) < 0)
		return -1;
	return atoi(buf);
}

/* Asserts @fd is the directory @path (same inode). */
static void assert_same_dir(int fd, const char *path)
{
	struct stat a, b;

	ck_assert_ok(fstat(fd, &a));
	ck_assert_msg(stat(path, &b) == 0, "stat %s: %m", path);
	ck_assert_msg(S_ISDIR(a.st_mode), "returned fd is not a directory");
	ck_assert_msg(a.st_dev == b.st_dev && a.st_ino == b.st_ino,
		      "returned fd is not %s (dev %lu/%lu ino %lu/%lu)", path,
		      (unsigned long)a.st_dev, (unsigned long)b.st_dev,
		      (unsigned long)a.st_ino, (unsigned long)b.st_ino);
}

/* The seed: convert a pidfd for ourselves, read Pid: from status. */
START_TEST(procfd_seed_self)
{
	int pidfd = pt_open_ok(getpid(), 0);
	int procfd = open_proc("/proc");
	int fd = pt_get_procfd(pidfd, procfd);

	ck_assert_msg(fd >= 0, "PIDFD_GET_PROCFD: %s", pt_errname(errno));
	ck_assert_int_eq(status_pid(fd), getpid());
	close(fd);
	close(procfd);
	close(pidfd);
}
END_TEST

START_TEST(procfd_properties)
{
	pid_t pid = pt_fork_sleeper();
	int pidfd = pt_open_ok(pid, 0);
	int procfd = open_proc("/proc");
	int fd = pt_get_procfd(pidfd, procfd);
	char path[64];
	int fl;

	ck_assert_msg(fd >= 0, "PIDFD_GET_PROCFD: %s", pt_errname(errno));
	ck_assert_msg(fcntl(fd, F_GETFD) & FD_CLOEXEC, "not close-on-exec");
	fl = fcntl(fd, F_GETFL);
	ck_assert_msg((fl & O_ACCMODE) == O_RDONLY, "F_GETFL %#x not O_RDONLY", fl);
	snprintf(path, sizeof(path), "/proc/%d", pid);
	assert_same_dir(fd, path);
	ck_assert_int_eq(status_pid(fd), pid);
	/* A thread pidfd converts to the same process directory. */
	close(fd);
	close(pidfd);
	pidfd = pt_open_ok(pid, PIDFD_THREAD);
	fd = pt_get_procfd(pidfd, procfd);
	ck_assert_msg(fd >= 0, "thread pidfd: %s", pt_errname(errno));
	ck_assert_int_eq(status_pid(fd), pid);
	close(fd);
	/* An O_PATH descriptor of the procfs root works, as with openat(). */
	close(procfd);
	procfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(procfd, 0);
	fd = pt_get_procfd(pidfd, procfd);
	ck_assert_msg(fd >= 0, "O_PATH procfd: %s", pt_errname(errno));
	ck_assert_int_eq(status_pid(fd), pid);
	close(fd);
	pt_kill_reap(pid);
	close(procfd);
	close(pidfd);
}
END_TEST

START_TEST(procfd_zombie_and_reaped)
{
	pid_t pid = pt_fork_exit(0);
	int pidfd = pt_open_ok(pid, 0);
	int procfd = open_proc("/proc");
	int fd;

	ck_assert_ok(pt_wait_zombie(pid));
	fd = pt_get_procfd(pidfd, procfd);
	ck_assert_msg(fd >= 0, "zombie: %s", pt_errname(errno));
	ck_assert_int_eq(status_pid(fd), pid);
	close(fd);
	ck_assert_int_eq(pt_reap(pid), 0);
	ck_assert_errno(pt_get_procfd(pidfd, procfd), ESRCH);
	close(procfd);
	close(pidfd);
}
END_TEST

START_TEST(procfd_bad_procfd)
{
	int pidfd = pt_open_ok(getpid(), 0);
	int closed = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int fd;

	close(closed);
	ck_assert_errno(pt_get_procfd(pidfd, -1), EBADF);
	ck_assert_errno(pt_get_procfd(pidfd, closed), EBADF);
	ck_assert_errno(pt_get_procfd(pidfd, 100000), EBADF);

	fd = open_proc("/");
	ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
	close(fd);
	fd = open_proc("/tmp");
	ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
	close(fd);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
	close(fd);
	/* procfs, but not its root */
	fd = open_proc("/proc/self");
	ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
	close(fd);
	fd = open_proc("/proc/sys");
	ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
	close(fd);
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
	close(fd);
	/* the pidfd itself */
	ck_assert_errno(pt_get_procfd(pidfd, pidfd), EINVAL);
	close(pidfd);
}
END_TEST

/* The seed: a pidfd for pid 1000, reaped, pid 1000 reused: no /proc/1000. */
static int recycled_main(void *arg)
{
	int pidfd, procfd, fd;
	pid_t pid;

	(void)arg;
	PT_CHECK(getpid() == 1, "not pid 1");
	umount2("/proc", MNT_DETACH);
	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0,
		 "mount a fresh /proc: %m");
	PT_CHECK(pt_set_ns_last_pid(PT_PID_RECYCLE - 1) == 0, "ns_last_pid: %m");
	pid = pt_fork_exit(0);
	PT_CHECK(pid == PT_PID_RECYCLE, "got pid %d", pid);
	pidfd = pt_open(pid, 0);
	PT_CHECK(pidfd >= 0, "open: %m");
	PT_CHECK(pt_reap(pid) == 0, "reap");
	PT_CHECK(pt_set_ns_last_pid(PT_PID_RECYCLE - 1) == 0, "ns_last_pid: %m");
	pid = pt_fork_exit(0);
	PT_CHECK(pid == PT_PID_RECYCLE, "failed to recycle pid %d (got %d)",
		 PT_PID_RECYCLE, pid);
	/* now a zombie: /proc/1000 exists and is the new process */
	PT_CHECK(pt_wait_zombie(pid) == 0, "wait");
	procfd = open("/proc", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	PT_CHECK(procfd >= 0, "open /proc: %m");
	errno = 0;
	fd = pt_get_procfd(pidfd, procfd);
	PT_CHECK(fd < 0, "managed to get access to /proc/<pid> of a recycled pid");
	PT_CHECK(errno == ESRCH, "recycled pid: %s, want ESRCH", pt_errname(errno));
	PT_CHECK(pt_reap(pid) == 0, "reap");
	return 0;
}

START_TEST(procfd_seed_recycled_pid)
{
	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_dev());
	ck_assert_msg(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	pt_assert_child(recycled_main, NULL);
}
END_TEST

/* A child C, pid 1 of a new pid ns, mounts its procfs at v->dir. */
struct nsproc {
	char dir[64];
	pid_t c;
};

static void nsproc_start(struct nsproc *v)
{
	struct pt_sync s;

	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_tmpdir(v->dir, sizeof(v->dir)));
	ck_assert_ok(pt_dev());
	ck_assert_msg(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	pt_sync_init(&s);
	v->c = pt_fork();
	if (v->c == 0) {
		pt_sync_put(&s, mount("proc", v->dir, "proc", 0, NULL) == 0);
		for (;;)
			pause();
	}
	ck_assert_int_ge(v->c, 0);
	ck_assert_msg(pt_sync_get(&s, 10000) == 1, "mount proc in the child ns failed");
	pt_sync_close(&s);
}

START_TEST(procfd_child_pidns)
{
	struct nsproc v;
	char path[128];
	int pidfd, outer, inner, fd;

	nsproc_start(&v);
	pidfd = pt_open_ok(v.c, 0);
	outer = open_proc("/proc");
	inner = open_proc(v.dir);

	fd = pt_get_procfd(pidfd, outer);
	ck_assert_msg(fd >= 0, "outer procfs: %s", pt_errname(errno));
	snprintf(path, sizeof(path), "/proc/%d", v.c);
	assert_same_dir(fd, path);
	ck_assert_int_eq(status_pid(fd), v.c);
	close(fd);

	fd = pt_get_procfd(pidfd, inner);
	ck_assert_msg(fd >= 0, "the child ns's procfs: %s", pt_errname(errno));
	snprintf(path, sizeof(path), "%s/1", v.dir);
	assert_same_dir(fd, path);
	ck_assert_int_eq(status_pid(fd), 1);
	close(fd);
	close(pidfd);

	/* We are not visible in the child's namespace. */
	pidfd = pt_open_ok(getpid(), 0);
	ck_assert_errno(pt_get_procfd(pidfd, inner), ESRCH);
	close(pidfd);
	pt_kill_reap(v.c);
	close(inner);
	close(outer);
}
END_TEST

struct hide_arg {
	int procfd;
	pid_t root_pid;
};

static int hidepid_child(void *arg)
{
	struct hide_arg *h = arg;
	int pidfd, fd;

	PT_CHECK(pt_drop_privs(PT_NOBODY, PT_NOBODY) == 0, "drop: %m");
	pt_dev_close();
	pidfd = pt_open(h->root_pid, 0);
	PT_CHECK(pidfd >= 0, "open root's pidfd: %m");
	errno = 0;
	fd = pt_get_procfd(pidfd, h->procfd);
	PT_CHECK(fd < 0 && errno == ENOENT,
		 "hidepid=invisible, another uid's process: %d/%s, want ENOENT",
		 fd, pt_errname(errno));
	pidfd = pt_open(getpid(), 0);
	PT_CHECK(pidfd >= 0, "open own pidfd: %m");
	fd = pt_get_procfd(pidfd, h->procfd);
	PT_CHECK(fd >= 0, "hidepid=invisible, own process: %s", pt_errname(errno));
	PT_CHECK(status_pid(fd) == getpid(), "wrong status Pid");
	return 0;
}

START_TEST(procfd_hidepid)
{
	struct hide_arg h;
	char dir[64];

	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_tmpdir(dir, sizeof(dir)));
	ck_assert_msg(mount("proc", dir, "proc", 0, "hidepid=invisible") == 0,
		      "mount proc hidepid=invisible: %m");
	h.procfd = open_proc(dir);
	h.root_pid = getpid();
	pt_assert_child(hidepid_child, &h);
	close(h.procfd);
}
END_TEST

static Suite *procfd_suite(void)
{
	Suite *s = suite_create("procfd");
	TCase *tc;

	tc = pt_tcase(s, "convert");
	tcase_add_test(tc, procfd_seed_self);
	tcase_add_test(tc, procfd_properties);
	tcase_add_test(tc, procfd_zombie_and_reaped);
	tcase_add_test(tc, procfd_seed_recycled_pid);

	tc = pt_tcase(s, "errors");
	tcase_add_test(tc, procfd_bad_procfd);

	tc = pt_tcase(s, "namespaces");
	tcase_add_test(tc, procfd_child_pidns);
	tcase_add_test(tc, procfd_hidepid);
	return s;
}

int main(void)
{
	return pt_main(procfd_suite());
}
