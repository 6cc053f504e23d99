// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_GET_<TYPE>_NAMESPACE (docs/abi.md): every type against the
 * /proc/<pid>/ns link of the same process, setns(2) with the result, the
 * caller's credentials deciding (EACCES), exited, reaped and recycled
 * processes (ESRCH), the errors, and the kernel's own ioctls on a native
 * pidfd where the kernel has them (6.11).
 */
#include "pidfd_test.h"
#include "../lib/pt_ns.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/nsfs.h>

#include "pidfd_ns_kinds.h"

#define CHILD_HOSTNAME "pidfd-ns-child"

static int get_ns(int pidfd, unsigned int cmd)
{
	return ioctl(pidfd, cmd, 0);
}

/*
 * The inode the link /proc/<pid>[/task/<tid>]/ns/<name> names, read from
 * the link's text ("uts:[4026531838]"), as readlink(1) shows it.
 */
static ino_t link_inode(pid_t pid, pid_t tid, const char *name)
{
	char path[96];

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", pid,
			 tid, name);
	else
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, name);
	return pt_ns_link_inode(path);
}

/* Every type through @pidfd is the namespace its /proc link names. */
static void assert_each_type(int pidfd, pid_t pid, pid_t tid)
{
	unsigned int i;

	for (i = 0; i < PIDFD_NS_KINDS; i++) {
		const struct pidfd_ns_kind *t = &pidfd_ns_kinds[i];
		ino_t want = link_inode(pid, tid, t->name);
		int fd = get_ns(pidfd, t->cmd);

		if (!want) {
			/* The kernel lacks this kind: upstream's answer. */
			ck_assert_msg(fd == -1 && errno == EOPNOTSUPP,
				      "%s: no /proc link, ioctl gave %d/%s", t->name,
				      fd, pt_errname(errno));
			continue;
		}
		ck_assert_msg(fd >= 0, "%s of %d/%d: %s", t->name, pid, tid,
			      pt_errname(errno));
		ck_assert_msg(fcntl(fd, F_GETFD) == FD_CLOEXEC,
			      "%s: fd not close-on-exec", t->name);
		ck_assert_msg(pt_nsfd_inode(fd, 0) == want,
			      "%s of %d/%d: inode %lu, /proc says %lu", t->name,
			      pid, tid, (unsigned long)pt_nsfd_inode(fd, 0),
			      (unsigned long)want);
		close(fd);
	}
}

START_TEST(ns_self_every_type)
{
	int pidfd = pt_open_ok(getpid(), 0);

	assert_each_type(pidfd, getpid(), 0);
	close(pidfd);
}
END_TEST

/* A PIDFD_THREAD pidfd of another thread: that thread's namespaces. */
START_TEST(ns_thread_pidfd)
{
	pid_t tid;
	int pidfd;

	tid = pt_start_idle_thread();
	ck_assert_int_gt(tid, 0);
	pidfd = pt_open_ok(tid, PIDFD_THREAD);
	assert_each_type(pidfd, getpid(), tid);
	close(pidfd);
}
END_TEST

/*
 * A pause()ing child running as @uid, dumpable so that only its uid
 * decides; with @own_ns, in new uts, ipc and mount namespaces with its own
 * host name, and a user namespace of its own when not root.
 */
struct sleeper_as {
	uid_t uid;
	bool own_ns;
};

static int become_sleeper_as(void *arg)
{
	const struct sleeper_as *a = arg;
	int flags = CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNS |
		    (a->uid ? CLONE_NEWUSER : 0);

	if ((a->uid && pt_drop_privs(a->uid, a->uid) < 0) ||
	    prctl(PR_SET_DUMPABLE, 1) < 0)
		return 1;
	if (a->own_ns && (unshare(flags) < 0 ||
			  sethostname(CHILD_HOSTNAME,
				      strlen(CHILD_HOSTNAME)) < 0))
		return 1;
	return 0;
}

static pid_t fork_sleeper_as(uid_t uid, bool own_ns)
{
	struct sleeper_as a = { uid, own_ns };
	pid_t pid = pt_fork_prepared(become_sleeper_as, &a);

	ck_assert_msg(pid > 0, "child (uid %d) could not start%s", uid,
		      own_ns ? " in namespaces of its own" : "");
	return pid;
}

