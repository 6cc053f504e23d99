// SPDX-License-Identifier: GPL-2.0
/*
 * Signals and LSMs (docs/security.md): no path of the module delivers a
 * signal that kill(2), tgkill(2), rt_sigqueueinfo(2) or
 * rt_tgsigqueueinfo(2) would refuse for that signal and target.
 *
 * AppArmor is active in every Debian kernel; the profiles are in
 * tests/guest/apparmor/signal-profiles.apparmor. Each attempt runs in a
 * fresh sender (confined or not) against a fresh target in its own process
 * group that blocks the test signals, so whatever was delivered stays
 * visible in the target's pending sets; SIGKILL is judged by the target's
 * death.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lsm_test.h"
#include "pidfd_test.h"

enum path {
	SYS_KILL,
	SYS_TGKILL,
	SYS_SIGQUEUE,
	SYS_TGSIGQUEUE,
	MOD_PROCESS,
	MOD_PGRP,
	MOD_THREAD_FLAG,
	MOD_THREAD_PIDFD,
	MOD_PROCESS_INFO,
	MOD_THREAD_INFO,
	MOD_PGRP_INFO,
	PATH_COUNT,
};

static const char *const path_names[PATH_COUNT] = {
	[SYS_KILL]		= "kill(2)",
	[SYS_TGKILL]		= "tgkill(2)",
	[SYS_SIGQUEUE]		= "rt_sigqueueinfo(2)",
	[SYS_TGSIGQUEUE]	= "rt_tgsigqueueinfo(2)",
	[MOD_PROCESS]		= "module, process scope",
	[MOD_PGRP]		= "module, process-group scope",
	[MOD_THREAD_FLAG]	= "module, PIDFD_SIGNAL_THREAD",
	[MOD_THREAD_PIDFD]	= "module, PIDFD_THREAD pidfd",
	[MOD_PROCESS_INFO]	= "module, process scope with siginfo",
	[MOD_THREAD_INFO]	= "module, thread scope with siginfo",
	[MOD_PGRP_INFO]		= "module, process-group scope with siginfo",
};

/* The paths where the kernel itself checks the real signal. */
static bool exact_path(enum path path)
{
	return path <= MOD_PGRP;
}

#define SENDER_SETUP_FAILED	200
#define SIGBIT(sig)		(1ULL << ((sig) - 1))

struct attempt {
	const char *profile;	/* the sender's, NULL: unconfined */
	pid_t target;
	enum path path;
	int sig;
};

