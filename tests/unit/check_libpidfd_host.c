// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libpidfd on the host, where the module is never loaded: the distinct
 * "module not loaded" error, and the functions that work on any pidfd
 * (poll, fdinfo, PIDFD_GET_INFO), exercised with the host kernel's own
 * pidfds as a stand-in for the module's (same ioctl number, same fdinfo
 * format, same anon-inode name). The VM suites cover the module's.
 *
 * glibc's <sys/pidfd.h> is included with <libpidfd.h> on purpose: a
 * program may use both, so the names must not clash.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/pt_sys_pidfd.h"
#include <libpidfd.h>
#include <linux/capability.h>
#include "../lib/check_glue.h"
#include "../lib/pt_kernel.h"

static bool module_absent(void)
{
	return access(LIBPIDFD_DEVICE, F_OK) != 0;
}

static int count_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

/* A child that sleeps until killed, and a kernel pidfd for it. */
static pid_t spawn_sleeper(int *pidfd)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	*pidfd = pidfd_open(pid, 0);	/* glibc's, the kernel's pidfd */
	ck_assert_int_ge(*pidfd, 0);
	return pid;
}

/* A child that exits with @code at once, and a kernel pidfd for it. */
static pid_t spawn_exiter(int code, int *pidfd)
{
	int sync[2];
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(sync), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Exit only once the parent holds a pidfd. */
		close(sync[1]);
		if (read(sync[0], &c, 1) < 0)
			_exit(100);
		_exit(code);
	}
	close(sync[0]);
	*pidfd = pidfd_open(pid, 0);
	ck_assert_int_ge(*pidfd, 0);
	close(sync[1]);
	return pid;
}

START_TEST(not_loaded_is_enopkg)
{
	int before;

	if (!module_absent())
		PT_SKIP("the module is loaded on this host: no ENOPKG to see");
	ck_assert_int_eq(libpidfd_set_backend(LIBPIDFD_BACKEND_MODULE), 0);
	before = count_open_fds();
	ck_assert_errno(libpidfd_probe(), ENOPKG);
	ck_assert_errno(libpidfd_open(getpid(), 0), ENOPKG);
	/* Asking again gives the same, and nothing is left open. */
	ck_assert_errno(libpidfd_open(1, 0), ENOPKG);
	ck_assert_int_eq(count_open_fds(), before);
}
END_TEST

START_TEST(strerror_texts)
{
	const char *text = libpidfd_strerror(ENOPKG);

	ck_assert(strstr(text, "pidfd kernel module is not loaded"));
	ck_assert(strstr(text, "modprobe pidfd"));
	ck_assert(strstr(text, "dkms install"));
	ck_assert_str_eq(libpidfd_strerror(ESRCH), strerror(ESRCH));
	ck_assert_str_eq(libpidfd_strerror(EBADF), strerror(EBADF));
	ck_assert_ptr_nonnull(libpidfd_strerror(123456));
	ck_assert(strstr(libpidfd_strerror(123456), "123456"));
	ck_assert_str_eq(libpidfd_version(), PIDFD_DKMS_VERSION);
}
END_TEST

/* The names LIBPIDFD_BACKEND takes, and nothing else. */
START_TEST(backend_by_name)
{
	ck_assert_int_eq(libpidfd_backend_by_name("auto"), LIBPIDFD_BACKEND_AUTO);
	ck_assert_int_eq(libpidfd_backend_by_name("native"),
			 LIBPIDFD_BACKEND_NATIVE);
	ck_assert_int_eq(libpidfd_backend_by_name("module"),
			 LIBPIDFD_BACKEND_MODULE);
	ck_assert_errno(libpidfd_backend_by_name("Auto"), EINVAL);
	ck_assert_errno(libpidfd_backend_by_name(""), EINVAL);
	ck_assert_errno(libpidfd_backend_by_name(NULL), EINVAL);
}
END_TEST

START_TEST(getpid_of_kernel_pidfd)
{
	int pidfd, status;
	pid_t pid = spawn_sleeper(&pidfd);

	ck_assert_int_eq(libpidfd_getpid(pidfd), pid);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	/* Reaped: fdinfo says -1, glibc's rule says ESRCH. */
	ck_assert_errno(libpidfd_getpid(pidfd), ESRCH);
	close(pidfd);
}
END_TEST

