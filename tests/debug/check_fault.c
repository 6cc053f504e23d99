// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection on every ioctl path (debug kernel only: it needs
 * CONFIG_FAULT_INJECTION, FAILSLAB and FAULT_INJECTION_USERCOPY). For each
 * operation, the n-th slab allocation or user copy of the calling thread
 * fails (/proc/thread-self/fail-nth), for n = 1, 2, ... until the call runs
 * without reaching the n-th fault site. Every failed call must return a
 * clean errno, leave live_pidfds where it was, and the same call without a
 * fault must work right after. kmemleak (at the end of the VM run) and the
 * kernel-log watch catch the rest.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fault_inject.h"
#include "pidfd_test.h"

#define MAX_SITES	400

struct fault_target {
	pid_t live;	/* blocks SIGUSR1, own process group */
	pid_t reaped;	/* exited with 5, reaped */
	pid_t fresh;	/* a child no pidfd has named: one per call */
	int live_fd, thread_fd, reaped_fd, procfd;
	int live_dir;	/* /proc/<live> */
	int sock[2];	/* a connected pair: our own peer */
};

static struct fault_target ft;

static void setup(void)
{
	struct pt_sync ready;
	char name[16];
	sigset_t set;

	fi_setup();
	pt_sync_init(&ready);
	ft.live = pt_fork();
	if (ft.live == 0) {
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		setpgid(0, 0);
		pt_sync_put(&ready, 1);
		for (;;)
			pause();
	}
	ck_assert_int_gt(ft.live, 0);
	ck_assert_int_eq(pt_sync_get(&ready, 10000), 1);
	pt_sync_close(&ready);
	ft.live_fd = pt_open_ok(ft.live, 0);
	ft.thread_fd = pt_open_ok(ft.live, PIDFD_THREAD);
	ft.reaped = pt_fork_exit(5);
	ft.reaped_fd = pt_open_ok(ft.reaped, 0);
	ck_assert_int_eq(pt_reap(ft.reaped), 5);
	ft.procfd = open("/proc", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(ft.procfd, 0);
	snprintf(name, sizeof(name), "%d", (int)ft.live);
	ft.live_dir = openat(ft.procfd, name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(ft.live_dir, 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
				    ft.sock), 0);
}

static void teardown(void)
{
	close(ft.sock[0]);
	close(ft.sock[1]);
	close(ft.live_dir);
	close(ft.procfd);
	close(ft.reaped_fd);
	close(ft.thread_fd);
	close(ft.live_fd);
	pt_kill_reap(ft.live);
	pt_dev_close();
}

/* ---- the operations: 0 or -1/errno, nothing left open ---------------- */

static int close_result(int fd)
{
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int op_open(void)
{
	return close_result(pt_open(ft.live, 0));
}

static int op_open_thread(void)
{
	return close_result(pt_open(ft.live, PIDFD_THREAD));
}

/*
 * A process no pidfd has named yet: the module makes its target and the
 * target's inode (before 6.9 a target lives as long as its process, so a
 * child of its own for each call).
 */
static void fork_fresh(void)
{
	ft.fresh = pt_fork_sleeper();
}

static void reap_fresh(void)
{
	pt_kill_reap(ft.fresh);
}

static int op_open_fresh(void)
{
	return close_result(pt_open(ft.fresh, 0));
}

/* Its close kills the child (then reaped by reap_fresh()). */
static int op_open_autokill(void)
{
	return close_result(pt_open(ft.fresh, PIDFD_AUTOKILL));
}

static int op_open_procdir(void)
{
	return close_result(pt_open_procdir(ft.live_dir, 0));
}

static int op_open_peer(void)
{
	return close_result(pt_open_peer(ft.sock[0], 0));
}

static int op_open_device(void)
{
	/* A first open of the device and a pidfd through it. */
	pt_dev_close();
	return op_open();
}

static int op_signal_process(void)
{
	return pt_send_signal(ft.live_fd, SIGUSR1, NULL, 0);
}

static int op_signal_pgrp(void)
{
	return pt_send_signal(ft.live_fd, SIGUSR1, NULL,
			      PIDFD_SIGNAL_PROCESS_GROUP);
}

static int op_signal_thread(void)
{
	return pt_send_signal(ft.thread_fd, SIGUSR1, NULL, 0);
}

static int op_signal_process_info(void)
{
	siginfo_t si;

	pt_siginfo(&si, SIGUSR1, SI_QUEUE, 7);
	return pt_send_signal(ft.live_fd, SIGUSR1, &si, 0);
}

static int op_signal_thread_info(void)
{
	siginfo_t si;

	pt_siginfo(&si, SIGUSR1, SI_QUEUE, 7);
	return pt_send_signal(ft.live_fd, SIGUSR1, &si, PIDFD_SIGNAL_THREAD);
}

static int op_signal_0(void)
{
	return pt_send_signal(ft.thread_fd, 0, NULL, 0);
}

static int op_get_procfd(void)
{
	return close_result(pt_get_procfd(ft.live_fd, ft.procfd));
}

static int op_get_info(void)
{
	struct pidfd_dev_info info;

	return pt_get_info(ft.live_fd, &info, PIDFD_INFO_PID |
			   PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID);
}

static int op_get_info_exit(void)
{
	struct pidfd_dev_info info;
	int ret = pt_get_info(ft.reaped_fd, &info, PIDFD_INFO_EXIT);

	if (ret == 0 && info.exit_code != 5 << 8) {
		errno = EPROTO;	/* a wrong status, reported as such */
		return -1;
	}
	return ret;
}

static int op_get_namespace(void)
{
	return close_result(ioctl(ft.live_fd, PIDFD_GET_UTS_NAMESPACE, 0));
}

/* @prepare and @cleanup, where given, run around each call, unfaulted. */
struct operation {
	const char *name;
	int (*run)(void);
	void (*prepare)(void);
	void (*cleanup)(void);
};

static const struct operation operations[] = {
	{ "PIDFD_DEV_OPEN", op_open },
	{ "PIDFD_DEV_OPEN, PIDFD_THREAD", op_open_thread },
	{ "PIDFD_DEV_OPEN, a process never named", op_open_fresh, fork_fresh,
	  reap_fresh },
	{ "PIDFD_DEV_OPEN, PIDFD_AUTOKILL", op_open_autokill, fork_fresh,
	  reap_fresh },
	{ "PIDFD_DEV_OPEN_PROCDIR", op_open_procdir },
	{ "PIDFD_DEV_OPEN_PEER", op_open_peer },
	{ "open /dev/pidfd, PIDFD_DEV_OPEN", op_open_device },
	{ "signal, process", op_signal_process },
	{ "signal, process group", op_signal_pgrp },
	{ "signal, thread", op_signal_thread },
	{ "signal, process, siginfo", op_signal_process_info },
	{ "signal, thread, siginfo", op_signal_thread_info },
	/* A group's signal with a siginfo is refused before any: abi.md. */
	{ "signal 0", op_signal_0 },
	{ "PIDFD_GET_PROCFD", op_get_procfd },
	{ "PIDFD_GET_INFO", op_get_info },
	{ "PIDFD_GET_INFO, EXIT", op_get_info_exit },
	{ "PIDFD_GET_UTS_NAMESPACE", op_get_namespace },
};

/*
 * One call of @op, its @n-th fault site failing (none for 0): its result,
 * errno, and in @fired whether the fault fired.
 */
static int run_op(const struct operation *op, unsigned int n, bool *fired)
{
	int ret, err;

	if (op->prepare)
		op->prepare();
	if (n)
		fi_arm(n);
	errno = 0;
	ret = op->run();
	err = errno;
	*fired = n && fi_disarm(NULL);
	if (op->cleanup)
		op->cleanup();
	errno = err;
	return ret;
}

START_TEST(fault_every_site)
{
	const struct operation *op = &operations[_i];
	unsigned int n, failed = 0;
	long live, now;
	bool fired;

	ck_assert_msg(run_op(op, 0, &fired) == 0, "%s without a fault: %s",
		      op->name, pt_errname(errno));
	ck_assert_int_eq(pt_read_long(PT_LIVE_PIDFDS, &live), 0);
	for (n = 1; n <= MAX_SITES; n++) {
		int ret, err;

		ret = run_op(op, n, &fired);
		err = errno;
		if (!fired) {
			ck_assert_msg(ret == 0, "%s: %s with no fault (n=%u)",
				      op->name, pt_errname(err), n);
			break;
		}
		if (ret < 0) {
			failed++;
			ck_assert_msg(fi_clean_errno(err),
				      "%s, fault at site %u: %s", op->name, n,
				      pt_errname(err));
		}
		ck_assert_int_eq(pt_read_long(PT_LIVE_PIDFDS, &now), 0);
		ck_assert_msg(now == live, "%s, fault at site %u: live_pidfds %ld, was %ld",
			      op->name, n, now, live);
		ck_assert_msg(run_op(op, 0, &fired) == 0,
			      "%s right after a fault at site %u: %s", op->name,
			      n, pt_errname(errno));
	}
	ck_assert_msg(n <= MAX_SITES, "%s: still faulting after %u sites",
		      op->name, MAX_SITES);
	printf("[fault] %s: %u fault sites, %u failed the call\n", op->name,
	       n - 1, failed);
	fflush(stdout);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fault");
	TCase *tc = pt_tcase(s, "fail-nth");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, fault_every_site, 0,
			    sizeof(operations) / sizeof(operations[0]));
	return pt_main(s);
}
