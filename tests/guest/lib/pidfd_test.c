// SPDX-License-Identifier: GPL-2.0
/* Shared helpers for the guest test suites: see pidfd_test.h. */
#include "pidfd_test.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

int pt_open_ok(pid_t pid, unsigned int flags)
{
	int fd;

	errno = 0;
	if (pt_dev() < 0)
		ck_abort_msg("cannot open " PT_DEV_PATH ": %s (is the module loaded?)",
			     pt_errname(errno));
	fd = pt_open(pid, flags);
	ck_assert_msg(fd >= 0, "PIDFD_DEV_OPEN(%d, %#x) failed: %s", pid,
		      flags, pt_errname(errno));
	return fd;
}

void pt_wait_exited(pid_t pid)
{
	for (int i = 0; i < 2000 && pt_alive(pid); i++)
		usleep(5000);
	ck_assert_msg(!pt_alive(pid), "%d did not exit", pid);
}

int pt_open_reaped_recycled(void)
{
	pid_t pid = pt_fork_exit_at(PT_PID_RECYCLE, 0);
	int fd;

	PT_REQUIRE(pid == PT_PID_RECYCLE, "got pid %d\n", pid);
	fd = pt_open(pid, 0);
	PT_REQUIRE(fd >= 0, "open: %s\n", pt_errname(errno));
	PT_REQUIRE(pt_reap(pid) == 0, "reap\n");
	return fd;
}

void pt_unshare_pidns(void)
{
	ck_assert_msg(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
}

int pt_kernel_tid_open_errno(pid_t tid)
{
	int fd;

	errno = 0;
	fd = (int)syscall(SYS_pidfd_open, tid, 0);
	ck_assert_msg(fd < 0, "pidfd_open(tid %d, 0) worked", tid);
	return errno;
}

bool pt_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(sscanf(u.release, "%d.%d", &ma, &mi), 2);
	return ma > major || (ma == major && mi >= minor);
}

int pt_reaped_open_errno(void)
{
	return pt_kernel_at_least(6, 15) ? ESRCH : EINVAL;
}

bool pt_open_gone_errno(int err)
{
	return err == ESRCH || err == pt_reaped_open_errno() ||
	       err == (pt_kernel_at_least(6, 15) ? ENOENT : EINVAL);
}

static void *exec_thread_main(void *arg)
{
	struct pt_exec_child *c = arg;
	int delay;

	/* Kept across the exec: the new program dies with the test too. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pt_sync_put(&c->ready, pt_gettid());
	delay = pt_sync_get(&c->exec, -1);
	if (delay > 0)
		usleep((useconds_t)delay * 1000);
	execl("/bin/sleep", "sleep", "30", (char *)NULL);
	_exit(3);
}

void pt_fork_exec_child(struct pt_exec_child *c)
{
	pt_sync_init(&c->ready);
	pt_sync_init(&c->leave);
	pt_sync_init(&c->exec);
	c->pid = pt_fork();
	if (c->pid == 0) {
		pthread_t th;
		int code;

		if (pthread_create(&th, NULL, exec_thread_main, c))
			_exit(2);
		code = pt_sync_get(&c->leave, -1);
		if (code >= 0)
			syscall(SYS_exit, code);
		for (;;)
			pause();
	}
	ck_assert_int_gt(c->pid, 0);
	c->tid = pt_sync_get(&c->ready, 10000);
	ck_assert_msg(c->tid > 0, "the exec thread did not start");
}

void pt_exec_child_leader_exit(struct pt_exec_child *c, int code)
{
	pt_sync_put(&c->leave, code);
	pt_wait_exited(c->pid);
}

void pt_exec_child_exec(struct pt_exec_child *c, int delay_ms)
{
	pt_sync_put(&c->exec, delay_ms);
}

void pt_exec_child_end(struct pt_exec_child *c)
{
	pt_kill_reap(c->pid);
	pt_sync_close(&c->ready);
	pt_sync_close(&c->leave);
	pt_sync_close(&c->exec);
}

void pt_assert_status_pid(int procdir, pid_t pid)
{
	char buf[4096], want[32];
	int st = openat(procdir, "status", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	ck_assert_int_ge(st, 0);
	n = read(st, buf, sizeof(buf) - 1);
	close(st);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "\nPid:\t%d\n", pid);
	ck_assert_msg(strstr(buf, want), "no '%s' in:\n%s", want + 1, buf);
}

void pt_assert_uids(const struct pidfd_dev_info *info, uid_t r, uid_t e,
		    uid_t s)
{
	ck_assert_uint_eq(info->ruid, r);
	ck_assert_uint_eq(info->euid, e);
	ck_assert_uint_eq(info->suid, s);
	ck_assert_uint_eq(info->fsuid, e);
}

void pt_assert_gids(const struct pidfd_dev_info *info, gid_t r, gid_t e,
		    gid_t s)
{
	ck_assert_uint_eq(info->rgid, r);
	ck_assert_uint_eq(info->egid, e);
	ck_assert_uint_eq(info->sgid, s);
	ck_assert_uint_eq(info->fsgid, e);
}
