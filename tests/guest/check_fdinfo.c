// SPDX-License-Identifier: GPL-2.0
/*
 * The fdinfo of a pidfd (docs/abi.md "fdinfo"): Pid: and NSpid: in
 * upstream's format, as the pid namespace of the procfs instance read
 * through sees them; 0 where not visible, -1 once dead. Mirrors the
 * selftest pidfd_fdinfo_test.
 */
#include "pidfd_test.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>

static void expect_field(const char *procroot, pid_t holder, int fd,
			 const char *key, const char *want)
{
	char buf[256];

	ck_assert_msg(pt_fdinfo_field(procroot, holder, fd, key, buf, sizeof(buf)) == 0,
		      "no '%s' line in %s/%d/fdinfo/%d", key,
		      procroot ? procroot : "/proc", holder, fd);
	ck_assert_msg(strcmp(buf, want) == 0,
		      "%s/%d/fdinfo/%d: '%s%s', want '%s%s'",
		      procroot ? procroot : "/proc", holder, fd, key, buf, key, want);
}

static void status_nspid(pid_t pid, char *out, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	ck_assert_msg(pt_read_field(path, "NSpid:", out, len) == 0,
		      "no NSpid in %s", path);
}

START_TEST(fdinfo_self)
{
	int fd = pt_open_ok(getpid(), 0);
	char want[64], nspid[128];

	snprintf(want, sizeof(want), "\t%d", getpid());
	expect_field(NULL, getpid(), fd, "Pid:", want);
	status_nspid(getpid(), nspid, sizeof(nspid));
	expect_field(NULL, getpid(), fd, "NSpid:", nspid);
	/* and through /proc/self */
	expect_field(NULL, 0, fd, "Pid:", want);
	close(fd);
}
END_TEST

START_TEST(fdinfo_thread)
{
	char want[64];
	pid_t tid;
	int fd;

	tid = pt_start_idle_thread();
	ck_assert_int_gt(tid, 0);
	fd = pt_open_ok(tid, PIDFD_THREAD);
	snprintf(want, sizeof(want), "\t%d", tid);
	expect_field(NULL, getpid(), fd, "Pid:", want);
	close(fd);
}
END_TEST

START_TEST(fdinfo_zombie_and_dead)
{
	pid_t pid = pt_fork_exit(0);
	char want[64];
	int fd;

	fd = pt_open_ok(pid, 0);
	ck_assert_ok(pt_wait_zombie(pid));
	snprintf(want, sizeof(want), "\t%d", pid);
	expect_field(NULL, getpid(), fd, "Pid:", want);
	ck_assert_int_eq(pt_reap(pid), 0);
	expect_field(NULL, getpid(), fd, "Pid:", "\t-1");
	expect_field(NULL, getpid(), fd, "NSpid:", "\t-1");
	close(fd);
}
END_TEST

START_TEST(fdinfo_child_pidns)
{
	char want[64], nspid[128];
	pid_t pid;
	int fd;
	size_t l;

	pt_unshare_pidns();
	pid = pt_fork_sleeper();
	ck_assert_int_gt(pid, 0);
	fd = pt_open_ok(pid, 0);
	snprintf(want, sizeof(want), "\t%d", pid);
	expect_field(NULL, getpid(), fd, "Pid:", want);
	status_nspid(pid, nspid, sizeof(nspid));
	expect_field(NULL, getpid(), fd, "NSpid:", nspid);
	/* NSpid: \t<outer> ... \t1 */
	l = strlen(nspid);
	ck_assert_msg(l > 2 && strcmp(nspid + l - 2, "\t1") == 0 &&
		      strncmp(nspid, want, strlen(want)) == 0 &&
		      nspid[strlen(want)] == '\t',
		      "NSpid '%s' is not '%s...\\t1'", nspid, want);
	pt_kill_reap(pid);
	expect_field(NULL, getpid(), fd, "Pid:", "\t-1");
	expect_field(NULL, getpid(), fd, "NSpid:", "\t-1");
	close(fd);
}
END_TEST

/*
 * A child C is pid 1 of a new pid namespace and mounts that namespace's
 * procfs. It holds a pidfd for the test process (invisible in its
 * namespace), one for itself and one for its own child.
 */
