// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every libpidfd call that takes a pidfd, given what is not one: a
 * negative number, a closed fd, a pipe (with data to read, so that poll(2)
 * reports it readable) and a /proc/<pid> directory. Each answers as the
 * kernel's own call for the same arguments does (measured here, on this
 * kernel), and where there is no such call (wait_exit, getpid, the
 * conversions) with EBADF, "not a pidfd". Every row runs under each
 * backend (auto, native, module), with the module loaded.
 *
 * Found wrong in the library before issue 34 (these rows failed):
 * get_info, exit_status and get_namespace on a pipe or a /proc directory
 * (EBADF, where the ioctl says ENOTTY); wait_exit on a pipe with data or
 * a /proc directory ("exited"), and -1 (it waited for ever); get_procfd
 * and open_procdir on a pipe (EBADF, where the module's ioctl says
 * ENOTTY); waitid(-1) (EBADF, where waitid(P_PIDFD) says EINVAL); an
 * unknown namespace command (EINVAL, where the kernel says ENOTTY).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpidfd.h>

#include "pidfd_test.h"

enum bad { BAD_NEGATIVE, BAD_CLOSED, BAD_PIPE, BAD_PROCDIR, NBAD };

static const char *const bad_names[NBAD] = {
	"-1", "a closed fd", "a pipe with data", "a /proc/<pid> directory",
};

/* The fd of kind @b; *@other is a second fd to close after (or -1). */
static int make_bad(enum bad b, int *other)
{
	int fds[2], fd;

	*other = -1;
	switch (b) {
	case BAD_NEGATIVE:
		return -1;
	case BAD_CLOSED:
		/* High: not the number the call's own open() gets next. */
		fd = ck_assert_ok(fcntl(0, F_DUPFD_CLOEXEC, 900));
		close(fd);
		return fd;
	case BAD_PIPE:
		ck_assert_int_eq(pipe2(fds, O_CLOEXEC), 0);
		ck_assert_int_eq(write(fds[1], "x", 1), 1);
		*other = fds[1];
		return fds[0];
	case BAD_PROCDIR:
		return ck_assert_ok(open("/proc/self", O_RDONLY | O_DIRECTORY |
					 O_CLOEXEC));
	default:
		ck_abort();
	}
}

static int procroot = -1;

/* ---- the calls, and the kernel's own call for the same arguments ---- */

static int lib_send_signal(int fd)
{
	return libpidfd_send_signal(fd, 0, NULL, 0);
}

static int raw_send_signal(int fd)
{
	return (int)syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0);
}

static int lib_get_info(int fd)
{
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };

	return libpidfd_get_info(fd, &info, sizeof(info));
}

static int raw_get_info(int fd)
{
	struct pidfd_dev_info info = { .mask = PIDFD_INFO_PID };

	return ioctl(fd, PIDFD_DEV_GET_INFO, &info);
}

static int lib_exit_status(int fd)
{
	int status;

	return libpidfd_exit_status(fd, &status);
}

static int lib_get_namespace(int fd)
{
	return libpidfd_get_namespace(fd, PIDFD_GET_UTS_NAMESPACE);
}

static int raw_get_namespace(int fd)
{
	return ioctl(fd, PIDFD_GET_UTS_NAMESPACE, 0);
}

static int lib_waitid(int fd)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return libpidfd_waitid(fd, &si, WEXITED | WNOHANG);
}

static int raw_waitid(int fd)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PIDFD, (id_t)fd, &si, WEXITED | WNOHANG);
}

static int lib_get_procfd(int fd)
{
	return libpidfd_get_procfd(fd, procroot);
}

static int lib_open_procdir(int fd)
{
	return libpidfd_open_procdir(fd);
}

static int lib_wait_exit(int fd)
{
	return libpidfd_wait_exit(fd, 0);
}

static int lib_getpid(int fd)
{
	return libpidfd_getpid(fd);
}

static int lib_backend(int fd)
{
	return libpidfd_pidfd_backend(fd);
}

static int lib_to_native(int fd)
{
	return libpidfd_to_native(fd);
}

static int lib_to_module(int fd)
{
	return libpidfd_to_module(fd);
}