START_TEST(getpid_rejects_non_pidfds)
{
	int fds[2], efd, closed;

	ck_assert_errno(libpidfd_getpid(-1), EBADF);

	closed = dup(0);
	close(closed);
	ck_assert_errno(libpidfd_getpid(closed), EBADF);

	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_errno(libpidfd_getpid(fds[0]), EBADF);
	close(fds[0]);
	close(fds[1]);

	/* Another anon-inode file: its fdinfo is not a pidfd's. */
	efd = eventfd(0, EFD_CLOEXEC);
	ck_assert_int_ge(efd, 0);
	ck_assert_errno(libpidfd_getpid(efd), EBADF);
	close(efd);

	/* A /proc/<pid> directory is accepted by pidfd_send_signal(2), not here. */
	efd = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(efd, 0);
	ck_assert_errno(libpidfd_getpid(efd), EBADF);
	close(efd);
}
END_TEST

/* The helper of getpid_eremote could not make its namespaces. */
#define NO_NAMESPACES	77

/*
 * EREMOTE: the process is not visible in the pid namespace of /proc. A
 * child in a new pid and mount namespace mounts its own /proc and looks
 * at an inherited pidfd for its parent. Without CAP_SYS_ADMIN, in a user
 * namespace of its own, where the host allows that.
 */
START_TEST(getpid_eremote)
{
	int pidfd, status;
	pid_t helper;

	pidfd = pidfd_open(getpid(), 0);
	ck_assert_int_ge(pidfd, 0);
	helper = fork();
	ck_assert_int_ge(helper, 0);
	if (helper == 0) {
		pid_t inner;

		if (unshare(CLONE_NEWPID | CLONE_NEWNS) < 0 &&
		    unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS) < 0)
			_exit(NO_NAMESPACES);
		inner = fork();
		if (inner == 0) {
			/*
			 * /proc, not /: in a chroot / is no mount point; only
			 * the new procfs must not propagate.
			 */
			if (mount(NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
			    mount("proc", "/proc", "proc", 0, NULL) < 0)
				_exit(NO_NAMESPACES);
			errno = 0;
			if (libpidfd_getpid(pidfd) != -1)
				_exit(1);
			_exit(errno == EREMOTE ? 0 : 2);
		}
		if (inner < 0 || waitpid(inner, &status, 0) != inner)
			_exit(3);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 4);
	}
	ck_assert_int_eq(waitpid(helper, &status, 0), helper);
	close(pidfd);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == NO_NAMESPACES) {
		ck_assert_msg(!pt_has_cap(CAP_SYS_ADMIN),
			      "no namespaces for the helper, with CAP_SYS_ADMIN");
		PT_SKIP("no pid and mount namespace of our own here "
			"(no CAP_SYS_ADMIN, no user namespace)");
	}
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(wait_exit_times_out_then_sees_exit)
{
	int pidfd, status;
	pid_t pid = spawn_sleeper(&pidfd);
	int64_t start = pt_now_ms(), ms;

	ck_assert_errno(libpidfd_wait_exit(pidfd, 200), ETIMEDOUT);
	ms = pt_now_ms() - start;
	ck_assert_msg(ms >= 195 && ms < 1500, "waited %lld ms", (long long)ms);

	/* Zero timeout: a non-blocking check. */
	ck_assert_errno(libpidfd_wait_exit(pidfd, 0), ETIMEDOUT);

	kill(pid, SIGKILL);
	start = pt_now_ms();
	ck_assert_int_eq(libpidfd_wait_exit(pidfd, 5000), 0);
	ck_assert_int_lt(pt_now_ms() - start, 2000);
	/* Exited but not reaped: still POLLIN. */
	ck_assert_int_eq(libpidfd_wait_exit(pidfd, -1), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(libpidfd_wait_exit(pidfd, 0), 0);
	close(pidfd);
}
END_TEST

static void on_alarm(int sig)
{
	(void)sig;
}

/* A signal handler running during the wait does not cut it short. */
START_TEST(wait_exit_restarts_after_signal)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int pidfd, status;
	pid_t pid = spawn_sleeper(&pidfd);
	int64_t start, ms;

	sigaction(SIGALRM, &sa, NULL);
	ualarm(100000, 0);
	start = pt_now_ms();
	ck_assert_errno(libpidfd_wait_exit(pidfd, 400), ETIMEDOUT);
	ms = pt_now_ms() - start;
	ck_assert_msg(ms >= 395 && ms < 2000, "waited %lld ms", (long long)ms);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(pidfd);
}
END_TEST

