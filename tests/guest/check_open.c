// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_DEV_OPEN and the properties of the file it returns (docs/abi.md,
 * "The control device" and "On a pidfd"). Includes the 2019 seed's
 * pidfd_open_test cases: invalid pid, invalid flag, open.
 */
#include "pidfd_test.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>

/* A pid number that names no task now. */
static pid_t unused_pid(void)
{
	long max = 32768;
	pid_t pid;

	pt_read_long("/proc/sys/kernel/pid_max", &max);
	for (pid = (pid_t)max - 1; pid > 300; pid--)
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return pid;
	ck_abort_msg("no unused pid below pid_max %ld", max);
	return -1;
}

START_TEST(dev_node)
{
	struct stat st;

	ck_assert_ok(stat(PT_DEV_PATH, &st));
	ck_assert_msg(S_ISCHR(st.st_mode), PT_DEV_PATH " is not a char device");
	ck_assert_msg((st.st_mode & 07777) == 0666, PT_DEV_PATH " mode %o, want 0666",
		      st.st_mode & 07777);
}
END_TEST

static int unpriv_open(void *arg)
{
	pid_t root_pid = *(pid_t *)arg;
	int fd;

	PT_CHECK(pt_drop_privs(PT_NOBODY, PT_NOBODY) == 0, "drop: %m");
	pt_dev_close();
	fd = pt_dev();
	PT_CHECK(fd >= 0, "unprivileged open(" PT_DEV_PATH "): %m");
	fd = pt_open(getpid(), 0);
	PT_CHECK(fd >= 0, "unprivileged PIDFD_DEV_OPEN(self): %m");
	/* Opening needs no privilege over the target, as pidfd_open(2). */
	fd = pt_open(root_pid, 0);
	PT_CHECK(fd >= 0, "unprivileged PIDFD_DEV_OPEN(root's %d): %m", root_pid);
	fd = pt_open(root_pid, PIDFD_THREAD | PIDFD_NONBLOCK);
	PT_CHECK(fd >= 0, "unprivileged PIDFD_DEV_OPEN(root's %d, THREAD): %m",
		 root_pid);
	return 0;
}

START_TEST(dev_unprivileged)
{
	pid_t root_pid = pt_fork_sleeper();

	ck_assert_int_gt(root_pid, 0);
	pt_assert_child(unpriv_open, &root_pid);
	pt_kill_reap(root_pid);
}
END_TEST

START_TEST(dev_unknown_ioctl)
{
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };
	struct pidfd_signal_args sa = { .sig = 0 };
	struct termios t;
	int dev = pt_dev();

	ck_assert_msg(dev >= 0, "open " PT_DEV_PATH ": %m");
	ck_assert_errno(ioctl(dev, _IO(PIDFD_DEV_IOC_MAGIC, 99), 0), ENOTTY);
	ck_assert_errno(ioctl(dev, _IOW(PIDFD_DEV_IOC_MAGIC, 4, int), 0), ENOTTY);
	/* OPEN_PROCDIR's number with another direction. */
	ck_assert_errno(ioctl(dev, _IOR(PIDFD_DEV_IOC_MAGIC, 3, int), 0), ENOTTY);
	ck_assert_errno(ioctl(dev, PIDFD_DEV_SEND_SIGNAL, &sa), ENOTTY);
	ck_assert_errno(ioctl(dev, PIDFD_DEV_GET_INFO, &info), ENOTTY);
	ck_assert_errno(ioctl(dev, PIDFD_GET_PROCFD, 0), ENOTTY);
	ck_assert_errno(ioctl(dev, TCGETS, &t), ENOTTY);
	/* Another type with the open command's number. */
	ck_assert_errno(ioctl(dev, _IOW('p', 1, struct pidfd_open_args), &sa),
			ENOTTY);
}
END_TEST

START_TEST(open_efault)
{
	int dev = pt_dev();

	ck_assert_msg(dev >= 0, "open " PT_DEV_PATH ": %m");
	ck_assert_errno(ioctl(dev, PIDFD_DEV_OPEN, NULL), EFAULT);
	ck_assert_errno(ioctl(dev, PIDFD_DEV_OPEN, pt_bad_ptr()), EFAULT);
	/* A larger struct whose tail is not readable. */
	{
		char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct pidfd_open_args *a;

		ck_assert_msg(p != MAP_FAILED, "mmap: %m");
		ck_assert_ok(mprotect(p + 4096, 4096, PROT_NONE));
		a = (void *)(p + 4096 - 8);
		a->pid = getpid();
		a->flags = 0;
		ck_assert_errno(ioctl(dev, PT_OPEN_CMD(16), a), EFAULT);
		munmap(p, 8192);
	}
}
END_TEST

