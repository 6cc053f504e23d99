// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl side by side with the tools it stands in for, on the host's
 * kernel (its own pidfds, no module): "pidfdctl run" with timeout(1),
 * "pidfdctl kill" with kill(1), procps's and util-linux's, and "pidfdctl
 * wait" with util-linux's waitpid(1) (UTIL_LINUX_BIN: the directory
 * tests/unit/util-linux-tools builds them in; make check-util-linux). Each case runs both the same way and
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
#include <linux/magic.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
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

#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC	0x50494446	/* "PIDF", 6.9 */
#endif

/*
 * @pid's identity, the inode number of its pidfd where the kernel's pidfds
 * are pidfs files (6.9+), or 0.
 */
static unsigned long long kernel_identity(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	unsigned long long id = 0;
	struct statfs sfs;
	struct stat st;

	if (fd < 0)
		return 0;
	if (fstatfs(fd, &sfs) == 0 && sfs.f_type == PID_FS_MAGIC &&
	    fstat(fd, &st) == 0)
		id = st.st_ino;
	close(fd);
	return id;
}

/*
 * Two sleepers of ours; @argv's "A" and "B" become their PIDs, "A:ID"
 * A's PID and identity, "A:1" A's PID and an identity not its own.
 */
static struct outcome kill_run(const char *tool, const char *const *args)
{
	char pids[2][16], ids[2][48], *argv[10];
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
	snprintf(ids[0], sizeof(ids[0]), "%d:%llu", child[0],
		 kernel_identity(child[0]));
	snprintf(ids[1], sizeof(ids[1]), "%d:1", child[0]);
	argv[n++] = (char *)tool;
	if (strstr(tool, "pidfdctl"))
		argv[n++] = "kill";
	for (int i = 0; args[i]; i++)
		argv[n++] = !strcmp(args[i], "A") ? pids[0] :
			    !strcmp(args[i], "B") ? pids[1] :
			    !strcmp(args[i], "A:ID") ? ids[0] :
			    !strcmp(args[i], "A:1") ? ids[1] : (char *)args[i];
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

/* ---- kill and wait beside util-linux's kill and waitpid ---- */

/* util-linux's @tool in UTIL_LINUX_BIN, into @path; false without one. */
static bool util_linux_tool(const char *tool, char *path, size_t size)
{
	const char *dir = getenv("UTIL_LINUX_BIN");

	if (!dir || !*dir)
		return false;
	snprintf(path, size, "%s/%s", dir, tool);
	ck_assert_msg(access(path, X_OK) == 0, "%s: %m", path);
	return true;
}

#define UTIL_LINUX_SKIP \
	"util-linux's kill and waitpid are not given (UTIL_LINUX_BIN; " \
	"make check-util-linux builds them)"

/*
 * Same exit status and same fate of both processes, case by case; but case
 * @partial, where util-linux's kill exits 1 and pidfdctl's 64 ("some
 * failed"), if there is one (-1: none).
 */
static void kill_cases_like(const char *tool, const char *const cases[][6],
			    size_t ncases, int partial)
{
	for (size_t i = 0; i < ncases; i++) {
		struct outcome theirs = kill_run(tool, cases[i]);
		struct outcome ours = kill_run(PIDFDCTL_BINARY, cases[i]);
		char what[96];

		snprintf(what, sizeof(what), "util-linux kill case %zu (%s %s %s)",
			 i, cases[i][0], cases[i][1] ? cases[i][1] : "",
			 cases[i][1] && cases[i][2] ? cases[i][2] : "");
		if ((int)i == partial) {
			ck_assert_int_eq(theirs.status, 1);
			ck_assert_int_eq(ours.status, 64);
			theirs.status = ours.status;
		}
		assert_same(what, &theirs, &ours);
	}
}

START_TEST(kill_like_util_linux)
{
	static const char *const cases[][6] = {
		{ "A", "B", NULL },
		{ "-9", "A", NULL },
		{ "-s", "USR1", "A", "B", NULL },
		{ "-0", "A", NULL },
		{ "-TERM", "A", "999999999", "B", NULL },	/* 64 for both */
		{ "--timeout", "100", "KILL", "A", NULL },
		{ "-65", "A", NULL },
		{ "-s", "NOSUCH", "A", NULL },
		{ "-l", "9", NULL },
		{ "-l", "137", NULL },
		{ "-l", "0x3", NULL },
		{ "--list=9", NULL },
		{ "-l", "0xzz", NULL },
	};
	char tool[4096];

	if (!util_linux_tool("kill", tool, sizeof(tool)))
		PT_SKIP(UTIL_LINUX_SKIP);
	kill_cases_like(tool, cases, sizeof(cases) / sizeof(cases[0]), -1);
}
END_TEST

/* PID:ID, util-linux's PID:INODE: only the process whose identity it is. */
START_TEST(kill_identity_like_util_linux)
{
	/*
	 * A PID:ID comes last: util-linux 2.42.4 checks the PIDs after one
	 * against its identity too ("kill A:ID B" leaves B alive and exits
	 * 1), a bug of its own that pidfdctl does not copy. A wrong identity
	 * after a PID that was signalled is "some failed" for pidfdctl (64),
	 * as any other PID that fails; util-linux's kill exits 1 there.
	 */
	static const char *const cases[][6] = {
		{ "-0", "A:ID", NULL },
		{ "B", "A:ID", NULL },
		{ "-0", "A:1", NULL },
		{ "B", "A:1", NULL },
	};
	char tool[4096];

	if (!util_linux_tool("kill", tool, sizeof(tool)))
		PT_SKIP(UTIL_LINUX_SKIP);
	if (!kernel_identity(getpid()))
		PT_SKIP("this kernel's pidfds have no identity (pidfs, 6.9)");
	kill_cases_like(tool, cases, sizeof(cases) / sizeof(cases[0]), 3);
}
END_TEST

/*
 * One wait with @tool ("waitpid", or pidfdctl's "wait") over @args, where
 * "Q" is a process that exits 0.2 s from now, "L" one that lives 7 s, "G"
 * a PID no process has, "Q:1" Q with an identity not its own.
 */
static struct outcome wait_run(const char *tool, const char *const *args)
{
	char nr[3][32], wrong[48], *argv[10];
	struct outcome o;
	pid_t quick, lasting, gone;
	int n = 0, status;

