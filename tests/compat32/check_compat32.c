// SPDX-License-Identifier: GPL-2.0
/*
 * The module's ioctls from a 32-bit process on a 64-bit kernel (i386 on
 * amd64, armhf on arm64): every call goes through compat_ioctl, and the
 * siginfo of PIDFD_DEV_SEND_SIGNAL has the 32-bit layout.
 *
 * Built -static with i686-linux-gnu-gcc or arm-linux-gnueabihf-gcc. Check
 * is not available for those here, so this suite has its own minimal
 * runner: each case runs in a forked child, and the program exits non-zero
 * if any case fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/pidfd_dev.h>

static int failures;

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected %s (errno %d: %s)\n",	\
			__FILE__, __LINE__, #cond, errno, strerror(errno)); \
		_exit(1);						\
	}								\
} while (0)

static int dev_fd(void)
{
	int fd = open("/dev/pidfd", O_RDWR | O_CLOEXEC);

	EXPECT(fd >= 0);
	return fd;
}

static int open_pidfd(pid_t pid, unsigned int flags)
{
	struct pidfd_open_args args = { .pid = pid, .flags = flags };
	int dev = dev_fd(), fd;

	fd = ioctl(dev, PIDFD_DEV_OPEN, &args);
	close(dev);
	return fd;
}

static void test_open(void)
{
	int fd = open_pidfd(getpid(), 0);

	EXPECT(sizeof(void *) == 4);
	EXPECT(fd >= 0);
	EXPECT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT(open_pidfd(getpid(), 1) == -1 && errno == EINVAL);
	EXPECT(open_pidfd(-1, 0) == -1 && errno == EINVAL);
	EXPECT(ioctl(dev_fd(), PIDFD_DEV_OPEN, (void *)8) == -1 &&
	       errno == EFAULT);
	EXPECT(ioctl(fd, _IO(PIDFD_DEV_IOC_MAGIC, 99)) == -1 &&
	       errno == ENOTTY);
}

static void test_procfd(void)
{
	int fd = open_pidfd(getpid(), 0);
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY);
	struct stat a, b;
	char path[32];
	int dir;

	dir = ioctl(fd, PIDFD_GET_PROCFD, procfd);
	EXPECT(dir >= 0);
	snprintf(path, sizeof(path), "/proc/%d", getpid());
	EXPECT(fstat(dir, &a) == 0 && stat(path, &b) == 0);
	EXPECT(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	EXPECT(ioctl(fd, PIDFD_GET_PROCFD, 9999) == -1 && errno == EBADF);
	/* PIDFD_DEV_IS_PIDFD takes its fd by value too. */
	EXPECT(ioctl(dev_fd(), PIDFD_DEV_IS_PIDFD, fd) == 1);
	EXPECT(ioctl(dev_fd(), PIDFD_DEV_IS_PIDFD, dir) == 0);
	EXPECT(ioctl(dev_fd(), PIDFD_DEV_IS_PIDFD, 9999) == -1 &&
	       errno == EBADF);
}

static void test_info(void)
{
	int fd = open_pidfd(getpid(), 0);
	struct pidfd_info info;

	memset(&info, 0, sizeof(info));
	EXPECT(ioctl(fd, PIDFD_GET_INFO, &info) == 0);
	EXPECT(info.pid == (__u32)getpid() && info.tgid == (__u32)getpid());
	EXPECT(info.ppid == (__u32)getppid());
	EXPECT(info.ruid == getuid() && info.egid == getegid());
	EXPECT(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11,
			      PIDFD_INFO_SIZE_VER0), &info) == 0);
	EXPECT(ioctl(fd, PIDFD_GET_INFO, (void *)8) == -1 && errno == EFAULT);
}

/* A queued signal with a value, as the 32-bit siginfo_t carries it. */
static void test_sigqueue(void)
{
	int report[2];
	siginfo_t got, info;
	sigset_t set;
	struct pidfd_signal_args args;
	pid_t child;
	int fd, status;

	EXPECT(pipe(report) == 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	EXPECT(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
	child = fork();
	EXPECT(child >= 0);
	if (child == 0) {
		EXPECT(write(report[1], "r", 1) == 1);
		EXPECT(sigwaitinfo(&set, &got) == SIGUSR1);
		_exit(got.si_code == SI_QUEUE &&
		      got.si_value.sival_int == 4242 &&
		      got.si_pid == getppid() ? 0 : 3);
	}
	EXPECT(read(report[0], &status, 1) == 1);

	fd = open_pidfd(child, 0);
	EXPECT(fd >= 0);
	memset(&info, 0, sizeof(info));
	info.si_signo = SIGUSR1;
	info.si_code = SI_QUEUE;
	info.si_pid = getpid();
	info.si_uid = getuid();
	info.si_value.sival_int = 4242;
	memset(&args, 0, sizeof(args));
	args.sig = SIGUSR1;
	args.info = (__u64)(unsigned long)&info;
	EXPECT(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args) == 0);
	EXPECT(waitpid(child, &status, 0) == child);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* si_code SI_USER towards another process is refused. */
	child = fork();
	EXPECT(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	fd = open_pidfd(child, 0);
	info.si_code = SI_USER;
	EXPECT(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args) == -1 &&
	       errno == EPERM);
	args.info = 0;
	args.sig = SIGKILL;
	EXPECT(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args) == 0);
	EXPECT(waitpid(child, &status, 0) == child);
	EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static void test_poll_exit(void)
{
	struct pidfd_info info;
	struct pollfd pfd;
	pid_t child;
	int status;

	child = fork();
	EXPECT(child >= 0);
	if (child == 0)
		_exit(7);
	pfd.fd = open_pidfd(child, 0);
	pfd.events = POLLIN;
	EXPECT(pfd.fd >= 0);
	EXPECT(poll(&pfd, 1, 10000) == 1 && (pfd.revents & POLLIN));
	EXPECT(waitpid(child, &status, 0) == child);
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	EXPECT(ioctl(pfd.fd, PIDFD_GET_INFO, &info) == 0);
	EXPECT(info.mask & PIDFD_INFO_EXIT);
	EXPECT(WIFEXITED(info.exit_code) && WEXITSTATUS(info.exit_code) == 7);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "open", test_open },
	{ "procfd", test_procfd },
	{ "info", test_info },
	{ "sigqueue", test_sigqueue },
	{ "poll_exit", test_poll_exit },
};

int main(void)
{
	unsigned int i, n = sizeof(cases) / sizeof(cases[0]);

	for (i = 0; i < n; i++) {
		pid_t child = fork();
		int status;

		if (child == 0) {
			alarm(60);
			cases[i].fn();
			_exit(0);
		}
		if (child < 0 || waitpid(child, &status, 0) != child ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			printf("compat32: %s: FAIL\n", cases[i].name);
			failures++;
		} else {
			printf("compat32: %s: pass\n", cases[i].name);
		}
	}
	printf("compat32: %u cases, %u passed, %d failed\n", n, n - failures,
	       failures);
	return failures ? 1 : 0;
}
