// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The example of the 2019 cover letter ("pid: add pidfd_open()"), written
 * onto libpidfd's API, run step by step with each step asserted:
 *
 *	int pidfd = pidfd_open(1234, 0);
 *	int procfd = open("/proc", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
 *	int procpidfd = ioctl(pidfd, PIDFD_GET_PROCFD, procfd);
 *	int statusfd = openat(procpidfd, "status", O_RDONLY | O_CLOEXEC);
 *	int ret = read(statusfd, buf, sizeof(buf));
 *	ret = pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
 *
 * The target is a child made to have PID 1234 (through ns_last_pid, as
 * root in the VM); elsewhere it is whatever PID the child gets.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

/* pt_fork(): children without Check's signal handlers */
#include "pidfd_test.h"

#define SEED_PID 1234

/* Fork a child that sleeps until killed, as PID 1234 if we can. */
static pid_t fork_sleeper_as_1234(void)
{
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	pid_t pid;

	if (fd >= 0) {
		char last[16];
		int len = snprintf(last, sizeof(last), "%d", SEED_PID - 1);

		if (write(fd, last, (size_t)len) != len)
			perror("ns_last_pid");
		close(fd);
	}
	pid = pt_fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	ck_assert_int_ge(pid, 0);
	return pid;
}

START_TEST(cover_letter_example)
{
	char buf[4096], want[32];
	int pidfd, procfd, procpidfd, statusfd, ret, status;
	pid_t child = fork_sleeper_as_1234();

	if (child != SEED_PID)
		fprintf(stderr, "note: child is PID %d, not %d\n", child, SEED_PID);

	pidfd = libpidfd_open(child, 0);
	ck_assert_msg(pidfd >= 0, "libpidfd_open: %s", libpidfd_strerror(errno));
	ck_assert_int_eq(libpidfd_getpid(pidfd), child);

	procfd = open("/proc", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(procfd, 0);

	procpidfd = libpidfd_get_procfd(pidfd, procfd);
	ck_assert_msg(procpidfd >= 0, "PIDFD_GET_PROCFD: %s", strerror(errno));
	ck_assert_int_ne(fcntl(procpidfd, F_GETFD) & FD_CLOEXEC, 0);

	statusfd = openat(procpidfd, "status", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(statusfd, 0);

	ret = (int)read(statusfd, buf, sizeof(buf) - 1);
	ck_assert_int_gt(ret, 0);
	buf[ret] = '\0';
	snprintf(want, sizeof(want), "\nPid:\t%d\n", child);
	ck_assert_msg(strstr(buf, want), "no '%s' in:\n%s", want + 1, buf);
	snprintf(want, sizeof(want), "\nPPid:\t%d\n", getpid());
	ck_assert_msg(strstr(buf, want), "no '%s' in:\n%s", want + 1, buf);

	ret = libpidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	ck_assert_int_eq(ret, 0);

	/* And it did what the example says: the child died of SIGKILL. */
	ck_assert_int_eq(libpidfd_wait_exit(pidfd, 10000), 0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGKILL);
	ck_assert_int_eq(libpidfd_exit_status(pidfd, &ret), 0);
	ck_assert_int_eq(ret, status);

	/* The pidfd outlives the process and now says so. */
	errno = 0;
	ck_assert_int_eq(libpidfd_send_signal(pidfd, 0, NULL, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	errno = 0;
	ck_assert_int_eq(libpidfd_get_procfd(pidfd, procfd), -1);
	ck_assert_int_eq(errno, ESRCH);

	close(statusfd);
	close(procpidfd);
	close(procfd);
	close(pidfd);
}
END_TEST

/* The same with the raw ioctl of the example, on a library pidfd. */
START_TEST(cover_letter_raw_ioctl)
{
	int pidfd, procfd, procpidfd, status;
	pid_t child = fork_sleeper_as_1234();

	/* The ioctl is the module's: a pidfd of the module's kind. */
	ck_assert_int_eq(libpidfd_set_backend(LIBPIDFD_BACKEND_MODULE), 0);
	pidfd = libpidfd_open(child, 0);
	ck_assert_int_ge(pidfd, 0);
	procfd = open("/proc", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	procpidfd = ioctl(pidfd, PIDFD_GET_PROCFD, procfd);
	ck_assert_int_ge(procpidfd, 0);
	pt_assert_status_pid(procpidfd, child);
	ck_assert_int_eq(libpidfd_send_signal(pidfd, SIGKILL, NULL, 0), 0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(procpidfd);
	close(procfd);
	close(pidfd);
}
END_TEST

PT_SUITE_MAIN("seed_example", cover_letter_example, cover_letter_raw_ioctl)