/* The seed: pidfd_open(getpid(), 1) must fail. */
START_TEST(open_flag_1)
{
	ck_assert_ok(pt_dev());
	ck_assert_errno(pt_open(getpid(), 1), EINVAL);
}
END_TEST

START_TEST(open_unknown_flags)
{
	unsigned int bit;

	ck_assert_ok(pt_dev());
	for (bit = 0; bit < 32; bit++) {
		unsigned int f = 1u << bit;

		if (f == PIDFD_NONBLOCK || f == PIDFD_THREAD)
			continue;
		errno = 0;
		/* known, with rules of its own (check_autokill); not with THREAD */
		if (f != PIDFD_AUTOKILL)
			ck_assert_msg(pt_open(getpid(), f) == -1 &&
				      errno == EINVAL,
				      "flags %#x: expected EINVAL, got %s", f,
				      pt_errname(errno));
		errno = 0;
		ck_assert_msg(pt_open(getpid(), f | PIDFD_NONBLOCK | PIDFD_THREAD) == -1 &&
			      errno == EINVAL, "flags %#x|NONBLOCK|THREAD: got %s",
			      f, pt_errname(errno));
	}
	ck_assert_errno(pt_open(getpid(), O_CLOEXEC), EINVAL);
	ck_assert_errno(pt_open(getpid(), ~0u), EINVAL);
}
END_TEST

/* The seed: pidfd_open(-1, 0) must fail. */
START_TEST(open_invalid_pid)
{
	ck_assert_ok(pt_dev());
	ck_assert_errno(pt_open(-1, 0), EINVAL);
	ck_assert_errno(pt_open(0, 0), EINVAL);
	ck_assert_errno(pt_open(INT_MIN, 0), EINVAL);
	ck_assert_errno(pt_open(0, PIDFD_THREAD), EINVAL);
	ck_assert_errno(pt_open(-1, PIDFD_NONBLOCK), EINVAL);
}
END_TEST

START_TEST(open_check_order)
{
	pid_t dead = unused_pid();

	ck_assert_ok(pt_dev());
	/* flags before pid, pid before lookup */
	ck_assert_errno(pt_open(-1, 1), EINVAL);
	ck_assert_errno(pt_open(dead, 1), EINVAL);
	ck_assert_errno(pt_open(dead, 0), ESRCH);
}
END_TEST

START_TEST(open_esrch_unknown)
{
	ck_assert_ok(pt_dev());
	ck_assert_errno(pt_open(unused_pid(), 0), ESRCH);
	ck_assert_errno(pt_open(unused_pid(), PIDFD_THREAD), ESRCH);
	ck_assert_errno(pt_open(INT_MAX, 0), ESRCH);
}
END_TEST

START_TEST(open_esrch_reaped)
{
	pid_t pid = pt_fork_exit(0);

	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(pt_reap(pid), 0);
	ck_assert_ok(pt_dev());
	ck_assert_errno(pt_open(pid, 0), ESRCH);
	ck_assert_errno(pt_open(pid, PIDFD_THREAD), ESRCH);
	ck_assert_errno(pt_open(pid, PIDFD_NONBLOCK), ESRCH);
}
END_TEST

/* PIDFD_DEV_IS_PIDFD: 1 for the module's pidfds, 0 for any other file. */
START_TEST(dev_is_pidfd)
{
	int own = pt_open_ok(getpid(), 0);
	int kernel = (int)syscall(SYS_pidfd_open, getpid(), 0);
	int dir = open("/proc/self", O_RDONLY | O_DIRECTORY);
	int path = open("/proc/self", O_PATH);
	int fds[2];

	ck_assert_int_ge(kernel, 0);
	ck_assert_int_ge(dir, 0);
	ck_assert_int_ge(path, 0);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, own), 1);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, kernel), 0);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, dir), 0);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, path), 0);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, fds[0]), 0);
	ck_assert_int_eq(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, pt_dev()), 0);
	/* Only on the control device: a pidfd does not know it. */
	ck_assert_errno(ioctl(own, PIDFD_DEV_IS_PIDFD, own), ENOTTY);
	close(own);
	ck_assert_errno(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, own), EBADF);
	ck_assert_errno(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, -1), EBADF);
	pt_close_all(kernel, dir, path, fds[0], fds[1]);
}
END_TEST