START_TEST(ns_child_every_type)
{
	pid_t child = fork_sleeper_as(0, true);
	int pidfd = pt_open_ok(child, 0), self = pt_open_ok(getpid(), 0);
	int mine = ck_assert_ok(get_ns(self, PIDFD_GET_UTS_NAMESPACE));
	int theirs = ck_assert_ok(get_ns(pidfd, PIDFD_GET_UTS_NAMESPACE));

	assert_each_type(pidfd, child, 0);
	ck_assert_msg(pt_nsfd_inode(mine, 0) != pt_nsfd_inode(theirs, 0),
		      "the child's uts namespace is the caller's");
	close(mine);
	close(theirs);
	close(self);
	close(pidfd);
	pt_kill_reap(child);
}
END_TEST

struct setns_arg {
	pid_t target;
	uid_t uid;		/* 0: stay root */
};

/* setns(2) with the fds the module gives: uname(2) shows the move. */
static int setns_main(void *arg)
{
	const struct setns_arg *a = arg;
	struct utsname u;
	int pidfd, userfd = -1, utsfd;

	if (a->uid)
		PT_CHECK(pt_drop_privs(a->uid, a->uid) == 0, "drop: %m");
	pidfd = pt_open(a->target, 0);
	PT_CHECK(pidfd >= 0, "open: %m");
	if (a->uid) {
		userfd = get_ns(pidfd, PIDFD_GET_USER_NAMESPACE);
		PT_CHECK(userfd >= 0, "user namespace: %m");
	}
	utsfd = get_ns(pidfd, PIDFD_GET_UTS_NAMESPACE);
	PT_CHECK(utsfd >= 0, "uts namespace: %m");
	PT_CHECK(uname(&u) == 0 && strcmp(u.nodename, CHILD_HOSTNAME),
		 "already in the child's uts namespace");
	if (a->uid)
		PT_CHECK(setns(userfd, CLONE_NEWUSER) == 0,
			 "setns(user): %m");
	PT_CHECK(setns(utsfd, CLONE_NEWUTS) == 0, "setns(uts): %m");
	PT_CHECK(uname(&u) == 0, "uname: %m");
	PT_CHECK(!strcmp(u.nodename, CHILD_HOSTNAME),
		 "after setns the host name is '%s', want '%s'", u.nodename,
		 CHILD_HOSTNAME);
	return 0;
}

START_TEST(ns_setns_root)
{
	struct setns_arg a = { fork_sleeper_as(0, true), 0 };

	pt_assert_child(setns_main, &a);
	pt_kill_reap(a.target);
}
END_TEST

/* Unprivileged: into its own child's user namespace, then its uts one. */
START_TEST(ns_setns_unprivileged)
{
	struct setns_arg a = { fork_sleeper_as(PT_USER, true), PT_USER };

	pt_assert_child(setns_main, &a);
	pt_kill_reap(a.target);
}
END_TEST

struct access_arg {
	pid_t target;
	int want;		/* 0 or the errno of every type */
};

/*
 * The kernel's own answer for @cmd on a native pidfd: 0 (an fd), an errno,
 * or -1 where the kernel has no such ioctls (before 6.11; ENOTTY from a
 * kernel that has them is an answer, which the module's will not match).
 */
static int native_answer(int native, unsigned int cmd)
{
	int fd = get_ns(native, cmd), err = errno;

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return err == ENOTTY && !pt_kernel_has_ns_ioctls() ? -1 : err;
}

/*
 * As uid 1000: each type of @target gives an fd, or fails with @want; and
 * the kernel's own ioctl answers the same where it has them.
 */