/* 0 or -1/errno, as the path's own call returns. */
static int send_on_path(pid_t target, enum path path, int sig)
{
	unsigned int flags = 0;
	bool with_info = false;
	siginfo_t si;
	int fd, ret, err;

	pt_siginfo(&si, sig, SI_QUEUE, 42);
	switch (path) {
	case SYS_KILL:
		return kill(target, sig);
	case SYS_TGKILL:
		return (int)syscall(SYS_tgkill, target, target, sig);
	case SYS_SIGQUEUE:
		return (int)syscall(SYS_rt_sigqueueinfo, target, sig, &si);
	case SYS_TGSIGQUEUE:
		return (int)syscall(SYS_rt_tgsigqueueinfo, target, target,
				    sig, &si);
	case MOD_PGRP_INFO:
		with_info = true;
		/* fall through */
	case MOD_PGRP:
		flags = PIDFD_SIGNAL_PROCESS_GROUP;
		break;
	case MOD_THREAD_INFO:
		with_info = true;
		/* fall through */
	case MOD_THREAD_FLAG:
		flags = PIDFD_SIGNAL_THREAD;
		break;
	case MOD_PROCESS_INFO:
		with_info = true;
		break;
	default:
		break;
	}
	fd = pt_open(target, path == MOD_THREAD_PIDFD ? PIDFD_THREAD : 0);
	if (fd < 0)
		return -1;
	ret = pt_send_signal(fd, sig, with_info ? &si : NULL, flags);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/* A pt_run() child: exits 0, or with the errno of the attempt. */
static int sender(void *arg)
{
	const struct attempt *a = arg;

	if (a->profile && lt_apparmor_enter(a->profile) < 0) {
		pt_msg("cannot enter AppArmor profile %s: %s", a->profile,
		       strerror(errno));
		return SENDER_SETUP_FAILED;
	}
	if (pt_dev() < 0) {
		pt_msg("cannot open %s: %s", PT_DEV_PATH, strerror(errno));
		return SENDER_SETUP_FAILED;
	}
	return send_on_path(a->target, a->path, a->sig) == 0 ? 0 : errno;
}

/*
 * A target: a process of its own group, blocking SIGUSR1 and SIGUSR2,
 * whose leader is in @profile and whose second thread (@tid) is in
 * @thread_profile. It answers every ping with a pong: a SIGKILL that got
 * through ends it before it can.
 */
struct target {
	pid_t pid, tid;
	struct pt_sync ping, pong;
};

struct target_thread_arg {
	const char *profile;
	struct pt_sync *ready;
};

static void *target_thread(void *arg)
{
	struct target_thread_arg *t = arg;

	if (t->profile && lt_apparmor_enter(t->profile) < 0)
		pt_sync_put(t->ready, -1);
	else
		pt_sync_put(t->ready, pt_gettid());
	for (;;)
		pause();
	return NULL;
}

static void fork_target_in(struct target *t, const char *profile,
			   const char *thread_profile)
{
	struct target_thread_arg arg = { thread_profile, NULL };
	struct pt_sync ready;

	pt_sync_init(&ready);
	pt_sync_init(&t->ping);
	pt_sync_init(&t->pong);
	arg.ready = &ready;
	t->pid = pt_fork();
	if (t->pid == 0) {
		pthread_t th;
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigaddset(&set, SIGUSR2);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (setpgid(0, 0) < 0 ||
		    pthread_create(&th, NULL, target_thread, &arg) ||
		    (profile && lt_apparmor_enter(profile) < 0))
			_exit(1);
		for (;;) {
			if (pt_sync_get(&t->ping, -1) < 0)
				_exit(2);
			pt_sync_put(&t->pong, 1);
		}
	}
	ck_assert_int_gt(t->pid, 0);
	t->tid = pt_sync_get(&ready, 10000);
	ck_assert_msg(t->tid > 0, "target (profiles %s, %s) did not start",
		      profile ? profile : "unconfined",
		      thread_profile ? thread_profile : "unconfined");
	pt_sync_close(&ready);
	/* The leader's profile is in place once it answers. */
	pt_sync_put(&t->ping, 1);
	ck_assert_int_eq(pt_sync_get(&t->pong, 10000), 1);
}

static void fork_target(struct target *t, const char *profile)
{
	fork_target_in(t, profile, profile);
}

static bool target_answers(struct target *t)
{
	pt_sync_put(&t->ping, 1);
	return pt_sync_get(&t->pong, 5000) == 1;
}

static void end_target(struct target *t)
{
	pt_kill_reap(t->pid);
	pt_sync_close(&t->ping);
	pt_sync_close(&t->pong);
}

/* Pending on the thread @tid of @t, or on its process's shared queue. */
static uint64_t pending_of(struct target *t, pid_t tid)
{
	uint64_t sigpnd, shdpnd;

	ck_assert_msg(pt_thread_pending(t->pid, tid, &sigpnd, &shdpnd) == 0,
		      "cannot read the pending signals of %d/%d", t->pid, tid);
	return sigpnd | shdpnd;
}

static int attempt(const char *sender_profile, pid_t target, enum path path,
		   int sig, char *msg, size_t len)
{
	struct attempt a = { sender_profile, target, path, sig };

	return pt_run(sender, &a, msg, len);
}

/*
 * One attempt on @path from a sender in @sender_profile to a target in
 * @target_profile: it must return @want (0 or an errno), and the signal
 * must have arrived exactly when it returned 0.
 */
static void expect(const char *sender_profile, const char *target_profile,
		   enum path path, int sig, int want)
{
	struct target t;
	char msg[1024];
	bool arrived;
	int got;

	fork_target(&t, target_profile);
	got = attempt(sender_profile, t.pid, path, sig, msg, sizeof(msg));
	ck_assert_msg(got == want,
		      "%s, signal %d, sender %s, target %s: got %s, want %s %s",
		      path_names[path], sig,
		      sender_profile ? sender_profile : "unconfined",
		      target_profile ? target_profile : "unconfined",
		      pt_errname(got), pt_errname(want), msg);
	if (sig == SIGKILL && want == 0) {
		ck_assert_int_eq(pt_reap(t.pid), 128 + SIGKILL);
		pt_sync_close(&t.ping);
		pt_sync_close(&t.pong);
		return;
	}
	if (sig == SIGKILL)
		arrived = !target_answers(&t);
	else
		arrived = sig && (pending_of(&t, t.pid) & SIGBIT(sig));
	ck_assert_msg(arrived == (sig && want == 0),
		      "%s, signal %d: returned %s, but the signal %s",
		      path_names[path], sig, pt_errname(got),
		      arrived ? "arrived" : "did not arrive");
	end_target(&t);
}

/* expect() on every path, with want[path]. */
static void expect_all(const char *sender_profile, const char *target_profile,
		       int sig, const int want[PATH_COUNT])
{
	int path;

	for (path = 0; path < PATH_COUNT; path++)
		expect(sender_profile, target_profile, path, sig, want[path]);
}

/*
 * want[]: @exact on the exact paths and the system calls, @other elsewhere;
 * a group signal with a siginfo is refused whatever the LSMs say.
 */
static void fill_want(int want[PATH_COUNT], int exact, int other)
{
	int path;

	for (path = 0; path < PATH_COUNT; path++)
		want[path] = exact_path(path) ? exact : other;
	want[MOD_PGRP_INFO] = EOPNOTSUPP;
}

static void set_trust(const char *value)
{
	ck_assert_msg(lt_write_trust(value) == 0,
		      "cannot set signal_lsm_trust to '%s': %s", value,
		      strerror(errno));
}

/* ---- fixture: policy loaded once, signal_lsm_trust restored ---------- */

static char saved_trust[128];

static void suite_setup(void)
{
	ck_assert_msg(lt_mount_securityfs() == 0, "securityfs: %s",
		      strerror(errno));
	ck_assert_msg(lt_lsm_active("apparmor"),
		      "AppArmor is not active in this kernel");
	ck_assert_msg(lt_apparmor_load(LT_PROFILES) == 0,
		      "cannot load %s: %s", LT_PROFILES, strerror(errno));
	ck_assert_msg(pt_read_text(LT_TRUST_PARAM, saved_trust,
				   sizeof(saved_trust)) == 0,
		      "%s: %s", LT_TRUST_PARAM, strerror(errno));
}

static void suite_teardown(void)
{
	lt_write_trust(saved_trust);
}

/* ---- tests ----------------------------------------------------------- */

/*
 * First: printk rate limits allow a burst, which later tests use up. A
 * refusal for AppArmor's sake never advises trusting AppArmor.
 */
START_TEST(test_refusal_is_logged)
{
	char pid[32], msg[256];
	struct target t;

	set_trust("bpf");
	fork_target(&t, NULL);
	ck_assert_int_eq(attempt("pidfd_send_exists", t.pid, MOD_THREAD_FLAG,
				 SIGUSR1, msg, sizeof(msg)), EACCES);
	snprintf(pid, sizeof(pid), "to pid %d:", t.pid);
	ck_assert_msg(lt_klog_has("pidfd: refused signal 10 from pid", pid,
				  "AppArmor confines", NULL),
		      "no kernel log line for the refused SIGUSR1 %s", pid);
	ck_assert_msg(!lt_klog_has("signal_lsm_trust=apparmor", NULL),
		      "the log advises trusting AppArmor");
	end_target(&t);
}
END_TEST

/*
 * Unconfined pair, nothing trusted: where BPF-LSM is active the refusal
 * names it, and only it, as the LSM to vouch for.
 */
START_TEST(test_refusal_names_bpf)
{
	char pid[32], msg[256];
	struct target t;
	int got;

	set_trust("");
	fork_target(&t, NULL);
	got = attempt(NULL, t.pid, MOD_THREAD_FLAG, SIGUSR2, msg, sizeof(msg));
	snprintf(pid, sizeof(pid), "to pid %d:", t.pid);
	if (lt_lsm_active("bpf")) {
		ck_assert_int_eq(got, EACCES);
		ck_assert_msg(lt_klog_has("pidfd: refused signal 12", pid,
					  "LSM 'bpf'", "signal_lsm_trust=bpf ",
					  NULL),
			      "no log line naming bpf %s", pid);
	} else {
		ck_assert_int_eq(got, 0);
	}
	ck_assert_msg(!lt_klog_has("signal_lsm_trust=apparmor", NULL),
		      "the log advises trusting AppArmor");
	end_target(&t);
}
END_TEST

/*
 * Labels are per thread: a thread-directed signal is judged by the
 * thread's own. The leader is unconfined, its thread receives signal 0
 * only; an unconfined sender with BPF-LSM trusted.
 */
START_TEST(test_thread_label_counts)
{
	char msg[256];
	struct target t;
	int got;

	set_trust("bpf");
	fork_target_in(&t, NULL, "pidfd_recv_exists");
	got = attempt(NULL, t.tid, MOD_THREAD_PIDFD, SIGUSR1, msg, sizeof(msg));
	ck_assert_msg(got == EACCES, "to the confined thread: %s %s",
		      pt_errname(got), msg);
	ck_assert(!(pending_of(&t, t.tid) & SIGBIT(SIGUSR1)));
	got = attempt(NULL, t.pid, MOD_THREAD_PIDFD, SIGUSR1, msg, sizeof(msg));
	ck_assert_msg(got == 0, "to the unconfined leader: %s %s",
		      pt_errname(got), msg);
	ck_assert_msg(pending_of(&t, t.pid) & SIGBIT(SIGUSR1),
		      "SIGUSR1 not pending on the leader");
	end_target(&t);
}
END_TEST

/* Blocks SIGUSR1, joins process group *@arg, confined by pidfd_recv_exists. */
static int join_group_confined(void *arg)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (setpgid(0, *(pid_t *)arg) < 0)
		return 1;
	return lt_apparmor_enter("pidfd_recv_exists") < 0;
}