START_TEST(wait_exit_bad_fd)
{
	/* poll() ignores negative fds: nothing happens, so it times out. */
	ck_assert_errno(libpidfd_wait_exit(-1, 0), EBADF);
	{
		int fd = dup(0);

		close(fd);
		ck_assert_errno(libpidfd_wait_exit(fd, 1000), EBADF);
	}
}
END_TEST

START_TEST(get_info_sizes)
{
	struct {
		struct pidfd_dev_info info;
		char tail[64];
	} big;
	struct pidfd_dev_info info;
	int pidfd = pidfd_open(getpid(), 0);
	int ret, err;

	ck_assert_int_ge(pidfd, 0);
	memset(&info, 0, sizeof(info));
	ret = libpidfd_get_info(pidfd, &info, sizeof(info));
	err = errno;
	if (ret < 0) {
		/*
		 * A host kernel before 6.13, no module: the library's
		 * refusal (docs/libpidfd.md's route table), and nothing more.
		 */
		close(pidfd);
		ck_assert_msg(err == ENOPKG, "%s, want ENOPKG", pt_errname(err));
	}
	PT_SKIP_UNLESS(ret == 0, pt_kernel_has_get_info(),
		       "PIDFD_GET_INFO on its own pidfds");
	ck_assert(info.mask & PIDFD_INFO_PID);
	ck_assert_uint_eq(info.pid, (unsigned)getpid());
	ck_assert_uint_eq(info.ppid, (unsigned)getppid());
	ck_assert_uint_eq(info.ruid, getuid());

	/* The smallest size works and fills the same. */
	memset(&info, 0, sizeof(info));
	ck_assert_int_eq(libpidfd_get_info(pidfd, &info, PIDFD_INFO_SIZE_VER0), 0);
	ck_assert_uint_eq(info.pid, (unsigned)getpid());

	/*
	 * Below it: the kernel's error, passed through (the module's
	 * EINVAL is checked in the VM; pidfs says ENOTTY, the command
	 * number not being one it knows).
	 */
	errno = 0;
	ck_assert_int_eq(libpidfd_get_info(pidfd, &info, PIDFD_INFO_SIZE_VER0 - 1), -1);
	ck_assert(errno == EINVAL || errno == ENOTTY);

	/* A larger struct, zero tail: accepted. */
	memset(&big, 0, sizeof(big));
	ck_assert_int_eq(libpidfd_get_info(pidfd, &big.info, sizeof(big)), 0);

	/* Beyond what an ioctl number can carry. */
	ck_assert_errno(libpidfd_get_info(pidfd, &info, 1 << 14), E2BIG);
	close(pidfd);
}
END_TEST

START_TEST(exit_status_after_reap)
{
	int pidfd, status, got = -1;
	pid_t pid;

	/* A kernel without it: only the refusal to check, then the skip. */
	if (!pt_kernel_has_info_exit()) {
		pid = spawn_exiter(7, &pidfd);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		errno = 0;
		ck_assert_int_eq(libpidfd_exit_status(pidfd, &got), -1);
		ck_assert_msg(errno == ESRCH || errno == ENOPKG, "%s",
			      strerror(errno));
		close(pidfd);
		PT_SKIP("this kernel keeps no exit status for its own pidfds "
			"(PIDFD_INFO_EXIT): only the refusal was checked");
	}
	pid = spawn_exiter(7, &pidfd);
	ck_assert_int_eq(libpidfd_wait_exit(pidfd, 5000), 0);
	/* Exited, not reaped: no status yet. */
	ck_assert_errno(libpidfd_exit_status(pidfd, &got), EAGAIN);
	ck_assert_int_eq(got, -1);

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(libpidfd_exit_status(pidfd, &got), 0);
	ck_assert_int_eq(got, status);
	ck_assert(WIFEXITED(got));
	ck_assert_int_eq(WEXITSTATUS(got), 7);
	close(pidfd);

	pid = spawn_sleeper(&pidfd);
	ck_assert_errno(libpidfd_exit_status(pidfd, &got), EAGAIN);
	kill(pid, SIGUSR2);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(libpidfd_exit_status(pidfd, &got), 0);
	ck_assert(WIFSIGNALED(got));
	ck_assert_int_eq(WTERMSIG(got), SIGUSR2);
	close(pidfd);
}
END_TEST