/* The seed: open a pidfd for ourselves. */
START_TEST(open_self)
{
	int fd = pt_open_ok(getpid(), 0);
	char buf[64];

	ck_assert_int_ge(fd, 0);
	ck_assert_ok(pt_fdinfo_field(NULL, 0, fd, "Pid:", buf, sizeof(buf)));
	ck_assert_int_eq(atoi(buf), getpid());
	close(fd);
}
END_TEST

START_TEST(open_child_and_zombie)
{
	pid_t pid = pt_fork_sleeper();
	int fd1, fd2;

	ck_assert_int_gt(pid, 0);
	fd1 = pt_open_ok(pid, 0);
	kill(pid, SIGKILL);
	ck_assert_ok(pt_wait_zombie(pid));
	/* A zombie can still be opened. */
	fd2 = pt_open_ok(pid, 0);
	close(pt_open_ok(pid, PIDFD_THREAD));
	ck_assert_int_eq(pt_reap(pid), 128 + SIGKILL);
	close(fd1);
	close(fd2);
}
END_TEST

START_TEST(open_thread)
{
	struct pt_sync s;
	pthread_t th;
	pid_t tid;
	char buf[64];
	int fd;

	pt_sync_init(&s);
	ck_assert_int_eq(pthread_create(&th, NULL, pt_idle_thread, &s), 0);
	tid = pt_sync_get(&s, 10000);
	ck_assert_int_gt(tid, 0);
	ck_assert_int_ne(tid, getpid());

	/* As pidfd_open(2): a thread ID only with PIDFD_THREAD ... */
	ck_assert_errno(pt_open(tid, 0), pt_kernel_tid_open_errno(tid));
	ck_assert_errno(pt_open(tid, PIDFD_NONBLOCK),
			pt_kernel_tid_open_errno(tid));

	/* ... with which it names the thread. */
	fd = pt_open_ok(tid, PIDFD_THREAD);
	ck_assert_ok(pt_fdinfo_field(NULL, 0, fd, "Pid:", buf, sizeof(buf)));
	ck_assert_msg(atoi(buf) == tid, "fdinfo Pid: %s, want tid %d", buf, tid);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_EXCL, O_EXCL);
	close(fd);

	/* The thread-group leader with PIDFD_THREAD. */
	close(pt_open_ok(getpid(), PIDFD_THREAD));
}
END_TEST

START_TEST(open_cloexec_and_flags)
{
	static const unsigned int all[] = {
		0, PIDFD_NONBLOCK, PIDFD_THREAD, PIDFD_NONBLOCK | PIDFD_THREAD,
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		int fd = pt_open_ok(getpid(), all[i]);
		int fdfl = fcntl(fd, F_GETFD);
		int fl = fcntl(fd, F_GETFL);

		ck_assert_msg(fdfl >= 0 && (fdfl & FD_CLOEXEC),
			      "flags %#x: pidfd not close-on-exec (F_GETFD %d)",
			      all[i], fdfl);
		ck_assert_msg(fl >= 0, "F_GETFL: %m");
		ck_assert_msg(!!(fl & O_NONBLOCK) == !!(all[i] & PIDFD_NONBLOCK),
			      "flags %#x: F_GETFL %#x has wrong O_NONBLOCK",
			      all[i], fl);
		ck_assert_msg(!!(fl & O_EXCL) == !!(all[i] & PIDFD_THREAD),
			      "flags %#x: F_GETFL %#x has wrong O_EXCL",
			      all[i], fl);
		close(fd);
	}
}
END_TEST

START_TEST(open_anon_inode_name)
{
	int fd = pt_open_ok(getpid(), 0);
	char buf[256];
	ssize_t n;

	n = pt_fd_link(fd, buf, sizeof(buf));
	ck_assert_msg(n > 0, "readlink of fd %d: %m", fd);
	ck_assert_str_eq(buf, "anon_inode:[pidfd]");
	close(fd);
}
END_TEST

