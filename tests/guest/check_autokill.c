// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_AUTOKILL (docs/abi.md): the process dies when the last reference
 * to the pidfd's file goes (close, the holder's death), not before (a
 * dup); the open is refused where upstream would refuse (a thread, no
 * no_new_privs without CAP_SYS_ADMIN) and for anything but the caller's
 * own child; and the kill is checked as the opener at that moment, so a
 * target that changed to other uids survives it. Every outcome is judged
 * by the target's wait status or its survival.
 */
#include "pidfd_test.h"

#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define SUID_HELPER "/tmp/pt-autokill-suid"
#define HELPER_ARG "--autokill-setuid-helper"

/* How long a survivor must outlive the close: the kill is synchronous. */
#define SURVIVE_MS 300

/* Our child @pid was killed by SIGKILL (reaped here). */
static void assert_killed(pid_t pid)
{
	int status;

	ck_assert_int_eq(pt_waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "status %#x, want SIGKILL", status);
}

/* @pidfd (a plain one) shows no exit for SURVIVE_MS. */
static bool survives(int pidfd)
{
	return pt_poll1(pidfd, POLLIN, SURVIVE_MS) == 0;
}

static int open_autokill(pid_t pid, unsigned int flags)
{
	return pt_open(pid, PIDFD_AUTOKILL | flags);
}

START_TEST(autokill_on_close)
{
	pid_t pid = pt_fork_sleeper();
	int fd, watch;

	ck_assert_int_gt(pid, 0);
	watch = pt_open_ok(pid, 0);
	fd = open_autokill(pid, PIDFD_NONBLOCK);
	ck_assert_msg(fd >= 0, "open: %s", pt_errname(errno));
	ck_assert_int_eq(fcntl(fd, F_GETFL) & (O_TRUNC | O_NONBLOCK | O_EXCL),
			 O_TRUNC | O_NONBLOCK);
	/* a plain pidfd's close kills nothing */
	close(watch);
	watch = pt_open_ok(pid, 0);
	ck_assert(survives(watch));
	close(fd);
	assert_killed(pid);
	close(watch);
}
END_TEST

START_TEST(autokill_not_on_dup_close)
{
	pid_t pid = pt_fork_sleeper();
	int fd, dupfd, watch;

	ck_assert_int_gt(pid, 0);
	watch = pt_open_ok(pid, 0);
	fd = open_autokill(pid, 0);
	ck_assert_msg(fd >= 0, "open: %s", pt_errname(errno));
	dupfd = dup(fd);
	ck_assert_int_ge(dupfd, 0);
	close(fd);
	ck_assert_msg(survives(watch), "killed while a dup was open");
	close(dupfd);
	assert_killed(pid);
	close(watch);
}
END_TEST

/* A holder process forks a target and holds its autokill pidfd. */
static int holder_main(void *arg)
{
	struct pt_sync *up = arg;
	pid_t target = pt_fork_sleeper();
	int fd;

	PT_CHECK(target > 0, "fork: %m");
	fd = open_autokill(target, 0);
	PT_CHECK(fd >= 0, "open: %s", pt_errname(errno));
	pt_sync_put(up, target);
	pt_sync_put(up, getpid());
	for (;;)
		pause();
	return 0;
}

static void *run_holder(void *arg)
{
	char msg[256];

	pt_run(holder_main, arg, msg, sizeof(msg));
	return NULL;
}

START_TEST(autokill_on_holder_death)
{
	struct pt_sync up;
	pid_t target, holder;
	pthread_t th;
	int watch;

	/* the target, orphaned by the holder's death, is reaped here */
	ck_assert_ok(prctl(PR_SET_CHILD_SUBREAPER, 1));
	pt_sync_init(&up);
	ck_assert_int_eq(pthread_create(&th, NULL, run_holder, &up), 0);
	target = pt_sync_get(&up, 10000);
	holder = pt_sync_get(&up, 10000);
	ck_assert_int_gt(target, 0);
	ck_assert_int_gt(holder, 0);
	watch = pt_open_ok(target, 0);
	ck_assert(survives(watch));
	ck_assert_ok(kill(holder, SIGKILL));
	pthread_join(th, NULL);
	ck_assert_msg(pt_poll1(watch, POLLIN, 10000) & POLLIN,
		      "target alive after its holder died");
	assert_killed(target);
	close(watch);
	pt_sync_close(&up);
}
END_TEST

