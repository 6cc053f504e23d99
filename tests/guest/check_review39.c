// SPDX-License-Identifier: GPL-2.0
/*
 * The findings of issue 39's second attacker review, each as the review
 * ran it where it could: uid 65534 in a user, mount and pid namespace of
 * its own.
 *
 * - PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE of a process (or thread) that
 *   called unshare(CLONE_NEWPID) and has not forked yet: the namespace,
 *   as the kernel's own ioctl gives it (procfs before 7.x answers ENOENT
 *   for that link; the module said ENOMEM), proved by its inode against
 *   the link once the namespace has an init; never past the ptrace check.
 * - live_pidfds and live_pids: readable by root only (mode 0400).
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
#include <linux/nsfs.h>

/* readlink()'s errno for @path, 0 if it worked. */
static int link_errno(const char *path)
{
	char target[96];

	return readlink(path, target, sizeof(target)) < 0 ? errno : 0;
}

/* ---- PID_FOR_CHILDREN before the namespace has an init ---- */

/*
 * As uid 65534 in its own user and mount namespace: unshare(CLONE_NEWPID)
 * and, before any fork, ask for our own pid_for_children namespace. Then
 * fork its init and compare with the links procfs now shows.
 */
static int pidns_before_fork(void *arg __attribute__((unused)))
{
	char path[64];
	ino_t got, self_pid;
	pid_t init;
	int pidfd, nsfd, native, native_ns, err;

	pt_become_hostile();
	PT_CHECK(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	snprintf(path, sizeof(path), "/proc/%d/ns/pid_for_children", getpid());
	err = link_errno(path);
	/* procfs before 7.x has no link until the namespace has an init. */
	PT_CHECK(err == 0 || err == ENOENT, "readlink %s: %s", path,
		 pt_errname(err));

	pidfd = pt_open(getpid(), 0);
	PT_CHECK(pidfd >= 0, "open: %s", pt_errname(errno));
	nsfd = ioctl(pidfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0);
	PT_CHECK(nsfd >= 0, "PID_FOR_CHILDREN before the first fork: %s",
		 pt_errname(errno));
	PT_CHECK(fcntl(nsfd, F_GETFD) == FD_CLOEXEC, "not close-on-exec");
	got = pt_nsfd_inode(nsfd, CLONE_NEWPID);
	PT_CHECK(got, "not a pid namespace");
	self_pid = pt_ns_link_inode("/proc/self/ns/pid");
	PT_CHECK(got != self_pid, "our own pid namespace, not the new one");
	/* Where the kernel's own pidfds have the ioctl (6.11), the same. */
	native = (int)syscall(SYS_pidfd_open, getpid(), 0);
	PT_CHECK(native >= 0, "pidfd_open: %m");
	native_ns = ioctl(native, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0);
	PT_CHECK(native_ns >= 0 || (errno == ENOTTY &&
				    !pt_kernel_at_least(6, 11)),
		 "the kernel's PID_FOR_CHILDREN: %s", pt_errname(errno));
	PT_CHECK(native_ns < 0 || pt_nsfd_inode(native_ns, CLONE_NEWPID) == got,
		 "the kernel's ioctl gives %lu, the module's %lu",
		 (unsigned long)pt_nsfd_inode(native_ns, CLONE_NEWPID), (unsigned long)got);
	if (native_ns >= 0)
		close(native_ns);
	close(native);

	init = pt_fork_sleeper();
	PT_CHECK(init > 0, "fork: %m");
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", init);
	PT_CHECK(pt_ns_link_inode(path) == got, "init's pid ns %lu, ioctl's %lu",
		 (unsigned long)pt_ns_link_inode(path), (unsigned long)got);
	PT_CHECK(pt_ns_link_inode("/proc/self/ns/pid_for_children") == got,
		 "the link and the ioctl differ");
	/* The fd is a namespace one can enter: setns() to it works. */
	PT_CHECK(setns(nsfd, CLONE_NEWPID) == 0, "setns: %m");
	pt_kill_reap(init);
	pt_close_all(nsfd, pidfd);
	return 0;
}

START_TEST(pid_for_children_before_fork)
{
	pt_assert_child(pidns_before_fork, NULL);
}
END_TEST

struct unshare_thread {
	struct pt_sync ready;	/* the thread's TID, or -errno */
	struct pt_sync forked;	/* its child's pid */
	struct pt_sync go;	/* the test says: fork */
};

/* A thread that moves its children into a new pid ns, then forks on call. */
static void *unsharing_thread(void *arg)
{
	struct unshare_thread *t = arg;
	pid_t child;

	if (unshare(CLONE_NEWPID)) {
		pt_sync_put(&t->ready, -errno);
		return NULL;
	}
	pt_sync_put(&t->ready, pt_gettid());
	if (pt_sync_get(&t->go, 30000) != 1)
		return NULL;
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	pt_sync_put(&t->forked, child);
	for (;;)
		pause();
	return NULL;
}

/*
 * pid_for_children is per thread: a thread pidfd gives that thread's new
 * namespace, a process pidfd the leader's (its own pid namespace).
 */
static int pidns_thread_before_fork(void *arg __attribute__((unused)))
{
	struct unshare_thread t;
	char path[96];
	pthread_t thread;
	ino_t thread_ns, leader_ns;
	pid_t tid, child;
	int tfd, pfd, tns, pns;

	pt_become_hostile();
	pt_sync_init(&t.ready);
	pt_sync_init(&t.forked);
	pt_sync_init(&t.go);
	PT_CHECK(pthread_create(&thread, NULL, unsharing_thread, &t) == 0,
		 "pthread_create");
	tid = pt_sync_get(&t.ready, 10000);
	PT_CHECK(tid > 0, "thread's unshare(CLONE_NEWPID): %s",
		 pt_errname(-tid));

	tfd = pt_open(tid, PIDFD_THREAD);
	PT_CHECK(tfd >= 0, "open thread: %s", pt_errname(errno));
	pfd = pt_open(getpid(), 0);
	PT_CHECK(pfd >= 0, "open: %s", pt_errname(errno));
	tns = ioctl(tfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0);
	PT_CHECK(tns >= 0, "thread's PID_FOR_CHILDREN: %s", pt_errname(errno));
	pns = ioctl(pfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0);
	PT_CHECK(pns >= 0, "leader's PID_FOR_CHILDREN: %s", pt_errname(errno));
	thread_ns = pt_nsfd_inode(tns, CLONE_NEWPID);
	leader_ns = pt_nsfd_inode(pns, CLONE_NEWPID);
	PT_CHECK(thread_ns && leader_ns, "not pid namespaces");
	PT_CHECK(leader_ns == pt_ns_link_inode("/proc/self/ns/pid"),
		 "the leader's is not its own pid namespace");
	PT_CHECK(thread_ns != leader_ns, "the thread got the leader's");

	pt_sync_put(&t.go, 1);
	child = pt_sync_get(&t.forked, 10000);
	PT_CHECK(child > 0, "the thread's fork");
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", child);
	PT_CHECK(pt_ns_link_inode(path) == thread_ns, "its init's %lu, ioctl's %lu",
		 (unsigned long)pt_ns_link_inode(path), (unsigned long)thread_ns);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/pid_for_children",
		 getpid(), tid);
	PT_CHECK(pt_ns_link_inode(path) == thread_ns, "the thread's link differs");
	pt_kill_reap(child);
	pt_close_all(tns, pns, tfd, pfd);
	return 0;
}