START_TEST(open_extensible)
{
	struct {
		struct pidfd_open_args a;
		uint64_t tail;
	} big = { { .pid = getpid(), .flags = 0 }, 0 };
	struct pidfd_open_args small = { .pid = getpid() };
	int dev, fd;

	ck_assert_int_eq(sizeof(struct pidfd_open_args), PIDFD_OPEN_ARGS_SIZE_VER0);
	ck_assert_int_eq(PIDFD_DEV_OPEN, PT_OPEN_CMD(PIDFD_OPEN_ARGS_SIZE_VER0));
	dev = pt_dev();
	ck_assert_msg(dev >= 0, "open " PT_DEV_PATH ": %m");

	/* A larger struct with a zero tail: accepted. */
	fd = ioctl(dev, PT_OPEN_CMD(sizeof(big)), &big);
	ck_assert_msg(fd >= 0, "16-byte struct, zero tail: %s", pt_errname(errno));
	close(fd);

	/* Non-zero tail: E2BIG. */
	big.tail = 1;
	ck_assert_errno(ioctl(dev, PT_OPEN_CMD(sizeof(big)), &big), E2BIG);
	big.tail = 1ull << 63;
	ck_assert_errno(ioctl(dev, PT_OPEN_CMD(sizeof(big)), &big), E2BIG);

	/* Smaller than VER0: EINVAL. */
	ck_assert_errno(ioctl(dev, PT_OPEN_CMD(4), &small), EINVAL);
	ck_assert_errno(ioctl(dev, PT_OPEN_CMD(0), &small), EINVAL);

	/* Size is checked before the flags are. */
	big.tail = 1;
	big.a.flags = 1;
	ck_assert_errno(ioctl(dev, PT_OPEN_CMD(sizeof(big)), &big), E2BIG);
}
END_TEST

START_TEST(open_emfile)
{
	struct rlimit rl = { 16, 16 };
	int i, fd = -1;

	ck_assert_ok(pt_dev());
	ck_assert_ok(setrlimit(RLIMIT_NOFILE, &rl));
	for (i = 0; i < 32; i++) {
		fd = pt_open(getpid(), 0);
		if (fd < 0)
			break;
	}
	ck_assert_msg(fd < 0 && errno == EMFILE,
		      "expected EMFILE with RLIMIT_NOFILE 16, got %d/%s", fd,
		      pt_errname(errno));
}
END_TEST

START_TEST(pidfd_unknown_ioctl)
{
	struct pidfd_open_args oa = { .pid = getpid() };
	struct termios t;
	int fd = pt_open_ok(getpid(), 0);

	ck_assert_errno(ioctl(fd, _IO(PIDFD_DEV_IOC_MAGIC, 99), 0), ENOTTY);
	ck_assert_errno(ioctl(fd, PIDFD_DEV_OPEN, &oa), ENOTTY);
	ck_assert_errno(ioctl(fd, TCGETS, &t), ENOTTY);
	ck_assert_errno(ioctl(fd, _IO(PIDFS_IOCTL_MAGIC, 200), 0), ENOTTY);
	/* PIDFD_GET_INFO's number with another type. */
	ck_assert_errno(ioctl(fd, _IOWR(0xFE, 11, struct pidfd_dev_info), &t),
			ENOTTY);
	close(fd);
}
END_TEST

START_TEST(pidfd_read_write)
{
	int fd = pt_open_ok(getpid(), 0);
	char buf[16] = "x";

	ck_assert_errno(read(fd, buf, sizeof(buf)), EINVAL);
	ck_assert_errno(write(fd, buf, 1), EINVAL);
	close(fd);
	fd = pt_open_ok(getpid(), PIDFD_NONBLOCK);
	ck_assert_errno(read(fd, buf, sizeof(buf)), EINVAL);
	close(fd);
}
END_TEST

static Suite *open_suite(void)
{
	Suite *s = suite_create("open");

	pt_add_tests(pt_tcase(s, "device"), dev_node, dev_unprivileged,
		     dev_unknown_ioctl, dev_is_pidfd);

	pt_add_tests(pt_tcase(s, "errors"), open_efault, open_flag_1,
		     open_unknown_flags, open_invalid_pid, open_check_order,
		     open_esrch_unknown, open_esrch_reaped, open_extensible,
		     open_emfile);

	pt_add_tests(pt_tcase(s, "success"), open_self, open_child_and_zombie,
		     open_thread, open_cloexec_and_flags, open_anon_inode_name);

	pt_add_tests(pt_tcase(s, "pidfd file"), pidfd_unknown_ioctl,
		     pidfd_read_write);
	return s;
}

int main(void)
{
	return pt_main(open_suite());
}