/*
 * A process group with an allowed and a refused member: the one gets the
 * signal, the other not, and the call succeeds, as kill(-pgrp) does.
 */
START_TEST(test_pgrp_mixed_members)
{
	struct target t;
	pid_t other;
	char msg[256];
	int got;

	set_trust("bpf");
	fork_target(&t, NULL);
	other = pt_fork_prepared(join_group_confined, &t.pid);
	ck_assert_msg(other > 0, "the second member did not join the group");
	got = attempt(NULL, t.pid, MOD_PGRP, SIGUSR1, msg, sizeof(msg));
	ck_assert_msg(got == 0, "process group: %s %s", pt_errname(got), msg);
	ck_assert(pending_of(&t, t.pid) & SIGBIT(SIGUSR1));
	{
		uint64_t sigpnd, shdpnd;

		ck_assert_int_eq(pt_thread_pending(other, other, &sigpnd,
						   &shdpnd), 0);
		ck_assert_msg(!((sigpnd | shdpnd) & SIGBIT(SIGUSR1)),
			      "SIGUSR1 reached the member that refuses it");
	}
	pt_kill_reap(other);
	end_target(&t);
}
END_TEST

START_TEST(test_active_lsms_reported)
{
	char lsms[128];

	ck_assert_int_eq(pt_read_text(LT_LSMS_PARAM, lsms, sizeof(lsms)), 0);
	/* Debian's kernels: AppArmor everywhere, BPF-LSM from 6.1 on. */
	ck_assert_str_eq(lsms, lt_lsm_active("bpf") ? "apparmor,bpf" :
						      "apparmor");
}
END_TEST

