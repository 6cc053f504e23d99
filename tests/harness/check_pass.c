// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a Check suite that passes. It proves the VM harness
 * reports success when there is nothing to report, and that the guest
 * environment offers what the real suites rely on.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/check_glue.h"

static void run_in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fn());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status), "child died: status %#x", status);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}

/* In a new pid namespace the first child is 1, with a procfs of its own. */
static int fresh_procfs_pid1(void)
{
	char buf[32] = "";
	ssize_t n;
	int fd;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 10;
	if (mount("proc", "/proc", "proc", 0, NULL))
		return 11;
	fd = open("/proc/self/stat", O_RDONLY);
	if (fd < 0)
		return 12;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || strncmp(buf, "1 ", 2))
		return 13;
	/* Tests choose PIDs this way. */
	fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
	if (fd < 0 || write(fd, "100", 3) != 3)
		return 14;
	close(fd);
	return 0;
}

static int new_pidns_then_child(void)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWPID))
		return 20;
	pid = fork();
	if (pid < 0)
		return 21;
	if (pid == 0)
		_exit(fresh_procfs_pid1());
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 22;
	return WEXITSTATUS(status);
}

/* As an unprivileged user: a user namespace first, as a container would. */
static int userns_pidns_procfs(void)
{
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return 30;
	if (unshare(CLONE_NEWUSER))
		return 31;
	return new_pidns_then_child();
}

/*
 * /dev/pidfd opens once the module is loaded, and does not exist before
 * (programs run before the module is loaded, or without one).
 */
START_TEST(test_dev_pidfd_opens)
{
	int fd = open("/dev/pidfd", O_RDWR | O_CLOEXEC);

	if (access("/sys/module/pidfd", F_OK) == 0) {
		ck_assert_int_ge(fd, 0);
		close(fd);
	} else {
		ck_assert_int_eq(fd, -1);
		ck_assert_int_eq(errno, ENOENT);
	}
}
END_TEST

START_TEST(test_tmp_writable)
{
	int fd = open("/tmp/harness-probe", O_CREAT | O_WRONLY | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	ck_assert_int_eq(unlink("/tmp/harness-probe"), 0);
}
END_TEST

/* Tests drop privileges in forked children; the guest must allow that. */
START_TEST(test_can_drop_privileges)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(1);
		_exit(geteuid() == 65534 ? 0 : 2);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(test_pidns_with_fresh_procfs)
{
	run_in_child(new_pidns_then_child);
}
END_TEST

START_TEST(test_userns_pidns_with_fresh_procfs)
{
	run_in_child(userns_pidns_procfs);
}
END_TEST

PT_SUITE_MAIN("harness-pass", test_dev_pidfd_opens, test_tmp_writable,
	      test_can_drop_privileges, test_pidns_with_fresh_procfs,
	      test_userns_pidns_with_fresh_procfs)
