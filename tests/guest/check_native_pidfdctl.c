// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl on the kernel's own pidfds, without the module (run before it
 * is loaded, on every kernel of the matrix): each command works where the
 * kernel has what it needs, and says the module is needed (exit code 2)
 * where it has not.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pidfd_test.h"
#include "tool_run.h"

static void assert_needs_module(const struct pt_tool_run *r)
{
	ck_assert_msg(strstr(r->stderr_text, "modprobe pidfd"), "stderr: %s",
		      r->stderr_text);
}

/* A child that sleeps until killed; its number as text in @pid[16]. */
static pid_t fork_sleeper_arg(char *pid)
{
	pid_t child = pt_fork_sleeper();

	snprintf(pid, 16, "%d", child);
	return child;
}

/* Asserts that pidfdctl printed the line @fmt makes. */
static void __attribute__((format(printf, 2, 3)))
assert_printed(const struct pt_tool_run *r, const char *fmt, ...)
{
	char line[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ck_assert_msg(strstr(r->stdout_text, line), "%s", r->stdout_text);
}

START_TEST(info_from_6_13)
{
	struct pt_tool_run r;
	char pid[16];
	pid_t child = fork_sleeper_arg(pid);

	if (pt_kernel_at_least(6, 13)) {
		ck_assert_int_eq(PT_TOOL(&r, "info", pid), 0);
		assert_printed(&r, "pid:      %d\n", child);
		assert_printed(&r, "ppid:     %d\n", getpid());
	} else {
		ck_assert_int_eq(PT_TOOL(&r, "info", pid), 2);
		assert_needs_module(&r);
	}
	pt_kill_reap(child);
}
END_TEST

START_TEST(status_everywhere)
{
	struct pt_tool_run r;
	char pid[16];
	pid_t child = fork_sleeper_arg(pid);

	ck_assert_int_eq(PT_TOOL(&r, "status", pid), 0);
	assert_printed(&r, "\nPid:\t%d\n", child);
	pt_kill_reap(child);
	ck_assert_int_eq(PT_TOOL(&r, "status", pid), 1);
}
END_TEST

/* A process that is not pidfdctl's child: its status once we reap it. */
START_TEST(wait_non_child)
{
	struct pt_tool_run r;
	char pid[16], line[64];
	pid_t child = fork_sleeper_arg(pid);

	pt_tool_start(&r, (const char *const[]){ "wait", pid, NULL });
	pt_tool_wait_holding(r.pid, child);
	ck_assert_int_eq(kill(child, SIGTERM), 0);
	ck_assert_int_eq(pt_reap(child), 128 + SIGTERM);
	ck_assert_int_eq(pt_tool_finish(&r), 0);
	if (pt_kernel_at_least(6, 15))
		snprintf(line, sizeof(line), "%d: killed by signal SIGTERM\n",
			 child);
	else
		snprintf(line, sizeof(line), "%d: exited (status unavailable)\n",
			 child);
	ck_assert_str_eq(r.stdout_text, line);
}
END_TEST

START_TEST(kill_thread_id)
{
	struct pt_sync ready;
	struct pt_tool_run r;
	pthread_t thread;
	char tid[16];

	pt_sync_init(&ready);
	ck_assert_int_eq(pthread_create(&thread, NULL, pt_idle_thread, &ready),
			 0);
	snprintf(tid, sizeof(tid), "%d", pt_sync_get(&ready, 10000));
	pt_sync_close(&ready);
	/* One rule everywhere: a thread ID is not a process. */
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "0", tid), 1);
	ck_assert_msg(strstr(r.stderr_text, " is a thread, not a process"),
		      "%s", r.stderr_text);
	ck_assert_int_eq(PT_TOOL(&r, "wait", "--timeout", "1", tid), 1);
	ck_assert_msg(strstr(r.stderr_text, " is a thread, not a process (wait"),
		      "%s", r.stderr_text);
	if (pt_kernel_at_least(6, 9)) {
		ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "0", "--thread", tid),
				 0);
	} else {
		ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "0", "--thread", tid),
				 2);
		assert_needs_module(&r);
	}
}
END_TEST

/*
 * kill -PGID, as kill(1): the whole group, the members the leader made
 * included; with nobody left, ESRCH and exit 1.
 */
START_TEST(kill_process_group)
{
	struct pt_tool_run r;
	char arg[24];
	int ready[2];
	pid_t leader, member = 0;

	ck_assert_int_eq(pipe(ready), 0);
	leader = pt_fork();
	if (leader == 0) {
		pid_t m;

		setpgid(0, 0);
		m = fork();
		if (m == 0) {
			pause();
			_exit(0);
		}
		if (write(ready[1], &m, sizeof(m)) != sizeof(m))
			_exit(1);
		pause();
		_exit(0);
	}
	ck_assert_int_eq(read(ready[0], &member, sizeof(member)), sizeof(member));
	close(ready[0]);
	close(ready[1]);
	snprintf(arg, sizeof(arg), "-%d", leader);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-s", "TERM", arg), 0);
	ck_assert_int_eq(pt_reap(leader), 128 + SIGTERM);
	/* The member, now init's, is gone too: no one is left in the group. */
	for (int i = 0; i < 100 && kill(member, 0) == 0; i++)
		usleep(20000);
	ck_assert_int_eq(kill(-leader, 0), -1);
	ck_assert_int_eq(PT_TOOL(&r, "kill", "-0", arg), 1);
	ck_assert_msg(strstr(r.stderr_text, "process group"), "%s", r.stderr_text);
}
END_TEST

/* Without the module, doctor says what libpidfd does itself. */
START_TEST(doctor_without_module)
{
	struct pt_tool_run r;
	char want[128];

	ck_assert_int_eq(PT_TOOL(&r, "doctor"), 0);
	snprintf(want, sizeof(want), "  %-44s %s\n",
		 "PIDFD_GET_PROCFD, from_procdir", "proved in userspace (libpidfd)");
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	snprintf(want, sizeof(want), "  %-44s %s\n", "PIDFD_AUTOKILL",
		 "needs the module");
	ck_assert_msg(strstr(r.stdout_text, want), "%s", r.stdout_text);
	ck_assert_int_eq(PT_TOOL(&r, "doctor", "--json"), 0);
	ck_assert_msg(r.stdout_text[0] == '{' &&
		      strstr(r.stdout_text, "\"features\": [\"pidfd_open\", ") &&
		      strstr(r.stdout_text, "\"module\": null") &&
		      strstr(r.stdout_text, "\"open\": \"kernel\", \"procfd\": \"userspace\", "
			     "\"autokill\": null}}\n"),
		      "%s", r.stdout_text);
}
END_TEST

PT_SUITE_MAIN("native_pidfdctl", info_from_6_13, status_everywhere,
	      wait_non_child, kill_thread_id, kill_process_group,
	      doctor_without_module)