	quick = fork();
	ck_assert_int_ge(quick, 0);
	if (quick == 0) {
		usleep(200000);
		_exit(0);
	}
	lasting = fork();
	ck_assert_int_ge(lasting, 0);
	if (lasting == 0) {
		sleep(7);
		_exit(0);
	}
	gone = fork();
	ck_assert_int_ge(gone, 0);
	if (gone == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(gone, &status, 0), gone);
	snprintf(nr[0], sizeof(nr[0]), "%d", quick);
	snprintf(nr[1], sizeof(nr[1]), "%d", lasting);
	snprintf(nr[2], sizeof(nr[2]), "%d", gone);
	snprintf(wrong, sizeof(wrong), "%d:1", quick);
	argv[n++] = (char *)tool;
	if (strstr(tool, "pidfdctl"))
		argv[n++] = "wait";
	for (int i = 0; args[i]; i++)
		argv[n++] = !strcmp(args[i], "Q") ? nr[0] :
			    !strcmp(args[i], "L") ? nr[1] :
			    !strcmp(args[i], "G") ? nr[2] :
			    !strcmp(args[i], "Q:1") ? wrong : (char *)args[i];
	argv[n] = NULL;
	o = run(argv, 0);
	kill(lasting, SIGKILL);
	ck_assert_int_eq(waitpid(lasting, &status, 0), lasting);
	ck_assert_int_eq(waitpid(quick, &status, 0), quick);
	return o;
}

START_TEST(wait_like_waitpid)
{
	static const char *const cases[][6] = {
		{ "Q", NULL },
		{ "-c", "1", "Q", "L", NULL },
		{ "-t", "0.3", "L", NULL },			/* 3 for both */
		{ "-e", "G", NULL },
		{ "G", NULL },
		{ "Q", "G", NULL },
		{ "abc", NULL },
		{ "-c", "0", "Q", NULL },
		{ "-c", "3", "Q", "L", NULL },
		{ "Q:1", NULL },
		{ NULL },
	};
	char tool[4096];

	if (!util_linux_tool("waitpid", tool, sizeof(tool)))
		PT_SKIP(UTIL_LINUX_SKIP);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* Q:1 only where processes have identities. */
		if (!strcmp(cases[i][0] ? cases[i][0] : "", "Q:1") &&
		    !kernel_identity(getpid()))
			continue;
		struct outcome theirs = wait_run(tool, cases[i]);
		struct outcome ours = wait_run(PIDFDCTL_BINARY, cases[i]);
		char what[96];

		snprintf(what, sizeof(what), "waitpid case %zu (%s %s)", i,
			 cases[i][0] ? cases[i][0] : "no PID",
			 cases[i][0] && cases[i][1] ? cases[i][1] : "");
		assert_same(what, &theirs, &ours);
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
	tc = tcase_create("util_linux");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, kill_like_util_linux);
	tcase_add_test(tc, kill_identity_like_util_linux);
	tcase_add_test(tc, wait_like_waitpid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return pt_main(compat_suite());
}