/* A sender allowed only to probe: every path refused, signal 0 works. */
START_TEST(test_probe_only_sender)
{
	int want[PATH_COUNT];

	set_trust("bpf");
	fill_want(want, EACCES, EACCES);
	expect_all("pidfd_send_exists", NULL, SIGUSR1, want);
	fill_want(want, 0, 0);
	expect_all("pidfd_send_exists", NULL, 0, want);
}
END_TEST

/*
 * A sender allowed SIGUSR1: it arrives where the kernel asks about it,
 * nowhere else, since the module cannot tell what AppArmor would say.
 * SIGUSR2 arrives nowhere.
 */
START_TEST(test_usr1_sender)
{
	int want[PATH_COUNT];

	set_trust("bpf");
	fill_want(want, 0, EACCES);
	expect_all("pidfd_send_usr1", NULL, SIGUSR1, want);
	fill_want(want, EACCES, EACCES);
	expect_all("pidfd_send_usr1", NULL, SIGUSR2, want);
}
END_TEST

/* A target that receives signal 0 only, from an unconfined sender. */
START_TEST(test_target_refuses_receive)
{
	int want[PATH_COUNT];

	set_trust("bpf");
	fill_want(want, EACCES, EACCES);
	expect_all(NULL, "pidfd_recv_exists", SIGUSR1, want);
	fill_want(want, 0, 0);
	expect_all(NULL, "pidfd_recv_exists", 0, want);
}
END_TEST

/*
 * SIGKILL goes through the kernel's own check on every path: refused to a
 * probe-only sender (the target lives), delivered to an unconfined one
 * even with nothing trusted.
 */