START_TEST(pid_for_children_thread_before_fork)
{
	pt_assert_child(pidns_thread_before_fork, NULL);
}
END_TEST

/* A root process that has unshared its children's pid ns and not forked. */
static int unshare_pidns(void *arg __attribute__((unused)))
{
	return unshare(CLONE_NEWPID);
}

/*
 * The namespace the link cannot show is still behind the ptrace check:
 * uid 65534 in namespaces of its own gets EACCES for root's, as for the
 * link itself and for every other type.
 */
static int other_users_pidns(void *arg)
{
	pid_t target = *(pid_t *)arg;
	int pidfd;

	pt_become_hostile();
	PT_CHECK(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	pidfd = pt_open(target, 0);
	PT_CHECK(pidfd >= 0, "open: %s", pt_errname(errno));
	errno = 0;
	PT_CHECK(ioctl(pidfd, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, 0) < 0 &&
		 errno == EACCES, "root's PID_FOR_CHILDREN: %s",
		 pt_errname(errno));
	errno = 0;
	PT_CHECK(ioctl(pidfd, PIDFD_GET_PID_NAMESPACE, 0) < 0 &&
		 errno == EACCES, "root's PID: %s", pt_errname(errno));
	close(pidfd);
	return 0;
}

START_TEST(pid_for_children_other_user)
{
	pid_t target = pt_fork_prepared(unshare_pidns, NULL);

	ck_assert_msg(target > 0, "root's target");
	pt_assert_child(other_users_pidns, &target);
	pt_kill_reap(target);
}
END_TEST

/* ---- the module's counters ---- */

static int counters_unreadable(void *arg __attribute__((unused)))
{
	static const char *const counters[] = { PT_LIVE_PIDFDS, PT_LIVE_PIDS };
	unsigned int i;
	int fd;

	pt_become_hostile();
	PT_CHECK(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID): %m");
	for (i = 0; i < 2; i++) {
		errno = 0;
		fd = open(counters[i], O_RDONLY | O_CLOEXEC);
		PT_CHECK(fd < 0 && errno == EACCES, "open %s as uid 65534: %s",
			 counters[i], fd >= 0 ? "opened" : pt_errname(errno));
	}
	return 0;
}

START_TEST(counters_root_only)
{
	static const char *const counters[] = { PT_LIVE_PIDFDS, PT_LIVE_PIDS };
	struct stat st;
	unsigned int i;
	long v;

	for (i = 0; i < 2; i++) {
		ck_assert_ok(stat(counters[i], &st));
		ck_assert_msg((st.st_mode & 07777) == 0400, "%s: mode %o",
			      counters[i], st.st_mode & 07777);
		ck_assert_msg(st.st_uid == 0, "%s: owner %u", counters[i],
			      st.st_uid);
		ck_assert_ok(pt_read_long(counters[i], &v));
	}
	pt_assert_child(counters_unreadable, NULL);
}
END_TEST

PT_SUITE_MAIN("review39", pid_for_children_before_fork,
	      pid_for_children_thread_before_fork,
	      pid_for_children_other_user, counters_root_only)
