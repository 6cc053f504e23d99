// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <libpidfd.h>
#include "differential.h"

const struct db_features *diff_feat;

static const struct difference {
	const char *id;
	const char *native;
	const char *module;
	const char *reason;
} differences[D_NR] = {
	[D_SIGCONT_SESSION] = {
		"SIGCONT within the session, credentials refuse, thread scope or caller's siginfo",
		"0 (check_kill_permission's same-session exemption)",
		"EPERM",
		"differences.md \"Signals\" 2: permission is asked with signal 0, which has no exemption",
	},
	[D_PROCESS_SIGINFO_QUEUE] = {
		"process scope with a caller's siginfo, every thread blocking it",
		"queued on the process's shared queue (ShdPnd)",
		"queued on the target thread (its SigPnd)",
		"differences.md \"Signals\" 5: send_sig_info() cannot reach the shared queue",
	},
	[D_POLLHUP] = {
		"poll after reap on kernels < 6.9",
		"POLLIN",
		"POLLIN|POLLHUP",
		"differences.md \"Poll\": POLLHUP once reaped on every kernel",
	},
	[D_THREAD_POLL] = {
		"thread pidfd of a non-leader thread on kernels < 6.9",
		"no PIDFD_THREAD (EINVAL)",
		"POLLIN|POLLHUP once the thread is released",
		"differences.md \"Poll\": sched_process_free wakes the thread's wait_pidfd",
	},
	[D_FILE_TYPE] = {
		"module pidfd given to the kernel's pidfd syscalls",
		"accepted (kernel pidfd)",
		"EBADF (pidfd_send_signal, waitid, pidfd_getfd), EINVAL (setns)",
		"differences.md \"The file type\": the kernel recognises only its own file_operations",
	},
	[D_WAITID] = {
		"exit status of a child",
		"waitid(P_PIDFD)",
		"poll, then PIDFD_GET_INFO with PIDFD_INFO_EXIT after the reap",
		"differences.md \"The file type\": kernel_waitid() is not exported",
	},
	[D_SIGNAL_POLICY] = {
		"thread scope or a caller's siginfo, an active LSM that may tell signals apart and is not trusted (BPF-LSM on 6.1+ by default)",
		"delivered (the kernel asks every LSM about the real signal)",
		"EACCES, nothing delivered, one log line",
		"differences.md \"Signals\" 1: the module can ask the LSMs about signal 0 only (security.md \"The signal policy\")",
	},
};

void diff_asserted(enum diff_id d, const char *fmt, ...)
{
	va_list ap;

	printf("[differential] documented difference \"%s\" asserted: "
	       "native %s / module %s (%s); ", differences[d].id,
	       differences[d].native, differences[d].module,
	       differences[d].reason);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

struct pair open_pair(pid_t pid, unsigned int flags)
{
	struct pair p;

	for (int b = DB_NATIVE; b <= DB_MODULE; b++) {
		errno = 0;
		p.fd[b] = db_open((enum db_backend)b, pid, flags);
		p.err[b] = p.fd[b] < 0 ? errno : 0;
	}
	return p;
}

void close_pair(struct pair *p)
{
	for (int b = 0; b < 2; b++)
		if (p->fd[b] >= 0)
			close(p->fd[b]);
}

int native_unknown_ioctl_errno(void)
{
	return pt_kernel_at_least(6, 11) && !pt_kernel_at_least(6, 13) ?
	       EINVAL : ENOTTY;
}

void start_target(struct db_target *t, const struct db_creds *c, bool setsid)
{
	struct db_target_opts o = { .creds = c->ruid || c->euid ? c : NULL,
				    .setsid = setsid };

	ck_assert_int_eq(db_target_prepare(t), 0);
	ck_assert_int_gt(db_target_fork(t, &o), 0);
	ck_assert_msg(db_target_hello(t, WAIT_MS) == 0, "target %s: %s",
		      c->name, pt_errname(errno));
}

TCase *diff_tcase(Suite *s, const char *name)
{
	TCase *tc = pt_tcase(s, name);

	tcase_set_timeout(tc, TIMEOUT);
	return tc;
}

int diff_main(Suite *s)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* libpidfd is the module's side here: never the kernel's pidfds. */
	if (libpidfd_set_backend(LIBPIDFD_BACKEND_MODULE) < 0)
		return 1;
	diff_feat = db_features();
	return pt_main(s);
}