struct nsview {
	char dir[64];
	pid_t c;
	int outer_fd;	/* pidfd for the test process, inherited by C */
	int self_fd;	/* C's pidfd for itself */
	int kid_fd;	/* C's pidfd for its child */
	pid_t kid_inner;
};

static void nsview_start(struct nsview *v)
{
	struct pt_sync s;

	ck_assert_msg(pt_private_mounts() == 0, "private mount ns: %m");
	ck_assert_ok(pt_tmpdir(v->dir, sizeof(v->dir)));
	v->outer_fd = pt_open_ok(getpid(), 0);
	pt_unshare_pidns();
	pt_sync_init(&s);
	v->c = pt_fork();
	if (v->c == 0) {
		pid_t kid;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (mount("proc", v->dir, "proc", 0, NULL) < 0)
			_exit(2);
		kid = pt_fork_sleeper();
		pt_sync_put(&s, pt_open(getpid(), 0));
		pt_sync_put(&s, pt_open(kid, 0));
		pt_sync_put(&s, kid);
		for (;;)
			pause();
	}
	ck_assert_int_ge(v->c, 0);
	v->self_fd = pt_sync_get(&s, 10000);
	v->kid_fd = pt_sync_get(&s, 10000);
	v->kid_inner = pt_sync_get(&s, 10000);
	ck_assert_msg(v->self_fd >= 0 && v->kid_fd >= 0 && v->kid_inner > 1,
		      "namespace child failed to start (%d %d %d)", v->self_fd,
		      v->kid_fd, v->kid_inner);
	pt_sync_close(&s);
}

START_TEST(fdinfo_not_visible)
{
	struct nsview v;

	nsview_start(&v);
	/* The test process does not exist in C's namespace. */
	expect_field(v.dir, 1, v.outer_fd, "Pid:", "\t0");
	expect_field(v.dir, 1, v.outer_fd, "NSpid:", "\t0");
	/* Through our own /proc it is there. */
	{
		char want[64];

		snprintf(want, sizeof(want), "\t%d", getpid());
		expect_field(NULL, v.c, v.outer_fd, "Pid:", want);
	}
	pt_kill_reap(v.c);
}
END_TEST

START_TEST(fdinfo_inner_view)
{
	struct nsview v;
	char want[64], nspid[128];
	pid_t kid_outer;

	nsview_start(&v);
	/* C's pidfd for itself, read through C's procfs: 1, one level. */
	expect_field(v.dir, 1, v.self_fd, "Pid:", "\t1");
	expect_field(v.dir, 1, v.self_fd, "NSpid:", "\t1");
	/* The same fd through the outer procfs: outer pid, then 1. */
	snprintf(want, sizeof(want), "\t%d", v.c);
	expect_field(NULL, v.c, v.self_fd, "Pid:", want);
	status_nspid(v.c, nspid, sizeof(nspid));
	expect_field(NULL, v.c, v.self_fd, "NSpid:", nspid);
	/* C's child: inner number inside, outer number outside. */
	snprintf(want, sizeof(want), "\t%d", v.kid_inner);
	expect_field(v.dir, 1, v.kid_fd, "Pid:", want);
	expect_field(v.dir, 1, v.kid_fd, "NSpid:", want);
	{
		char path[128], buf[64];

		snprintf(path, sizeof(path), "%s/%d/status", v.dir, v.kid_inner);
		ck_assert_ok(pt_read_field(path, "Pid:", buf, sizeof(buf)));
		ck_assert_int_eq(atoi(buf), v.kid_inner);
		/* find the outer pid of the kid from C's children list */
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", v.c, v.c);
		ck_assert_ok(pt_read_field(path, "", buf, sizeof(buf)));
		kid_outer = atoi(buf);
	}
	ck_assert_int_gt(kid_outer, 0);
	snprintf(want, sizeof(want), "\t%d", kid_outer);
	expect_field(NULL, v.c, v.kid_fd, "Pid:", want);
	status_nspid(kid_outer, nspid, sizeof(nspid));
	expect_field(NULL, v.c, v.kid_fd, "NSpid:", nspid);
	pt_kill_reap(v.c);
}
END_TEST

PT_SUITE_MAIN("fdinfo", fdinfo_self, fdinfo_thread, fdinfo_zombie_and_dead,
	      fdinfo_child_pidns, fdinfo_not_visible, fdinfo_inner_view)