static const struct row {
	const char *name;
	int (*lib)(int fd);
	int (*raw)(int fd);	/* the kernel's call, or NULL: want[] */
	int want[NBAD];		/* errno without a kernel call */
	bool returns_fd;
} rows[] = {
	{ "libpidfd_send_signal", lib_send_signal, raw_send_signal, {0}, false },
	{ "libpidfd_get_info", lib_get_info, raw_get_info, {0}, false },
	{ "libpidfd_exit_status", lib_exit_status, raw_get_info, {0}, false },
	{ "libpidfd_get_namespace", lib_get_namespace, raw_get_namespace,
	  {0}, true },
	{ "libpidfd_waitid", lib_waitid, raw_waitid, {0}, false },
	/* The module's ioctl (no kernel has one): ENOTTY from other files. */
	{ "libpidfd_get_procfd", lib_get_procfd, NULL,
	  { EBADF, EBADF, ENOTTY, ENOTTY }, true },
	{ "libpidfd_open_procdir", lib_open_procdir, NULL,
	  { EBADF, EBADF, ENOTTY, ENOTTY }, true },
	/* Not poll(2), which ignores -1 (and so waited for ever). */
	{ "libpidfd_wait_exit", lib_wait_exit, NULL,
	  { EBADF, EBADF, EBADF, EBADF }, false },
	{ "libpidfd_getpid", lib_getpid, NULL,
	  { EBADF, EBADF, EBADF, EBADF }, false },
	{ "libpidfd_pidfd_backend", lib_backend, NULL,
	  { EBADF, EBADF, EBADF, EBADF }, false },
	{ "libpidfd_to_native", lib_to_native, NULL,
	  { EBADF, EBADF, EBADF, EBADF }, true },
	{ "libpidfd_to_module", lib_to_module, NULL,
	  { EBADF, EBADF, EBADF, EBADF }, true },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static const int backends[] = {
	LIBPIDFD_BACKEND_AUTO, LIBPIDFD_BACKEND_NATIVE, LIBPIDFD_BACKEND_MODULE,
};
static const char *const backend_names[] = { "auto", "native", "module" };

#define NBACKENDS 3

/* _i: row, bad fd and backend. */
START_TEST(bad_fd)
{
	const struct row *row = &rows[_i / (NBAD * NBACKENDS)];
	enum bad b = (enum bad)(_i / NBACKENDS % NBAD);
	int backend = backends[_i % NBACKENDS];
	int fd, other, ret, err, want_ret, want;

	ck_assert_int_eq(libpidfd_set_backend(backend), 0);
	procroot = ck_assert_ok(open("/proc", O_RDONLY | O_DIRECTORY |
				     O_CLOEXEC));
	fd = make_bad(b, &other);
	if (row->raw) {
		errno = 0;
		want_ret = row->raw(fd);
		want = want_ret < 0 ? errno : 0;
		if (want_ret >= 0 && row->returns_fd)
			close(want_ret);
	} else {
		want = row->want[b];
	}
	errno = 0;
	ret = row->lib(fd);
	err = ret < 0 ? errno : 0;
	if (ret >= 0 && row->returns_fd)
		close(ret);
	ck_assert_msg(err == want && (ret < 0) == (want != 0),
		      "%s(%s), %s backend: %d/%s, want %s%s", row->name,
		      bad_names[b], backend_names[_i % NBACKENDS], ret,
		      err ? pt_errname(err) : "-", want ? "-1/" : "success",
		      want ? pt_errname(want) : "");
	if (fd >= 0)
		close(fd);
	if (other >= 0)
		close(other);
	close(procroot);
}
END_TEST

/*
 * A command that is not a namespace ioctl is refused without being sent,
 * as the kernel refuses it: EBADF for an fd that is not open (the kernel
 * looks the fd up first), ENOTTY for any open file, a pidfd too.
 */
START_TEST(namespace_unknown_command)
{
	static const unsigned int cmds[] = {
		0, PIDFD_DEV_GET_INFO, _IO(PIDFS_IOCTL_MAGIC, 11),
	};
	int fds[2], self;
	size_t i;

	ck_assert_int_eq(libpidfd_set_backend(backends[_i]), 0);
	ck_assert_int_eq(pipe2(fds, O_CLOEXEC), 0);
	self = ck_assert_ok(libpidfd_open(getpid(), 0));
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		ck_assert_errno(libpidfd_get_namespace(-1, cmds[i]), EBADF);
		ck_assert_errno(libpidfd_get_namespace(fds[0], cmds[i]),
				ENOTTY);
		ck_assert_errno(libpidfd_get_namespace(self, cmds[i]), ENOTTY);
		ck_assert_errno(libpidfd_get_namespace(PIDFD_SELF_THREAD_GROUP,
						       cmds[i]), ENOTTY);
	}
	close(self);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("libpidfd_errno");
	TCase *tc = pt_tcase(s, "libpidfd_errno");

	tcase_add_loop_test(tc, bad_fd, 0, (int)(NROWS * NBAD * NBACKENDS));
	tcase_add_loop_test(tc, namespace_unknown_command, 0, NBACKENDS);
	return pt_main(s);
}