static int access_main(void *arg)
{
	const struct access_arg *a = arg;
	int pidfd, native, fd, err, theirs;
	unsigned int i;

	PT_CHECK(pt_drop_privs(PT_USER, PT_USER) == 0, "drop: %m");
	PT_CHECK(prctl(PR_SET_DUMPABLE, 1) == 0, "dumpable: %m");
	pidfd = pt_open(a->target, 0);
	PT_CHECK(pidfd >= 0, "open: %m");
	native = syscall(SYS_pidfd_open, a->target, 0);
	PT_CHECK(native >= 0, "pidfd_open: %m");
	for (i = 0; i < PIDFD_NS_KINDS; i++) {
		errno = 0;
		fd = get_ns(pidfd, pidfd_ns_kinds[i].cmd);
		err = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		theirs = native_answer(native, pidfd_ns_kinds[i].cmd);
		PT_CHECK(theirs < 0 || theirs == err,
			 "%s: module %s, kernel %s", pidfd_ns_kinds[i].name,
			 pt_errname(err), pt_errname(theirs));
		if (err == EOPNOTSUPP)
			continue;	/* not in this kernel */
		PT_CHECK(err == a->want, "%s: got %s, want %s",
			 pidfd_ns_kinds[i].name, pt_errname(err),
			 pt_errname(a->want));
	}
	return 0;
}

START_TEST(ns_access_decided_by_credentials)
{
	struct access_arg own = { fork_sleeper_as(PT_USER, false), 0 };
	struct access_arg root = { fork_sleeper_as(0, false), EACCES };
	struct access_arg other = { fork_sleeper_as(2000, false), EACCES };

	pt_assert_child(access_main, &own);
	pt_assert_child(access_main, &root);
	pt_assert_child(access_main, &other);
	pt_kill_reap(own.target);
	pt_kill_reap(root.target);
	pt_kill_reap(other.target);
}
END_TEST

START_TEST(ns_exited_and_reaped)
{
	pid_t pid = pt_fork_exit(0);
	int pidfd = pt_open_ok(pid, 0), native;
	unsigned int i;

	ck_assert_ok(pt_wait_zombie(pid));
	native = ck_assert_ok(syscall(SYS_pidfd_open, pid, 0));
	for (i = 0; i < PIDFD_NS_KINDS; i++) {
		int theirs = native_answer(native, pidfd_ns_kinds[i].cmd);

		ck_assert_errno(get_ns(pidfd, pidfd_ns_kinds[i].cmd), ESRCH);
		ck_assert_msg(theirs < 0 || theirs == ESRCH,
			      "%s of a zombie: the kernel says %s",
			      pidfd_ns_kinds[i].name, pt_errname(theirs));
	}
	close(native);
	ck_assert_int_eq(pt_reap(pid), 0);
	for (i = 0; i < PIDFD_NS_KINDS; i++)
		ck_assert_errno(get_ns(pidfd, pidfd_ns_kinds[i].cmd), ESRCH);
	/* Upstream looks for the task before the argument. */
	ck_assert_errno(ioctl(pidfd, PIDFD_GET_UTS_NAMESPACE, 1), ESRCH);
	close(pidfd);
}
END_TEST

/*
 * In a new pid ns: a pidfd for pid 1000, reaped, pid 1000 taken by a
 * process in a uts namespace of its own. Never that namespace: ESRCH.
 */