START_TEST(test_sigkill_every_scope)
{
	int want[PATH_COUNT];

	set_trust("");
	/* Any SIGKILL is kill(2)'s, a group's with a siginfo too. */
	fill_want(want, EACCES, EACCES);
	want[MOD_PGRP_INFO] = EACCES;
	expect_all("pidfd_send_exists", NULL, SIGKILL, want);
	fill_want(want, 0, 0);
	want[MOD_PGRP_INFO] = 0;
	expect_all(NULL, NULL, SIGKILL, want);
}
END_TEST

/*
 * Unconfined sender and target, nothing trusted: the paths that can only
 * ask about signal 0 work where AppArmor is the only LSM that might tell
 * signals apart (5.10), and fail closed where BPF-LSM is active too.
 */
START_TEST(test_unconfined_default)
{
	int want[PATH_COUNT];

	set_trust("");
	fill_want(want, 0, lt_lsm_active("bpf") ? EACCES : 0);
	expect_all(NULL, NULL, SIGUSR1, want);
}
END_TEST

/* The same with BPF-LSM trusted, as the other suites run: all paths work. */
START_TEST(test_unconfined_trusting_bpf)
{
	int want[PATH_COUNT];

	set_trust("bpf");
	fill_want(want, 0, 0);
	expect_all(NULL, NULL, SIGUSR1, want);
	expect_all(NULL, NULL, SIGUSR2, want);
}
END_TEST

/*
 * The administrator's opt-in: trusting AppArmor hands the probe-only
 * sender the signal-0 verdict on the approximate paths (it gets through),
 * while the exact paths still refuse.
 */
START_TEST(test_trusting_apparmor_approximates)
{
	int want[PATH_COUNT];

	fill_want(want, EACCES, 0);
	set_trust("apparmor,bpf");
	expect_all("pidfd_send_exists", NULL, SIGUSR1, want);
	set_trust("all");
	expect_all("pidfd_send_exists", NULL, SIGUSR1, want);
}
END_TEST

static void expect_trust(const char *write, const char *read_back)
{
	char value[128];

	set_trust(write);
	ck_assert_int_eq(pt_read_text(LT_TRUST_PARAM, value, sizeof(value)),
			 0);
	ck_assert_msg(!strcmp(value, read_back),
		      "wrote '%s', read back '%s', want '%s'", write, value,
		      read_back);
}

static int write_trust_unprivileged(void *arg __attribute__((unused)))
{
	if (pt_drop_privs(PT_NOBODY, PT_NOBODY) < 0)
		PT_FAIL("cannot drop privileges");
	if (lt_write_trust("all") == 0)
		PT_FAIL("an unprivileged user changed signal_lsm_trust");
	PT_CHECK(errno == EACCES, "errno %s", pt_errname(errno));
	return 0;
}

START_TEST(test_trust_parameter)
{
	char value[128];

	expect_trust("", "");
	expect_trust("bpf\n", "bpf");
	expect_trust("", "");
	expect_trust("smack, apparmor", "apparmor,smack");
	expect_trust("selinux,bpf,apparmor,smack", "apparmor,selinux,smack,bpf");
	expect_trust("all", "all");
	expect_trust("bpf", "bpf");
	ck_assert_errno(lt_write_trust("tomoyo"), EINVAL);
	ck_assert_errno(lt_write_trust("bpf,nonsense"), EINVAL);
	ck_assert_int_eq(pt_read_text(LT_TRUST_PARAM, value, sizeof(value)),
			 0);
	ck_assert_str_eq(value, "bpf");
	pt_assert_child(write_trust_unprivileged, NULL);
}
END_TEST

static Suite *lsm_suite(void)
{
	Suite *s = suite_create("lsm");
	TCase *tc = pt_tcase(s, "signals");

	tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
	/* Every case runs dozens of processes under emulation. */
	tcase_set_timeout(tc, 4 * PT_TIMEOUT);
	pt_add_tests(tc, test_refusal_is_logged, test_refusal_names_bpf,
		     test_thread_label_counts, test_pgrp_mixed_members,
		     test_active_lsms_reported, test_probe_only_sender,
		     test_usr1_sender, test_target_refuses_receive,
		     test_sigkill_every_scope, test_unconfined_default,
		     test_unconfined_trusting_bpf,
		     test_trusting_apparmor_approximates, test_trust_parameter);
	return s;
}

int main(void)
{
	return pt_main(lsm_suite());
}