/* The errnos of the refusals that need no other credentials. */
START_TEST(autokill_refused)
{
	struct pidfd_open_procdir_args pa = { 0 };
	pid_t pid = pt_fork_sleeper();
	pid_t tid;
	char dir[64];
	int dfd;

	ck_assert_int_gt(pid, 0);
	/* a thread pidfd cannot be one (upstream: not with CLONE_THREAD) */
	ck_assert_errno(open_autokill(pid, PIDFD_THREAD), EINVAL);
	/* a thread ID names no process to kill */
	tid = pt_start_idle_thread();
	ck_assert_int_gt(tid, 0);
	ck_assert_errno(open_autokill(tid, 0), pt_kernel_tid_open_errno(tid));
	/* only one's own child: not oneself, not one's parent */
	ck_assert_errno(open_autokill(getpid(), 0), EPERM);
	ck_assert_errno(open_autokill(getppid(), 0), EPERM);
	/* the procfs open has no autokill */
	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(dfd, 0);
	pa.procdir = dfd;
	pa.flags = PIDFD_AUTOKILL;
	ck_assert_errno(ioctl(pt_dev(), PIDFD_DEV_OPEN_PROCDIR, &pa), EINVAL);
	close(dfd);
	/* gone */
	pt_kill_reap(pid);
	ck_assert_errno(open_autokill(pid, 0), ESRCH);
}
END_TEST

/* Only @caps (a CAP_* bit mask) in our effective and permitted sets. */
static int set_caps(uint64_t caps)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {
		{ .effective = (uint32_t)caps, .permitted = (uint32_t)caps },
		{ .effective = (uint32_t)(caps >> 32),
		  .permitted = (uint32_t)(caps >> 32) },
	};

	return syscall(SYS_capset, &hdr, data);
}

/* uid/gid 1000, keeping only @caps. */
static int become_user(uint64_t caps)
{
	if (prctl(PR_SET_KEEPCAPS, 1) || pt_drop_privs(1000, 1000))
		return -1;
	return set_caps(caps);
}

/* no_new_privs for the calling thread only. */
static int set_no_new_privs(void *arg)
{
	(void)arg;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

/* A second thread, started before the first sets no_new_privs. */
static int idle_thread_then_no_new_privs(void *arg)
{
	return pt_start_idle_thread() <= 0 || set_no_new_privs(arg);
}

/*
 * As uid 1000 without capabilities: a child without no_new_privs is
 * refused (EPERM); one that set it is killed at the close.
 */
static int unprivileged_main(void *arg)
{
	pid_t pid;
	int fd, status;

	(void)arg;
	PT_CHECK(become_user(0) == 0, "drop privileges: %m");
	pid = pt_fork_sleeper();
	PT_CHECK(pid > 0, "fork: %m");
	errno = 0;
	PT_CHECK(open_autokill(pid, 0) == -1 && errno == EPERM,
		 "no_new_privs not set: %s, want EPERM", pt_errname(errno));
	pt_kill_reap(pid);

	pid = pt_fork_prepared(set_no_new_privs, NULL);
	PT_CHECK(pid > 0, "child not ready");
	fd = open_autokill(pid, 0);
	PT_CHECK(fd >= 0, "no_new_privs set: %s", pt_errname(errno));
	close(fd);
	PT_CHECK(pt_waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
		 WTERMSIG(status) == SIGKILL, "status %#x, want SIGKILL", status);
	return 0;
}

START_TEST(autokill_needs_nnp_or_cap)
{
	pt_assert_child(unprivileged_main, NULL);
}
END_TEST

/*
 * The kill is judged as the opener at the open, never as whoever holds the
 * file at the last close. Root opens, then drops to uid 3000 (no
 * capabilities, root kept only as the saved uid), which may not kill its
 * root child: the close still kills it.
 */
static int opener_drops_main(void *arg)
{
	pid_t target = pt_fork_sleeper();
	bool killed;
	int fd, watch;

	(void)arg;
	PT_CHECK(target > 0, "fork: %m");
	watch = pt_open(target, 0);
	fd = open_autokill(target, 0);
	PT_CHECK(watch >= 0 && fd >= 0, "open: %s", pt_errname(errno));
	PT_CHECK(setresuid(3000, 3000, 0) == 0, "drop privileges: %m");
	close(fd);
	killed = pt_poll1(watch, POLLIN, 10000) & POLLIN;
	/* A survivor outlives our PDEATHSIG, which uid 3000 may not send. */
	if (!killed && seteuid(0) == 0)
		kill(target, SIGKILL);
	PT_CHECK(pt_reap(target) == 128 + SIGKILL && killed,
		 "not killed: judged as the closer, uid 3000");
	return 0;
}

START_TEST(autokill_as_opener_after_it_drops)
{
	pt_assert_child(opener_drops_main, NULL);
}
END_TEST

/* The receiver: as uid 2000, takes the pidfd and closes it on "go". */
static void receive_then_close(int sock)
{
	char go;
	int fd;

	if (pt_drop_privs(2000, 2000) < 0)
		_exit(2);
	fd = pt_recv_fd(sock);
	if (fd < 0 || read(sock, &go, 1) != 1)
		_exit(3);
	close(fd);
	_exit(0);
}

/*
 * uid 1000 (no_new_privs) opens for its child and sends the file to a
 * uid 2000 process, whose close is the last: the kill is the opener's.
 */
static int other_closer_main(void *arg)
{
	pid_t receiver, target;
	int sv[2], fd, watch;

	(void)arg;
	PT_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0,
		 "socketpair: %m");
	receiver = pt_fork();
	if (receiver == 0)
		receive_then_close(sv[1]);
	PT_CHECK(receiver > 0, "fork: %m");
	PT_CHECK(become_user(0) == 0 && set_no_new_privs(NULL) == 0,
		 "uid 1000 with no_new_privs: %m");
	target = pt_fork_sleeper();
	PT_CHECK(target > 0, "fork: %m");
	watch = pt_open(target, 0);
	fd = open_autokill(target, 0);
	PT_CHECK(watch >= 0 && fd >= 0, "open: %s", pt_errname(errno));
	PT_CHECK(pt_send_fd(sv[0], fd) == 0, "SCM_RIGHTS: %m");
	close(fd);
	PT_CHECK(survives(watch), "killed while the receiver held the file");
	PT_CHECK(write(sv[0], "g", 1) == 1, "go: %m");
	PT_CHECK(pt_reap(receiver) == 0, "the receiver failed");
	PT_CHECK(pt_poll1(watch, POLLIN, 10000) & POLLIN,
		 "not killed: judged as the closer, uid 2000");
	PT_CHECK(pt_reap(target) == 128 + SIGKILL, "not killed by SIGKILL");
	return 0;
}

