// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl side by side with the tools it stands in for, on the host's
 * kernel (its own pidfds, no module): "pidfdctl run" with timeout(1) and
 * "pidfdctl kill" with kill(1). Each case runs both the same way and
 * compares the status the shell would show and what every process of the
 * command got: the test is a child subreaper, so the command's orphans
 * come back to it and their wait status says which signal they died of.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../lib/check_glue.h"

#ifndef PIDFDCTL_BINARY
#define PIDFDCTL_BINARY "build/pidfdctl"
#endif

#define MAX_PROCS 8

/*
 * What a run left: its status as the shell shows it, and how its orphans
 * ended, each way once (how many orphans a KILL of the whole group leaves
 * depends on who reaps whom first, for timeout(1) as for pidfdctl).
 */
struct outcome {
	int status;		/* exit code, or 128 + signal */
	int signal;		/* the signal it died of, 0 if it exited */
	int orphans[MAX_PROCS];	/* the same for the orphans, sorted, unique */
	int norphans;
};

static int shell_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int compare_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static struct outcome unique(struct outcome o)
{
	int n = 0;

	qsort(o.orphans, (size_t)o.norphans, sizeof(int), compare_int);
	for (int i = 0; i < o.norphans; i++)
		if (!n || o.orphans[n - 1] != o.orphans[i])
			o.orphans[n++] = o.orphans[i];
	o.norphans = n;
	return o;
}

/* Runs @argv and then reaps its orphans for up to @linger_ms. */
static struct outcome run(char *const argv[], int linger_ms)
{
	struct outcome o = { .status = -1 };
	int64_t until;
	int status;
	pid_t pid, got;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	o.status = shell_status(status);
	o.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	until = now_ms() + linger_ms;
	while (now_ms() < until) {
		got = waitpid(-1, &status, WNOHANG);
		if (got < 0 && errno == ECHILD)
			break;
		if (got > 0) {
			ck_assert_int_lt(o.norphans, MAX_PROCS);
			o.orphans[o.norphans++] = shell_status(status);
		} else {
			usleep(10000);
		}
	}
	return unique(o);
}

static void assert_same(const char *what, const struct outcome *tool,
			const struct outcome *ours)
{
	ck_assert_msg(tool->status == ours->status,
		      "%s: the tool exits %d, pidfdctl %d", what, tool->status,
		      ours->status);
	/* A shell stops its loop when its command dies of SIGINT, not 130. */
	ck_assert_msg(tool->signal == ours->signal,
		      "%s: the tool dies of signal %d, pidfdctl of %d", what,
		      tool->signal, ours->signal);
	ck_assert_msg(tool->norphans == ours->norphans,
		      "%s: the tool's processes end %d ways, pidfdctl's %d", what,
		      tool->norphans, ours->norphans);
	for (int i = 0; i < tool->norphans; i++)
		ck_assert_msg(tool->orphans[i] == ours->orphans[i],
			      "%s: orphan %d ends %d with the tool, %d with "
			      "pidfdctl", what, i, tool->orphans[i],
			      ours->orphans[i]);
}

/* ---- run and timeout(1) ---- */

struct run_case {
	const char *what;
	const char *options[4];	/* for both, before the duration */
	const char *duration;
	const char *script;	/* sh -c */
	int want;		/* the status both must show */
	int linger_ms;
};

/*
 * How long the processes a run leaves behind may take to end: long, as a
 * loaded machine is slow to deliver the signals, and it costs nothing
 * when they end at once (the wait stops when no child is left). The
 * timeouts are a second, so that even a loaded machine's shell has
 * started its commands (and set its traps) before the signals come.
 * Where the case is about the status, the command is exec'd: a shell
 * waiting for its child may reap it or leave it to us depending on which
 * of the two dies first, a race of the kernel's, not of the tools.
 */
#define LINGER_MS 8000
/* A case whose leftovers are not compared: only its status. */
#define STATUS_ONLY -1

static const struct run_case run_cases[] = {
	{ "a background child is signalled too", { NULL }, "1",
	  "sleep 7 & sleep 7", 124, LINGER_MS },
	/*
	 * The status only: timeout(1) kills its own group, itself in it, and
	 * leaves its dead command to its caller; pidfdctl leaves the group
	 * first and reaps it (the same 137 either way).
	 */
	{ "KILL after the timeout: 137", { "-k", "1", NULL }, "2",
	  "trap '' TERM; exec sleep 7", 137, STATUS_ONLY },
	{ "--foreground: only the command", { "--foreground", NULL }, "1",
	  "sleep 1 & exec sleep 7", 124, LINGER_MS },
	{ "another signal", { "-s", "USR1", NULL }, "1", "sleep 7 & sleep 7",
	  124, LINGER_MS },
	{ "--preserve-status", { "--preserve-status", NULL }, "1",
	  "exec sleep 7", 128 + SIGTERM, LINGER_MS },
	{ "the command's own exit", { NULL }, "5", "exit 3", 3, 200 },
	{ "no limit: inf", { NULL }, "inf", "exit 4", 4, 200 },
	{ "the command's own death", { NULL }, "5", "kill -USR1 $$",
	  128 + SIGUSR1, 200 },
	/* Ctrl-C: the tool dies of the command's SIGINT, as timeout(1). */
	{ "the command's death by SIGINT", { NULL }, "5", "kill -INT $$",
	  128 + SIGINT, 200 },
};