/* pidfd_open(2)'s EINVAL for flags no one knows, not "load the module". */
START_TEST(open_unknown_flags_einval)
{
	static const unsigned int bad[] = { 1, 0x10000, 1u << 31 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_errno(libpidfd_open(getpid(), bad[i]), EINVAL);
}
END_TEST

/*
 * The library's open makes the kernel's pidfd where the kernel keeps the
 * exit status, also before it says so (PIDFD_INFO_SUPPORTED_MASK, 6.19):
 * then the status of a reaped child is there without the module.
 */
START_TEST(open_native_where_exit_is_kept)
{
	int pidfd, status, got = -1;
	pid_t pid;

	if (!module_absent())
		PT_SKIP("the module is loaded on this host: check_backends "
			"covers it");
	if (!pt_kernel_has_info_exit())
		PT_SKIP("this kernel keeps no exit status for its own pidfds "
			"(PIDFD_INFO_EXIT)");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(9);
	pidfd = libpidfd_open(pid, 0);
	ck_assert_int_ge(pidfd, 0);
	ck_assert_int_eq(libpidfd_pidfd_backend(pidfd), LIBPIDFD_BACKEND_NATIVE);
	errno = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(libpidfd_exit_status(pidfd, &got) == 0, "%s",
		      strerror(errno));
	ck_assert_int_eq(got, status);
	ck_assert_int_eq(WEXITSTATUS(got), 9);
	close(pidfd);
}
END_TEST

START_TEST(bad_fds_pass_errno_through)
{
	struct pidfd_dev_info info = { 0 };
	int status;

	ck_assert_errno(libpidfd_get_info(-1, &info, sizeof(info)), EBADF);
	ck_assert_errno(libpidfd_exit_status(-1, &status), EBADF);
	ck_assert_errno(libpidfd_send_signal(-1, SIGTERM, NULL, 0), EBADF);
	ck_assert_errno(libpidfd_get_procfd(-1, AT_FDCWD), EBADF);
	ck_assert_errno(libpidfd_open_procdir(-1), EBADF);
	/* Not a pidfd at all: the ioctl is unknown to it. */
	{
		int fds[2];

		ck_assert_int_eq(pipe(fds), 0);
		ck_assert_errno(libpidfd_send_signal(fds[0], SIGTERM, NULL, 0), EBADF);
		ck_assert_errno(libpidfd_get_procfd(fds[0], AT_FDCWD), ENOTTY);
		close(fds[0]);
		close(fds[1]);
	}
	/* A negative signal: as the kernel, the fd is checked first. */
	ck_assert_errno(libpidfd_send_signal(0, -1, NULL, 0), EBADF);
	ck_assert_errno(libpidfd_send_signal(PIDFD_SELF_THREAD_GROUP, -1,
					      NULL, 0), EINVAL);
}
END_TEST

static Suite *host_suite(void)
{
	Suite *s = suite_create("libpidfd_host");
	TCase *tc = tcase_create("no_module");

	pt_add_tests(tc, not_loaded_is_enopkg, strerror_texts, backend_by_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("any_pidfd");
	tcase_set_timeout(tc, 20);
	pt_add_tests(tc, getpid_of_kernel_pidfd, getpid_rejects_non_pidfds,
		     getpid_eremote, wait_exit_times_out_then_sees_exit,
		     wait_exit_restarts_after_signal, wait_exit_bad_fd,
		     get_info_sizes, exit_status_after_reap,
		     bad_fds_pass_errno_through, open_unknown_flags_einval,
		     open_native_where_exit_is_kept);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return pt_main(host_suite());
}