START_TEST(autokill_as_opener_not_closer)
{
	pt_assert_child(other_closer_main, NULL);
}
END_TEST

/*
 * no_new_privs is per thread: a child whose other thread lacks it could
 * still exec a setuid program there. As uid 1000: refused (EPERM) until
 * every thread has it.
 */
static int nnp_thread_main(void *arg)
{
	pid_t pid;

	(void)arg;
	PT_CHECK(become_user(0) == 0, "drop privileges: %m");
	pid = pt_fork_prepared(idle_thread_then_no_new_privs, NULL);
	PT_CHECK(pid > 0, "child not ready");
	errno = 0;
	PT_CHECK(open_autokill(pid, 0) == -1 && errno == EPERM,
		 "a thread without no_new_privs: %s, want EPERM",
		 pt_errname(errno));
	pt_kill_reap(pid);
	return 0;
}

START_TEST(autokill_nnp_on_every_thread)
{
	pt_assert_child(nnp_thread_main, NULL);
}
END_TEST

/*
 * The init of a new pid namespace (what sandbox launchers start) drops
 * signals that are not forced; kill(2) from its parent's namespace forces
 * SIGKILL, and so must the last close.
 */
START_TEST(autokill_pid_namespace_init)
{
	int fd, watch;
	pid_t pid;

	pid = pt_clone(CLONE_NEWPID);
	if (pid == 0) {
		for (;;)
			pause();
	}
	ck_assert_msg(pid > 0, "clone(CLONE_NEWPID): %m");
	watch = pt_open_ok(pid, 0);
	fd = open_autokill(pid, 0);
	ck_assert_msg(fd >= 0, "open: %s", pt_errname(errno));
	/* an init ignores what it has no handler for, SIGKILL aside */
	ck_assert_ok(pt_send_signal(watch, SIGTERM, NULL, 0));
	ck_assert(survives(watch));
	close(fd);
	assert_killed(pid);
	close(watch);
}
END_TEST

/* ---- a target that changed uids ------------------------------------ */

/*
 * The setuid-root copy of this program: it becomes root in every uid
 * (as su does), says so on fd @argv[2], and waits.
 */
static int setuid_helper(char **argv)
{
	int fd = atoi(argv[2]);
	char c = 'r';

	if (setresuid(0, 0, 0))
		c = 'e';
	if (write(fd, &c, 1) != 1)
		return 1;
	for (;;)
		pause();
}