static int recycled_main(void *arg)
{
	pid_t decoy;
	int pidfd, fd;

	(void)arg;
	pidfd = pt_open_reaped_recycled();
	decoy = pt_fork_at(PT_PID_RECYCLE);
	if (decoy == 0) {
		if (unshare(CLONE_NEWUTS) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	PT_CHECK(decoy == PT_PID_RECYCLE, "failed to recycle pid %d (got %d)",
		 PT_PID_RECYCLE, decoy);
	errno = 0;
	fd = get_ns(pidfd, PIDFD_GET_UTS_NAMESPACE);
	PT_CHECK(fd < 0 && errno == ESRCH,
		 "recycled pid: got %d/%s, want ESRCH", fd, pt_errname(errno));
	kill(decoy, SIGKILL);
	pt_reap(decoy);
	return 0;
}

START_TEST(ns_recycled_pid)
{
	pt_assert_child_in_new_pidns(recycled_main, NULL);
}
END_TEST

START_TEST(ns_errors)
{
	int pidfd = pt_open_ok(getpid(), 0);

	ck_assert_errno(ioctl(pidfd, PIDFD_GET_UTS_NAMESPACE, 1), EINVAL);
	ck_assert_errno(ioctl(pidfd, PIDFD_GET_NET_NAMESPACE, pt_bad_ptr()),
			EINVAL);
	/* Numbers and directions around the ten. */
	ck_assert_errno(ioctl(pidfd, _IO(PIDFS_IOCTL_MAGIC, 0), 0), ENOTTY);
	ck_assert_errno(ioctl(pidfd, _IO(PIDFS_IOCTL_MAGIC, 12), 0), ENOTTY);
	ck_assert_errno(ioctl(pidfd, _IOR(PIDFS_IOCTL_MAGIC, 10, int), 0),
			ENOTTY);
	ck_assert_errno(ioctl(pidfd, _IO(PIDFD_DEV_IOC_MAGIC, 10), 0), ENOTTY);
	/* On the device, not a pidfd. */
	ck_assert_errno(ioctl(pt_dev(), PIDFD_GET_UTS_NAMESPACE, 0), ENOTTY);
	close(pidfd);
}
END_TEST

/* No free descriptor: EMFILE, as the kernel's ioctls and nsfs answer. */
START_TEST(ns_emfile)
{
	int pidfd = pt_open_ok(getpid(), 0);

	ck_assert_ok(pt_use_every_fd());
	ck_assert_errno(ioctl(pidfd, PIDFD_GET_UTS_NAMESPACE, 0), EMFILE);
	ck_assert_errno(ioctl(pidfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0),
			EMFILE);
}
END_TEST

/*
 * The kernel's own ioctls on a native pidfd (6.11+) give the same
 * namespace; older kernels answer ENOTTY, and only the module's are
 * checked (by the other tests): the test says it skipped.
 */
START_TEST(ns_native_differential)
{
	pid_t child = fork_sleeper_as(0, true);
	int native = syscall(SYS_pidfd_open, child, 0);
	int pidfd = pt_open_ok(child, 0);
	bool has = pt_kernel_has_ns_ioctls();
	unsigned int i, compared = 0;

	ck_assert_ok(native);
	for (i = 0; i < PIDFD_NS_KINDS; i++) {
		int nfd = get_ns(native, pidfd_ns_kinds[i].cmd), nerr = errno;
		int mfd = get_ns(pidfd, pidfd_ns_kinds[i].cmd), merr = errno;

		if (nfd < 0 && nerr == ENOTTY) {
			ck_assert_msg(!has, "%s: ENOTTY from a kernel that has "
				      "the namespace ioctls",
				      pidfd_ns_kinds[i].name);
			ck_assert_msg(mfd >= 0 || merr == EOPNOTSUPP,
				      "%s: module %s", pidfd_ns_kinds[i].name,
				      pt_errname(merr));
		} else if (nfd < 0) {
			ck_assert_msg(mfd < 0 && merr == nerr,
				      "%s: native %s, module %d/%s",
				      pidfd_ns_kinds[i].name, pt_errname(nerr), mfd,
				      pt_errname(merr));
		} else {
			compared++;
			ck_assert_msg(mfd >= 0, "%s: native ok, module %s",
				      pidfd_ns_kinds[i].name, pt_errname(merr));
			ck_assert_msg(pt_nsfd_inode(nfd, 0) == pt_nsfd_inode(mfd, 0),
				      "%s: native inode %lu, module %lu",
				      pidfd_ns_kinds[i].name,
				      (unsigned long)pt_nsfd_inode(nfd, 0),
				      (unsigned long)pt_nsfd_inode(mfd, 0));
		}
		if (nfd >= 0)
			close(nfd);
		if (mfd >= 0)
			close(mfd);
	}
	close(native);
	close(pidfd);
	pt_kill_reap(child);
	PT_SKIP_UNLESS(compared > 0, has,
		       "PIDFD_GET_*_NAMESPACE on its own pidfds to compare with");
	printf("[ns] %u of %zu namespace types compared with the kernel's own ioctls\n",
	       compared, PIDFD_NS_KINDS);
}
END_TEST

static Suite *ns_suite(void)
{
	Suite *s = suite_create("ns");

	pt_add_tests(pt_tcase(s, "types"), ns_self_every_type, ns_thread_pidfd,
		     ns_child_every_type, ns_native_differential);

	pt_add_tests(pt_tcase(s, "setns"), ns_setns_root,
		     ns_setns_unprivileged);

	pt_add_tests(pt_tcase(s, "access"), ns_access_decided_by_credentials,
		     ns_exited_and_reaped, ns_recycled_pid, ns_errors,
		     ns_emfile);
	return s;
}

int main(void)
{
	return pt_main(ns_suite());
}
