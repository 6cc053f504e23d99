// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a Check suite that passes. It proves the VM harness
 * reports success when there is nothing to report, and that the guest
 * environment offers what the real suites rely on.
 */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

START_TEST(test_dev_pidfd_opens)
{
	int fd = open("/dev/pidfd", O_RDWR | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	close(fd);
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

int main(void)
{
	Suite *s = suite_create("harness-pass");
	TCase *tc = tcase_create("env");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_dev_pidfd_opens);
	tcase_add_test(tc, test_tmp_writable);
	tcase_add_test(tc, test_can_drop_privileges);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