static void make_suid_helper(void)
{
	char buf[65536];
	int in, out;
	ssize_t n;

	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(in, 0);
	unlink(SUID_HELPER);
	out = open(SUID_HELPER, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(write(out, buf, n), n);
	close(in);
	ck_assert_ok(fchown(out, 0, 0));
	ck_assert_ok(fchmod(out, 04755));
	close(out);
}

struct changer {
	bool user;		/* opener uid 1000 with CAP_SYS_ADMIN only */
	bool exec_suid;		/* target execs the setuid-root helper */
	struct pt_sync up;	/* opener to test: the target's pid */
	struct pt_sync done;	/* opener to test: 1 survived, 0 killed */
};

/*
 * The opener makes the autokill pidfd for its child, which then changes
 * uids: to 2000 (@exec_suid false, a root opener), or to root through a
 * setuid-root exec that also sets its real uid. The opener closes the
 * pidfd and reports whether the child survived.
 */
static int changer_main(void *arg)
{
	struct changer *c = arg;
	int go[2], ready[2], fd, watch;
	char ch = 0;
	pid_t pid;

	if (c->user)
		PT_CHECK(become_user(1ULL << CAP_SYS_ADMIN) == 0,
			 "uid 1000 with CAP_SYS_ADMIN: %m");
	PT_CHECK(pipe(go) == 0 && pipe(ready) == 0, "pipe: %m");
	pid = pt_fork();
	if (pid == 0) {
		char num[16];
		int i;

		/* it outlives the opener: hold none of pt_run()'s pipes */
		for (i = 3; i < 1024; i++)
			if (i != go[0] && i != ready[1])
				close(i);
		if (read(go[0], &ch, 1) != 1)
			_exit(2);
		if (c->exec_suid) {
			snprintf(num, sizeof(num), "%d", ready[1]);
			execl(SUID_HELPER, SUID_HELPER, HELPER_ARG, num,
			      (char *)NULL);
			_exit(3);
		}
		ch = setresuid(2000, 2000, 2000) ? 'e' : 'r';
		if (write(ready[1], &ch, 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	PT_CHECK(pid > 0, "fork: %m");
	fd = open_autokill(pid, 0);
	PT_CHECK(fd >= 0, "open: %s", pt_errname(errno));
	watch = pt_open(pid, 0);
	PT_CHECK(watch >= 0, "watch: %m");
	PT_CHECK(write(go[1], "g", 1) == 1, "go: %m");
	PT_CHECK(read(ready[0], &ch, 1) == 1 && ch == 'r',
		 "the child did not change uids (%c)", ch);
	pt_sync_put(&c->up, pid);
	close(fd);
	pt_sync_put(&c->done, survives(watch));
	/* the test kills and reaps it: it is reparented to the test */
	return 0;
}

static void check_changer(bool user, bool exec_suid)
{
	struct changer c = { .user = user, .exec_suid = exec_suid };
	pid_t pid;
	int status;

	if (exec_suid)
		make_suid_helper();
	ck_assert_ok(prctl(PR_SET_CHILD_SUBREAPER, 1));
	pt_sync_init(&c.up);
	pt_sync_init(&c.done);
	pt_assert_child(changer_main, &c);
	pid = pt_sync_get(&c.up, 10000);
	ck_assert_int_gt(pid, 0);
	ck_assert_msg(pt_sync_get(&c.done, 10000) == 1,
		      "the autokill killed a target that changed uids");
	/* still our (adopted) child, alive: only now killed, by root */
	ck_assert_int_eq(pt_waitpid(pid, &status, WNOHANG), 0);
	ck_assert_ok(kill(pid, SIGKILL));
	assert_killed(pid);
	unlink(SUID_HELPER);
}

/* uid 1000 with CAP_SYS_ADMIN (no no_new_privs needed); the target becomes root */
START_TEST(autokill_spares_setuid_root)
{
	check_changer(true, true);
}
END_TEST

/* a root opener; its child drops to uid 2000 (no CAP_KILL in the check) */
START_TEST(autokill_spares_other_uid)
{
	check_changer(false, false);
}
END_TEST

static Suite *autokill_suite(void)
{
	Suite *s = suite_create("autokill");

	pt_add_tests(pt_tcase(s, "kill"), autokill_on_close,
		     autokill_not_on_dup_close, autokill_on_holder_death,
		     autokill_as_opener_after_it_drops,
		     autokill_as_opener_not_closer);

	pt_add_tests(pt_tcase(s, "refused"), autokill_refused,
		     autokill_needs_nnp_or_cap, autokill_nnp_on_every_thread,
		     autokill_pid_namespace_init, autokill_spares_setuid_root,
		     autokill_spares_other_uid);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], HELPER_ARG))
		return setuid_helper(argv);
	return pt_main(autokill_suite());
}