static void run_argv(char **argv, const char *tool, const struct run_case *c)
{
	int n = 0;

	/* The same words for both: pidfdctl run takes timeout(1)'s form. */
	argv[n++] = (char *)tool;
	if (strcmp(tool, "timeout") != 0)
		argv[n++] = "run";
	for (int i = 0; c->options[i]; i++)
		argv[n++] = (char *)c->options[i];
	argv[n++] = (char *)c->duration;
	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = (char *)c->script;
	argv[n] = NULL;
}

START_TEST(run_like_timeout)
{
	const struct run_case *c = &run_cases[_i];
	struct outcome tool, ours;
	char *argv[16];

	run_argv(argv, "timeout", c);
	tool = run(argv, c->linger_ms);
	run_argv(argv, PIDFDCTL_BINARY, c);
	ours = run(argv, c->linger_ms);
	ck_assert_msg(tool.status == c->want, "%s: timeout(1) exits %d, not %d",
		      c->what, tool.status, c->want);
	if (c->linger_ms == STATUS_ONLY)
		ck_assert_msg(ours.status == c->want, "%s: pidfdctl exits %d, not %d",
			      c->what, ours.status, c->want);
	else
		assert_same(c->what, &tool, &ours);
}
END_TEST

/* ---- kill and kill(1) ---- */

/* Two sleepers of ours; @argv's "A" and "B" become their PIDs. */
static struct outcome kill_run(const char *tool, const char *const *args)
{
	char pids[2][16], *argv[8];
	struct outcome o = { 0 };
	pid_t child[2];
	int n = 0, status;

	for (int i = 0; i < 2; i++) {
		int exec_seen[2];
		char c;

		/*
		 * Until it has exec'd, the child is a copy of this test with
		 * its handlers: the close-on-exec pipe's EOF says it is sleep.
		 */
		ck_assert_int_eq(pipe2(exec_seen, O_CLOEXEC), 0);
		child[i] = fork();
		ck_assert_int_ge(child[i], 0);
		if (child[i] == 0) {
			execlp("sleep", "sleep", "7", (char *)NULL);
			_exit(127);
		}
		close(exec_seen[1]);
		ck_assert_int_eq(read(exec_seen[0], &c, 1), 0);
		close(exec_seen[0]);
		snprintf(pids[i], sizeof(pids[i]), "%d", child[i]);
	}
	argv[n++] = (char *)tool;
	if (strcmp(tool, "kill") != 0)
		argv[n++] = "kill";
	for (int i = 0; args[i]; i++)
		argv[n++] = !strcmp(args[i], "A") ? pids[0] :
			    !strcmp(args[i], "B") ? pids[1] : (char *)args[i];
	argv[n] = NULL;
	o = run(argv, 0);
	for (int i = 0; i < 2; i++) {
		/* What the kill did not end ends here, and shows as 137. */
		kill(child[i], SIGKILL);
		ck_assert_int_eq(waitpid(child[i], &status, 0), child[i]);
		o.orphans[o.norphans++] = shell_status(status);
	}
	return o;	/* in the order of the PIDs: not unique() */
}

START_TEST(kill_like_kill)
{
	static const char *const cases[][6] = {
		{ "A", "B", NULL },
		{ "-9", "A", NULL },
		{ "-USR1", "A", "B", NULL },
		{ "-SIGHUP", "B", NULL },
		{ "-s", "INT", "A", "B", NULL },
		{ "-0", "A", NULL },
		{ "-TERM", "A", "999999999", "B", NULL },
	};
	/*
	 * The one documented difference from this kill(1), procps's: some
	 * PIDs failed and others did not exits 64 (util-linux's), not 1.
	 */
	const size_t some_failed = 6;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct outcome tool = kill_run("kill", cases[i]);
		struct outcome ours = kill_run(PIDFDCTL_BINARY, cases[i]);
		char what[64];

		snprintf(what, sizeof(what), "kill case %zu (%s %s)", i,
			 cases[i][0], cases[i][1]);
		if (i == some_failed) {
			ck_assert_int_eq(tool.status, 1);
			ck_assert_int_eq(ours.status, 64);
			tool.status = ours.status;
		}
		assert_same(what, &tool, &ours);
	}
}
END_TEST

static Suite *compat_suite(void)
{
	Suite *s = suite_create("pidfdctl_compat");
	TCase *tc = tcase_create("side_by_side");

	tcase_set_timeout(tc, 300);	/* a loaded machine: 20 runs of two tools */
	tcase_add_loop_test(tc, run_like_timeout, 0,
			    (int)(sizeof(run_cases) / sizeof(run_cases[0])));
	tcase_add_test(tc, kill_like_kill);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return pt_main(compat_suite());
}
