// SPDX-License-Identifier: GPL-2.0
/*
 * The module's ioctls from a 32-bit process on a 64-bit kernel (i386 on
 * amd64, armhf on arm64): every call goes through compat_ioctl, and the
 * siginfo of PIDFD_DEV_SEND_SIGNAL has the 32-bit layout.
 *
 * Built -static with i686-linux-gnu-gcc or arm-linux-gnueabihf-gcc. Check
 * is not available for those here, so this suite has its own minimal
 * runner over the Check-free helpers of tests/lib: each case runs in a
 * pt_run() child, and the program exits non-zero if any case fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pt_ioctl.h"
#include "pt_process.h"

/* Every case runs as a pt_run() child: a failed expectation ends it. */
#define EXPECT(cond) PT_REQUIRE(cond, "errno %s\n", pt_errname(errno))

static void test_open(void)
{
	int fd = pt_open(getpid(), 0);

	EXPECT(sizeof(void *) == 4);
	EXPECT(fd >= 0);
	EXPECT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT(pt_open(getpid(), 1) == -1 && errno == EINVAL);
	EXPECT(pt_open(-1, 0) == -1 && errno == EINVAL);
	EXPECT(ioctl(pt_dev(), PIDFD_DEV_OPEN, (void *)8) == -1 &&
	       errno == EFAULT);
	EXPECT(ioctl(fd, _IO(PIDFD_DEV_IOC_MAGIC, 99)) == -1 &&
	       errno == ENOTTY);
}

static void test_procfd(void)
{
	int fd = pt_open(getpid(), 0);
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
	EXPECT(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, fd) == 1);
	EXPECT(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, dir) == 0);
	EXPECT(ioctl(pt_dev(), PIDFD_DEV_IS_PIDFD, 9999) == -1 &&
	       errno == EBADF);
}

static void test_info(void)
{
	int fd = pt_open(getpid(), 0);
	struct pidfd_dev_info info;

	memset(&info, 0, sizeof(info));
	EXPECT(ioctl(fd, PIDFD_DEV_GET_INFO, &info) == 0);
	EXPECT(info.pid == (__u32)getpid() && info.tgid == (__u32)getpid());
	EXPECT(info.ppid == (__u32)getppid());
	EXPECT(info.ruid == getuid() && info.egid == getegid());
	EXPECT(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11,
			      PIDFD_INFO_SIZE_VER0), &info) == 0);
	EXPECT(ioctl(fd, PIDFD_DEV_GET_INFO, (void *)8) == -1 &&
	       errno == EFAULT);
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
	child = pt_fork();
	EXPECT(child >= 0);
	if (child == 0) {
		EXPECT(write(report[1], "r", 1) == 1);
		EXPECT(sigwaitinfo(&set, &got) == SIGUSR1);
		_exit(got.si_code == SI_QUEUE &&
		      got.si_value.sival_int == 4242 &&
		      got.si_pid == getppid() ? 0 : 3);
	}
	EXPECT(read(report[0], &status, 1) == 1);

	fd = pt_open(child, 0);
	EXPECT(fd >= 0);
	pt_siginfo(&info, SIGUSR1, SI_QUEUE, 4242);
	memset(&args, 0, sizeof(args));
	args.sig = SIGUSR1;
	args.info = (__u64)(unsigned long)&info;
	EXPECT(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args) == 0);
	EXPECT(pt_reap(child) == 0);

	/* si_code SI_USER towards another process is refused. */
	child = pt_fork_sleeper();
	EXPECT(child >= 0);
	fd = pt_open(child, 0);
	info.si_code = SI_USER;
	EXPECT(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args) == -1 &&
	       errno == EPERM);
	args.info = 0;
	args.sig = SIGKILL;
	EXPECT(ioctl(fd, PIDFD_DEV_SEND_SIGNAL, &args) == 0);
	EXPECT(pt_reap(child) == 128 + SIGKILL);
}

static void test_poll_exit(void)
{
	struct pidfd_dev_info info;
	struct pollfd pfd;
	pid_t child;

	child = pt_fork_exit(7);
	EXPECT(child >= 0);
	pfd.fd = pt_open(child, 0);
	pfd.events = POLLIN;
	EXPECT(pfd.fd >= 0);
	EXPECT(poll(&pfd, 1, 10000) == 1 && (pfd.revents & POLLIN));
	EXPECT(pt_reap(child) == 7);
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT;
	EXPECT(ioctl(pfd.fd, PIDFD_DEV_GET_INFO, &info) == 0);
	EXPECT(info.mask & PIDFD_INFO_EXIT);
	EXPECT(WIFEXITED(info.exit_code) && WEXITSTATUS(info.exit_code) == 7);
}

/*
 * fstat() of a pidfd from a program built without _FILE_OFFSET_BITS=64
 * (this one): its 32-bit st_ino holds the identity only while the number
 * fits (docs/abi.md, "Identity"), else EOVERFLOW, as for any file; the
 * 64-bit call always works and agrees.
 */
static void test_fstat(void)
{
	int fd = pt_open(getpid(), 0);
	struct stat64 st64;
	struct stat st;
	int ret;

	EXPECT(sizeof(st.st_ino) == 4);
	EXPECT(fd >= 0 && fstat64(fd, &st64) == 0);
	errno = 0;
	ret = fstat(fd, &st);
	printf("compat32: identity %llu\n", (unsigned long long)st64.st_ino);
	if (st64.st_ino <= 0xffffffffULL)
		EXPECT(ret == 0 && st.st_ino == st64.st_ino);
	else
		EXPECT(ret == -1 && errno == EOVERFLOW);
}

static const struct compat_case {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "open", test_open },
	{ "procfd", test_procfd },
	{ "info", test_info },
	{ "sigqueue", test_sigqueue },
	{ "poll_exit", test_poll_exit },
	{ "fstat", test_fstat },
};

/* A pt_run() child: one case, which a hang may not stop. */
static int run_case(void *arg)
{
	const struct compat_case *c = arg;

	alarm(60);
	c->fn();
	return 0;
}

int main(void)
{
	unsigned int i, n = sizeof(cases) / sizeof(cases[0]);
	int failures = 0;

	for (i = 0; i < n; i++) {
		char msg[1024];
		int rc = pt_run(run_case, (void *)&cases[i], msg, sizeof(msg));

		printf("compat32: %s: %s%s", cases[i].name,
		       rc ? "FAIL " : "pass\n", rc ? msg : "");
		failures += rc != 0;
	}
	printf("compat32: %u cases, %u passed, %d failed\n", n, n - failures,
	       failures);
	return failures ? 1 : 0;
}
