// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_PROCFD (docs/abi.md): the 2019 seed's conversion and pid
 * recycling cases, the errors, the returned fd, pid namespaces and
 * hidepid=.
 */
#include "pidfd_test.h"

#include <limits.h>
#include <pthread.h>
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

/* No free descriptor: EMFILE, and no directory opened for nothing. */
START_TEST(procfd_emfile)
{
	int pidfd = pt_open_ok(getpid(), 0);
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ck_assert_int_ge(procfd, 0);
	ck_assert_ok(pt_use_every_fd());
	ck_assert_errno(pt_get_procfd(pidfd, procfd), EMFILE);
}
END_TEST

START_TEST(procfd_bad_procfd)
{
	static const char *const not_proc_roots[] = {
		"/", "/tmp", "/dev/null", "/proc/self", "/proc/sys",
		"/proc/self/status",
	};
	int pidfd = pt_open_ok(getpid(), 0);
	int closed = open("/dev/null", O_RDONLY | O_CLOEXEC);
	unsigned int i;
	int fd;

	close(closed);
	ck_assert_errno(pt_get_procfd(pidfd, -1), EBADF);
	ck_assert_errno(pt_get_procfd(pidfd, closed), EBADF);
	ck_assert_errno(pt_get_procfd(pidfd, 100000), EBADF);

	/* Not the root of a procfs: other roots, a device, inside procfs. */
	for (i = 0; i < sizeof(not_proc_roots) / sizeof(not_proc_roots[0]); i++) {
		fd = open(not_proc_roots[i], O_RDONLY | O_CLOEXEC);
		ck_assert_msg(fd >= 0, "open %s: %m", not_proc_roots[i]);
		ck_assert_errno(pt_get_procfd(pidfd, fd), EINVAL);
		close(fd);
	}
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
	pidfd = pt_open_reaped_recycled();
	pid = pt_fork_exit_at(PT_PID_RECYCLE, 0);
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
	pt_assert_child_in_new_pidns(recycled_main, NULL);
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
	pt_unshare_pidns();
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

/* ---- PIDFD_DEV_OPEN_PROCDIR: from a /proc directory to a pidfd ---- */

/* The pidfd from @dir names @pid: fdinfo, and back to the same directory. */
static void assert_procdir_pidfd(int pidfd, pid_t pid, const char *dir)
{
	int procfd, back;

	ck_assert_msg(pidfd >= 0, "OPEN_PROCDIR %s: %s", dir, pt_errname(errno));
	ck_assert_msg(fcntl(pidfd, F_GETFD) & FD_CLOEXEC, "not close-on-exec");
	ck_assert_int_eq(pt_pidfd_pid(pidfd), pid);
	procfd = open_proc("/proc");
	back = pt_get_procfd(pidfd, procfd);
	ck_assert_msg(back >= 0, "back to /proc: %s", pt_errname(errno));
	ck_assert_int_eq(status_pid(back), pid);
	close(back);
	close(procfd);
}

START_TEST(procdir_process)
{
	pid_t pid = pt_fork_sleeper();
	char path[64];
	int dir, pidfd;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	dir = open_proc(path);
	pidfd = pt_open_procdir(dir, 0);
	assert_procdir_pidfd(pidfd, pid, path);
	/* It is the process: signal it through the pidfd, poll sees it. */
	ck_assert_ok(pt_send_signal(pidfd, SIGKILL, NULL, 0));
	ck_assert_int_eq(pt_poll1(pidfd, POLLIN, 10000) & POLLIN, POLLIN);
	close(pidfd);
	close(dir);
	/* An O_PATH descriptor, and PIDFD_NONBLOCK. */
	ck_assert_int_eq(pt_reap(pid), 128 + SIGKILL);
	pid = pt_fork_sleeper();
	snprintf(path, sizeof(path), "/proc/%d", pid);
	dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(dir, 0);
	pidfd = pt_open_procdir(dir, PIDFD_NONBLOCK);
	assert_procdir_pidfd(pidfd, pid, path);
	ck_assert_int_ne(fcntl(pidfd, F_GETFL) & O_NONBLOCK, 0);
	close(pidfd);
	close(dir);
	pt_kill_reap(pid);
}
END_TEST

/* /proc/<pid>/task/<tid>: that thread's pidfd, PIDFD_THREAD as asked. */
START_TEST(procdir_thread)
{
	char path[96];
	pid_t tid;
	int dir, pidfd;

	tid = pt_start_idle_thread();
	ck_assert_int_gt(tid, 0);
	snprintf(path, sizeof(path), "/proc/%d/task/%d", getpid(), tid);
	dir = open_proc(path);
	pidfd = pt_open_procdir(dir, PIDFD_THREAD);
	ck_assert_msg(pidfd >= 0, "%s: %s", path, pt_errname(errno));
	ck_assert_int_eq(pt_pidfd_pid(pidfd), tid);
	ck_assert_int_ne(fcntl(pidfd, F_GETFL) & PIDFD_THREAD, 0);
	close(pidfd);
	/* Without PIDFD_THREAD: as PIDFD_DEV_OPEN with the thread's ID. */
	ck_assert_errno(pt_open_procdir(dir, 0), pt_kernel_tid_open_errno(tid));
	close(dir);
}
END_TEST

START_TEST(procdir_zombie_and_reaped)
{
	pid_t pid = pt_fork_exit(3);
	char path[64];
	int dir, pidfd;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	dir = open_proc(path);
	ck_assert_ok(pt_wait_zombie(pid));
	pidfd = pt_open_procdir(dir, 0);
	ck_assert_msg(pidfd >= 0, "zombie: %s", pt_errname(errno));
	ck_assert_int_eq(pt_pidfd_pid(pidfd), pid);
	close(pidfd);
	ck_assert_int_eq(pt_reap(pid), 3);
	ck_assert_errno(pt_open_procdir(dir, 0), ESRCH);
	close(dir);
}
END_TEST

/*
 * A directory opened for pid 1000, the process reaped and pid 1000 taken
 * by a decoy: the stale directory never gives the decoy's pidfd.
 */
static int procdir_recycled_main(void *arg)
{
	pid_t pid, decoy;
	int dir, fresh, pidfd;

	(void)arg;
	umount2("/proc", MNT_DETACH);
	PT_CHECK(mount("proc", "/proc", "proc", 0, NULL) == 0,
		 "mount a fresh /proc: %m");
	pid = pt_fork_sleeper_at(PT_PID_RECYCLE);
	PT_CHECK(pid == PT_PID_RECYCLE, "got pid %d", pid);
	dir = open("/proc/1000", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(dir >= 0, "open /proc/1000: %m");
	kill(pid, SIGKILL);
	PT_CHECK(pt_reap(pid) == 128 + SIGKILL, "reap");
	decoy = pt_fork_sleeper_at(PT_PID_RECYCLE);
	PT_CHECK(decoy == PT_PID_RECYCLE, "failed to recycle pid %d (got %d)",
		 PT_PID_RECYCLE, decoy);
	errno = 0;
	pidfd = pt_open_procdir(dir, 0);
	PT_CHECK(pidfd < 0 && errno == ESRCH,
		 "stale /proc/1000: got %d/%s, want ESRCH", pidfd,
		 pt_errname(errno));
	/* A fresh directory is the decoy's. */
	fresh = open("/proc/1000", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(fresh >= 0, "open /proc/1000 again: %m");
	pidfd = pt_open_procdir(fresh, 0);
	PT_CHECK(pidfd >= 0 && pt_pidfd_pid(pidfd) == decoy,
		 "fresh /proc/1000: %d/%s", pidfd, pt_errname(errno));
	kill(decoy, SIGKILL);
	pt_reap(decoy);
	return 0;
}

START_TEST(procdir_recycled_pid)
{
	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	pt_assert_child_in_new_pidns(procdir_recycled_main, NULL);
}
END_TEST

/* A child pid ns's procfs: "1" there is the child, seen from here as v.c. */
START_TEST(procdir_child_pidns)
{
	struct nsproc v;
	char path[128];
	int dir, pidfd;

	nsproc_start(&v);
	snprintf(path, sizeof(path), "%s/1", v.dir);
	dir = open_proc(path);
	pidfd = pt_open_procdir(dir, 0);
	assert_procdir_pidfd(pidfd, v.c, path);
	close(pidfd);
	close(dir);
	pt_kill_reap(v.c);
}
END_TEST

struct procdir_hide_arg {
	char procfs[64];	/* a hidepid=invisible procfs */
	int root_dir;		/* our directory there, opened as root */
};

/* As nobody: root's directory (inherited) hides, its own does not. */
static int procdir_hidepid_child(void *arg)
{
	struct procdir_hide_arg *h = arg;
	char path[96];
	int own, pidfd;

	PT_CHECK(pt_drop_privs(PT_NOBODY, PT_NOBODY) == 0, "drop: %m");
	/* Before 6.x /proc/self/fdinfo of a non-dumpable process is root's. */
	PT_CHECK(prctl(PR_SET_DUMPABLE, 1) == 0, "dumpable: %m");
	pt_dev_close();
	errno = 0;
	pidfd = pt_open_procdir(h->root_dir, 0);
	PT_CHECK(pidfd < 0 && errno == ESRCH,
		 "hidepid=invisible, root's process: %d/%s, want ESRCH", pidfd,
		 pt_errname(errno));
	snprintf(path, sizeof(path), "%s/self", h->procfs);
	own = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	PT_CHECK(own >= 0, "open %s: %m", path);
	pidfd = pt_open_procdir(own, 0);
	PT_CHECK(pidfd >= 0 && pt_pidfd_pid(pidfd) == getpid(),
		 "hidepid=invisible, own process: %d/%s", pidfd,
		 pt_errname(errno));
	return 0;
}

START_TEST(procdir_hidepid)
{
	struct procdir_hide_arg h;
	char path[96];

	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_tmpdir(h.procfs, sizeof(h.procfs)));
	ck_assert_msg(mount("proc", h.procfs, "proc", 0, "hidepid=invisible") == 0,
		      "mount proc hidepid=invisible: %m");
	snprintf(path, sizeof(path), "%s/%d", h.procfs, getpid());
	h.root_dir = open_proc(path);
	pt_assert_child(procdir_hidepid_child, &h);
	close(h.root_dir);
}
END_TEST

START_TEST(procdir_errors)
{
	struct pidfd_open_procdir_args args = { .flags = 0 };
	unsigned char big[16] = { 0 };
	int dir, fd;

	ck_assert_errno(pt_open_procdir(-1, 0), EBADF);
	ck_assert_errno(pt_open_procdir(100000, 0), EBADF);
	dir = open_proc("/proc/self");
	ck_assert_errno(pt_open_procdir(dir, 1U << 31), EINVAL);
	ck_assert_errno(pt_open_procdir(dir, PIDFD_SIGNAL_THREAD), EINVAL);
	/* Sizes and faults, as PIDFD_DEV_OPEN. */
	args.procdir = dir;
	ck_assert_errno(ioctl(pt_dev(), _IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 3, 4),
			      &args), EINVAL);
	ck_assert_errno(ioctl(pt_dev(), PIDFD_DEV_OPEN_PROCDIR, pt_bad_ptr()),
			EFAULT);
	memcpy(big, &args, sizeof(args));
	big[12] = 1;
	ck_assert_errno(ioctl(pt_dev(), _IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 3,
					     sizeof(big)), big), E2BIG);
	big[12] = 0;
	fd = ioctl(pt_dev(), _IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 3,
				  sizeof(big)), big);
	ck_assert_msg(fd >= 0, "16-byte struct, zero tail: %s", pt_errname(errno));
	close(fd);
	close(dir);

	/* Not a process or thread directory of a procfs. */
	static const char *const not_process_dirs[] = {
		"/", "/tmp", "/proc", "/proc/sys", "/proc/self/fd",
		"/proc/self/task", "/proc/self/ns", "/proc/self/status",
		"/dev/null",
	};
	for (unsigned int i = 0; i < sizeof(not_process_dirs) /
				     sizeof(not_process_dirs[0]); i++) {
		dir = open(not_process_dirs[i], O_RDONLY | O_CLOEXEC);
		ck_assert_msg(dir >= 0, "open %s: %m", not_process_dirs[i]);
		errno = 0;
		fd = pt_open_procdir(dir, 0);
		ck_assert_msg(fd < 0 && errno == EINVAL, "%s: %d/%s, want EINVAL",
			      not_process_dirs[i], fd, pt_errname(errno));
		close(dir);
	}
	/* A pidfd is no directory either. */
	fd = pt_open_ok(getpid(), 0);
	ck_assert_errno(pt_open_procdir(fd, 0), EINVAL);
	close(fd);
}
END_TEST

static Suite *procfd_suite(void)
{
	Suite *s = suite_create("procfd");

	pt_add_tests(pt_tcase(s, "convert"), procfd_seed_self,
		     procfd_properties, procfd_zombie_and_reaped,
		     procfd_seed_recycled_pid);

	pt_add_tests(pt_tcase(s, "errors"), procfd_bad_procfd, procfd_emfile);

	pt_add_tests(pt_tcase(s, "namespaces"), procfd_child_pidns,
		     procfd_hidepid);

	pt_add_tests(pt_tcase(s, "from a directory"), procdir_process,
		     procdir_thread, procdir_zombie_and_reaped,
		     procdir_recycled_pid, procdir_child_pidns, procdir_hidepid,
		     procdir_errors);
	return s;
}

int main(void)
{
	return pt_main(procfd_suite());
}
