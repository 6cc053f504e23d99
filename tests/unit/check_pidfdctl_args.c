// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl on the host, without the module: the argument parser called
 * directly, and the built binary run with good and bad arguments.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libpidfd.h>

#include "args.h"
#include "bpf_lsm.h"
#include "../lib/check_glue.h"

#ifndef PIDFDCTL_BINARY
#define PIDFDCTL_BINARY "build/pidfdctl"
#endif

#define ARGV(...) ((char *[]){ "pidfdctl", __VA_ARGS__, NULL })
#define ARGC(argv) ((int)(sizeof(argv) / sizeof(char *)) - 1)

/* Parse; on failure keep the error text in err_text. */
static char *err_text;

static int parse(char **argv, struct pidfdctl_args *args)
{
	size_t len = 0;
	FILE *err;
	int argc = 0, ret;

	while (argv[argc])
		argc++;
	free(err_text);
	err_text = NULL;
	err = open_memstream(&err_text, &len);
	ck_assert_ptr_nonnull(err);
	ret = pidfdctl_parse(argc, argv, args, err);
	fclose(err);
	return ret;
}

static void teardown(void)
{
	free(err_text);
	err_text = NULL;
}

/* An error message is prefixed and points at --help. */
static void assert_usage_error(const char *needle)
{
	ck_assert_ptr_nonnull(err_text);
	ck_assert_msg(strncmp(err_text, "pidfdctl: ", 10) == 0, "got: %s", err_text);
	ck_assert_msg(strstr(err_text, needle), "'%s' not in: %s", needle, err_text);
	ck_assert_msg(strstr(err_text, "Try 'pidfdctl --help' for more information."),
		      "got: %s", err_text);
}

/* Parsing @argv fails with a usage error that says @needle. */
static void assert_rejected(char **argv, const char *needle)
{
	struct pidfdctl_args a;

	ck_assert_msg(parse(argv, &a) == -1,
		      "pidfdctl %s ...: accepted, want '%s'", argv[1], needle);
	assert_usage_error(needle);
	pidfdctl_args_free(&a);
}

START_TEST(no_command)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse((char *[]){ "pidfdctl", NULL }, &a), -1);
	assert_usage_error("no command specified");
	ck_assert_int_eq(pidfdctl_usage_exit_code(&a), PIDFDCTL_EXIT_FAILURE);
	pidfdctl_args_free(&a);
}
END_TEST

START_TEST(unknown_command)
{
	assert_rejected(ARGV("frobnicate", "1"),
			"unknown command 'frobnicate'");
	assert_rejected(ARGV("--timeout", "1", "wait", "1"),
			"a command must come first");
}
END_TEST

/* Options every command takes may come before the command, too. */
START_TEST(global_options_first)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("-v", "kill", "-9", "42"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_KILL);
	ck_assert(a.verbose);
	ck_assert_int_eq(a.signal, SIGKILL);
	ck_assert_int_eq(a.pids[0], 42);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("--backend", "module", "--verbose", "wait", "42"),
			       &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_WAIT);
	ck_assert_int_eq(a.backend, LIBPIDFD_BACKEND_MODULE);
	ck_assert(a.verbose);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("--backend=native", "info", "42"), &a), 0);
	ck_assert_int_eq(a.backend, LIBPIDFD_BACKEND_NATIVE);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("--backend", "nope", "wait", "42"),
			"unknown backend 'nope'");
	/* A command's own option is still not a global one. */
	assert_rejected(ARGV("--timeout", "1", "wait", "1"),
			"a command must come first");
}
END_TEST

START_TEST(help_and_version)
{
	const struct {
		char **argv;
		int command;
	} cases[] = {
		{ ARGV("--help"), PIDFDCTL_HELP },
		{ ARGV("-h"), PIDFDCTL_HELP },
		{ ARGV("-V"), PIDFDCTL_VERSION },
		/* Each command takes --help too, even with a missing PID. */
		{ ARGV("kill", "--help"), PIDFDCTL_HELP },
		{ ARGV("run", "--version"), PIDFDCTL_VERSION },
	};
	struct pidfdctl_args a;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(parse(cases[i].argv, &a), 0);
		ck_assert_int_eq(a.command, cases[i].command);
		pidfdctl_args_free(&a);
	}
}
END_TEST

/* PID:ID, util-linux's PID:INODE: the identity in ids[], 0 for a bare PID. */
START_TEST(pid_colon_id)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("kill", "-0", "12:345", "67",
				    "8:18446744073709551615"), &a), 0);
	ck_assert_uint_eq(a.npids, 3);
	ck_assert_int_eq(a.pids[0], 12);
	ck_assert_uint_eq(a.ids[0], 345);
	ck_assert_int_eq(a.pids[1], 67);
	ck_assert_uint_eq(a.ids[1], 0);
	ck_assert_int_eq(a.pids[2], 8);
	ck_assert(a.ids[2] == UINT64_MAX);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("info", "--json", "9:10"), &a), 0);
	ck_assert_int_eq(a.pids[0], 9);
	ck_assert_uint_eq(a.ids[0], 10);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("wait", "12:"), "invalid PID '12:'");
	assert_rejected(ARGV("wait", ":12"), "invalid PID ':12'");
	assert_rejected(ARGV("wait", "12:0"), "invalid PID '12:0'");
	assert_rejected(ARGV("wait", "12:x"), "invalid PID '12:x'");
	assert_rejected(ARGV("wait", "12:-1"), "invalid PID '12:-1'");
	assert_rejected(ARGV("wait", "12:18446744073709551616"), "invalid PID");
	assert_rejected(ARGV("status", "0:5"), "invalid PID '0:5'");
}
END_TEST

START_TEST(wait_pids_and_timeout)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("wait", "12", "34", "--timeout", "1.5", "56"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_WAIT);
	ck_assert_uint_eq(a.npids, 3);
	ck_assert_int_eq(a.pids[0], 12);
	ck_assert_int_eq(a.pids[1], 34);
	ck_assert_int_eq(a.pids[2], 56);
	ck_assert_int_eq(a.timeout_ms, 1500);
	ck_assert(!a.exited_ok && !a.quiet);
	pidfdctl_args_free(&a);

	ck_assert_int_eq(parse(ARGV("wait", "-e", "-q", "-t", "2m", "7"), &a), 0);
	ck_assert(a.exited_ok && a.quiet);
	ck_assert_int_eq(a.timeout_ms, 120000);
	pidfdctl_args_free(&a);

	/* No timeout by default; 0 means none, as timeout(1) has it. */
	ck_assert_int_eq(parse(ARGV("wait", "7"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, -1);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("wait", "--timeout=0", "7"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, -1);
	pidfdctl_args_free(&a);
}
END_TEST

START_TEST(wait_count)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("wait", "-c", "2", "1", "2", "3"), &a), 0);
	ck_assert_uint_eq(a.count, 2);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("wait", "1", "--count=1"), &a), 0);
	ck_assert_uint_eq(a.count, 1);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("wait", "-c", "3", "1", "2"),
			"wait: --count 3 is more than the 2 PIDs given");
	assert_rejected(ARGV("wait", "-c", "0", "1"), "invalid count '0'");
	assert_rejected(ARGV("kill", "-c", "1", "1"), "not allowed");
	ck_assert_int_eq(parse(ARGV("wait", "--exit-status", "1"), &a), 0);
	ck_assert(a.exit_status);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("kill", "-x", "1"), "not allowed");
}
END_TEST

START_TEST(wait_errors)
{
	assert_rejected(ARGV("wait"), "no PID specified");
	assert_rejected(ARGV("wait", "12", "x3"), "invalid PID 'x3'");
	assert_rejected(ARGV("wait", "0"), "invalid PID '0'");
	assert_rejected(ARGV("wait", "99999999999"), "invalid PID");
	assert_rejected(ARGV("wait", "-t", "soon", "1"),
			"invalid timeout 'soon'");
	assert_rejected(ARGV("wait", "-t"), "requires an argument");
	assert_rejected(ARGV("wait", "--json", "1"),
			"wait: option '--json' not allowed");
	assert_rejected(ARGV("wait", "--bogus", "1"),
			"unrecognized option '--bogus'");
	assert_rejected(ARGV("wait", "-z", "1"), "invalid option -- 'z'");
}
END_TEST

START_TEST(durations)
{
	static const struct {
		const char *text;
		int64_t ms;
	} good[] = {
		{ "0", 0 }, { "1", 1000 }, { "0.25", 250 }, { ".5s", 500 },
		{ "3m", 180000 }, { "1h", 3600000 }, { "1d", 86400000 },
		{ "0.0001", 1 },	/* rounded up, never to "no timeout" */
		{ "inf", 0 }, { "Infinity", 0 },	/* timeout(1)'s: none */
	};
	static const char *const bad[] = {
		"", "-1", "1x", "1ms", "s", "abc", "nan", "infs", "1 ",
	};
	int64_t ms;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(pidfdctl_parse_duration(good[i].text, &ms) == 0,
			      "%s", good[i].text);
		ck_assert_int_eq(ms, good[i].ms);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(pidfdctl_parse_duration(bad[i], &ms) < 0,
			      "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(signals)
{
	static const struct {
		const char *text;
		int sig;
	} good[] = {
		{ "9", SIGKILL }, { "0", 0 }, { "KILL", SIGKILL },
		{ "SIGKILL", SIGKILL }, { "sigusr1", SIGUSR1 }, { "term", SIGTERM },
		{ "HUP", SIGHUP }, { "CHLD", SIGCHLD },
	};
	static const char *const bad[] = {
		"", "FOO", "SIG", "65", "-1", "9x", "RTMIN+", "RTMIN-1",
		"RTMAX+1", "RTMIN+99",
	};
	char name[32];
	int sig;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(pidfdctl_parse_signal(good[i].text, &sig) == 0,
			      "%s", good[i].text);
		ck_assert_int_eq(sig, good[i].sig);
	}
	ck_assert_int_eq(pidfdctl_parse_signal("RTMIN", &sig), 0);
	ck_assert_int_eq(sig, SIGRTMIN);
	ck_assert_int_eq(pidfdctl_parse_signal("SIGRTMIN+2", &sig), 0);
	ck_assert_int_eq(sig, SIGRTMIN + 2);
	ck_assert_int_eq(pidfdctl_parse_signal("rtmax-1", &sig), 0);
	ck_assert_int_eq(sig, SIGRTMAX - 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(pidfdctl_parse_signal(bad[i], &sig) < 0,
			      "'%s' accepted", bad[i]);

	ck_assert_str_eq(pidfdctl_signal_name(SIGKILL, name, sizeof(name)), "SIGKILL");
	ck_assert_str_eq(pidfdctl_signal_name(SIGRTMIN + 3, name, sizeof(name)),
			 "SIGRTMIN+3");
	/* Every name we print parses back to its number. */
	for (int s = 1; s <= SIGRTMAX; s++) {
		if (s > SIGSYS && s < SIGRTMIN)
			continue;
		ck_assert_int_eq(pidfdctl_parse_signal(
				 pidfdctl_signal_name(s, name, sizeof(name)), &sig), 0);
		ck_assert_int_eq(sig, s);
	}
}
END_TEST

/* "pidfdctl kill" with @argv sends @sig with scope @scope. */
static void assert_kill_parsed(char **argv, int sig, unsigned int scope)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(argv, &a), 0);
	ck_assert_int_eq(a.signal, sig);
	ck_assert_uint_eq(a.scope, scope);
	pidfdctl_args_free(&a);
}

START_TEST(kill_options)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("kill", "42"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_KILL);
	ck_assert_int_eq(a.signal, SIGTERM);
	ck_assert_uint_eq(a.scope, 0);
	ck_assert(!a.has_value);
	ck_assert_int_eq(a.pids[0], 42);
	pidfdctl_args_free(&a);

	assert_kill_parsed(ARGV("kill", "-s", "USR1", "--thread", "42"),
			   SIGUSR1, PIDFD_SIGNAL_THREAD);
	assert_kill_parsed(ARGV("kill", "--thread-group", "--signal=9", "42"),
			   SIGKILL, PIDFD_SIGNAL_THREAD_GROUP);
	ck_assert_int_eq(parse(ARGV("kill", "--process-group", "42"), &a), 0);
	ck_assert_uint_eq(a.scope, PIDFD_SIGNAL_PROCESS_GROUP);
	pidfdctl_args_free(&a);
	/* Repeating the same scope is harmless. */
	ck_assert_int_eq(parse(ARGV("kill", "--thread", "--thread", "42"), &a), 0);
	pidfdctl_args_free(&a);

	ck_assert_int_eq(parse(ARGV("kill", "-s", "RTMIN+1", "--value", "-7", "42"), &a), 0);
	ck_assert(a.has_value);
	ck_assert_int_eq(a.value, -7);
	ck_assert_int_eq(a.signal, SIGRTMIN + 1);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("kill", "--value", "0x10", "42"), &a), 0);
	ck_assert_int_eq(a.value, 16);
	pidfdctl_args_free(&a);

	ck_assert_int_eq(parse(ARGV("kill", "--list"), &a), 0);
	ck_assert(a.list_signals);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("kill", "-l"), &a), 0);
	ck_assert(a.list_signals);
	ck_assert_ptr_null(a.list_arg);
	pidfdctl_args_free(&a);
	/* kill(1)'s "-l SIG" and "-L". */
	ck_assert_int_eq(parse(ARGV("kill", "-l", "9"), &a), 0);
	ck_assert_str_eq(a.list_arg, "9");
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("kill", "-L"), &a), 0);
	ck_assert(a.list_signals);
	pidfdctl_args_free(&a);

	/* kill(1)'s forms: -N, -NAME, -SIGNAME first; several PIDs. */
	ck_assert_int_eq(parse(ARGV("kill", "-9", "42", "43"), &a), 0);
	ck_assert_int_eq(a.signal, SIGKILL);
	ck_assert_uint_eq(a.npids, 2);
	ck_assert_int_eq(a.pids[1], 43);
	pidfdctl_args_free(&a);
	assert_kill_parsed(ARGV("kill", "-USR1", "--thread", "42"), SIGUSR1,
			   PIDFD_SIGNAL_THREAD);
	ck_assert_int_eq(parse(ARGV("kill", "-SIGHUP", "42"), &a), 0);
	ck_assert_int_eq(a.signal, SIGHUP);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("kill", "-0", "42"), &a), 0);
	ck_assert_int_eq(a.signal, 0);
	pidfdctl_args_free(&a);
}
END_TEST

/* kill(1)'s -PGID: a process group, wherever it stands. */
START_TEST(kill_process_groups)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("kill", "-9", "-123", "45"), &a), 0);
	ck_assert_int_eq(a.signal, SIGKILL);
	ck_assert_uint_eq(a.npids, 2);
	ck_assert_int_eq(a.pids[0], 45);	/* groups come last */
	ck_assert_int_eq(a.pids[1], -123);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("kill", "-s", "0", "--", "-77"), &a), 0);
	ck_assert_int_eq(a.pids[0], -77);
	pidfdctl_args_free(&a);
	/* An option's negative argument stays the option's. */
	ck_assert_int_eq(parse(ARGV("kill", "--value", "-7", "-s", "USR1", "42"), &a), 0);
	ck_assert_int_eq(a.value, -7);
	ck_assert_uint_eq(a.npids, 1);
	ck_assert_int_eq(a.pids[0], 42);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("kill", "-0", "-1"), "kill: invalid process group '-1'");
	assert_rejected(ARGV("kill", "--value", "1", "-s", "USR1", "-99"),
			"kill: a process group (-99) has no pidfd");
	assert_rejected(ARGV("wait", "-99"), "invalid option");
}
END_TEST

/* util-linux's kill --timeout MS SIG, repeatable, anywhere. */
START_TEST(kill_follow_ups)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("kill", "-s", "QUIT", "--timeout", "1000", "TERM",
				    "42", "--timeout", "250", "KILL"), &a), 0);
	ck_assert_int_eq(a.signal, SIGQUIT);
	ck_assert_uint_eq(a.nfollow, 2);
	ck_assert_int_eq(a.follow[0].ms, 1000);
	ck_assert_int_eq(a.follow[0].sig, SIGTERM);
	ck_assert_int_eq(a.follow[1].ms, 250);
	ck_assert_int_eq(a.follow[1].sig, SIGKILL);
	ck_assert_uint_eq(a.npids, 1);
	ck_assert_int_eq(a.pids[0], 42);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("kill", "--timeout", "1s", "KILL", "42"),
			"kill: invalid timeout '1s' (milliseconds)");
	assert_rejected(ARGV("kill", "42", "--timeout", "10"),
			"needs a signal after it");
	assert_rejected(ARGV("kill", "--timeout", "10", "NOPE", "42"),
			"kill: unknown signal 'NOPE'");
}
END_TEST

START_TEST(kill_errors)
{
	assert_rejected(ARGV("kill", "--thread", "--process-group", "42"),
			"mutually exclusive");
	assert_rejected(ARGV("kill", "--thread-group", "--thread", "42"),
			"mutually exclusive");
	assert_rejected(ARGV("kill", "-s", "NOPE", "42"),
			"unknown signal 'NOPE'");
	assert_rejected(ARGV("kill", "--value", "4x", "42"),
			"invalid value '4x'");
	assert_rejected(ARGV("kill", "--value", "99999999999", "42"),
			"invalid value");
	assert_rejected(ARGV("kill", "-s", "0", "--value", "1", "42"),
			"--value needs a signal");
	assert_rejected(ARGV("kill"), "kill: no PID specified");
	assert_rejected(ARGV("kill", "-NOPE", "42"), "invalid option");
	assert_rejected(ARGV("kill", "-9"), "kill: no PID specified");
	assert_rejected(ARGV("kill", "1", "x"), "invalid PID 'x'");
	assert_rejected(ARGV("kill", "--list", "1", "2"),
			"--list takes one signal at most");
	/* A number that is no signal is said to be one, not an option. */
	assert_rejected(ARGV("kill", "-65", "42"),
			"kill: invalid signal name or number: 65");
}
END_TEST

START_TEST(info_and_status)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("info", "5"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_INFO);
	ck_assert(!a.json);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("info", "--json", "5"), &a), 0);
	ck_assert(a.json);
	ck_assert_int_eq(a.pids[0], 5);
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("status", "5"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_STATUS);
	pidfdctl_args_free(&a);

	assert_rejected(ARGV("status", "--json", "5"),
			"status: option '--json' not allowed");
	assert_rejected(ARGV("info"), "info: no PID specified");
	assert_rejected(ARGV("status", "5", "6"), "unexpected argument '6'");
}
END_TEST

START_TEST(run_options)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("run", "-t", "5", "-k", "1", "--", "sleep", "10", "-x"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_RUN);
	ck_assert_int_eq(a.timeout_ms, 5000);
	ck_assert(!a.foreground);
	ck_assert_int_eq(a.kill_after_ms, 1000);
	ck_assert_int_eq(a.signal, SIGTERM);
	ck_assert_str_eq(a.cmd[0], "sleep");
	ck_assert_str_eq(a.cmd[1], "10");
	ck_assert_str_eq(a.cmd[2], "-x");
	ck_assert_ptr_null(a.cmd[3]);
	pidfdctl_args_free(&a);

	/* Options after CMD are CMD's, without "--" too. */
	ck_assert_int_eq(parse(ARGV("run", "-s", "INT", "--preserve-status", "-t", "1",
				    "ls", "-t", "-s"), &a), 0);
	ck_assert_int_eq(a.signal, SIGINT);
	ck_assert(a.preserve_status);
	ck_assert_str_eq(a.cmd[0], "ls");
	ck_assert_str_eq(a.cmd[1], "-t");
	ck_assert_str_eq(a.cmd[2], "-s");
	pidfdctl_args_free(&a);

	ck_assert_int_eq(parse(ARGV("run", "true"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, -1);
	ck_assert_int_eq(a.kill_after_ms, -1);
	pidfdctl_args_free(&a);

	/* timeout(1)'s form: DURATION CMD; "inf" is no limit. */
	ck_assert_int_eq(parse(ARGV("run", "-k", "1", "2.5", "sleep", "9"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, 2500);
	ck_assert_int_eq(a.kill_after_ms, 1000);
	ck_assert_str_eq(a.cmd[0], "sleep");
	ck_assert_str_eq(a.cmd[1], "9");
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("run", "inf", "true"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, -1);
	ck_assert_str_eq(a.cmd[0], "true");
	pidfdctl_args_free(&a);
	/* With --timeout, or alone, a number is the command. */
	ck_assert_int_eq(parse(ARGV("run", "--timeout", "1", "5", "x"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, 1000);
	ck_assert_str_eq(a.cmd[0], "5");
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("run", "5"), &a), 0);
	ck_assert_str_eq(a.cmd[0], "5");
	pidfdctl_args_free(&a);
	ck_assert_int_eq(parse(ARGV("wait", "--timeout", "INF", "1"), &a), 0);
	ck_assert_int_eq(a.timeout_ms, -1);
	pidfdctl_args_free(&a);
}
END_TEST

START_TEST(run_foreground)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("run", "--foreground", "-t", "1", "sleep", "2"), &a), 0);
	ck_assert(a.foreground);
	ck_assert_str_eq(a.cmd[0], "sleep");
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("kill", "--foreground", "1"),
			"kill: option '--foreground' not allowed");
}
END_TEST

START_TEST(doctor_args)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("doctor"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_DOCTOR);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("doctor", "1"), "doctor: unexpected argument '1'");
	ck_assert_int_eq(parse(ARGV("doctor", "--json"), &a), 0);
	ck_assert(a.json);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("doctor", "--exited"),
			"doctor: option '--exited' not allowed");
}
END_TEST

START_TEST(run_errors)
{
	struct pidfdctl_args a;

	/* timeout(1)'s convention: its own usage errors exit with 125. */
	ck_assert_int_eq(parse(ARGV("run"), &a), -1);
	assert_usage_error("run: no command specified");
	ck_assert_int_eq(pidfdctl_usage_exit_code(&a), RUN_EXIT_FAILURE);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("run", "--"), "run: no command specified");
	ck_assert_int_eq(parse(ARGV("run", "-k", "1", "true"), &a), -1);
	assert_usage_error("--kill-after needs --timeout");
	ck_assert_int_eq(pidfdctl_usage_exit_code(&a), RUN_EXIT_FAILURE);
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("run", "-t", "1", "--value", "3", "true"),
			"run: option '--value' not allowed");
	assert_rejected(ARGV("run", "-k", "x", "-t", "1", "true"),
			"invalid kill-after 'x'");
}
END_TEST

/* Run the binary; collect its stdout and stderr. Returns the wait status. */
static int run_binary(char **argv, char *out, size_t outsz, char *errbuf,
		      size_t errsz, const char *stdout_path)
{
	int outpipe[2], errpipe[2], status;
	pid_t pid;

	ck_assert_int_eq(pipe(outpipe), 0);
	ck_assert_int_eq(pipe(errpipe), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (stdout_path) {
			int fd = open(stdout_path, O_WRONLY);

			dup2(fd, 1);
		} else {
			dup2(outpipe[1], 1);
		}
		dup2(errpipe[1], 2);
		execv(PIDFDCTL_BINARY, argv);
		_exit(99);
	}
	close(outpipe[1]);
	close(errpipe[1]);
	/* Small outputs: read stderr fully, then stdout (no deadlock below 64K). */
	{
		size_t n = 0;
		ssize_t r;

		while (n < errsz - 1 && (r = read(errpipe[0], errbuf + n, errsz - 1 - n)) > 0)
			n += (size_t)r;
		errbuf[n] = '\0';
		n = 0;
		while (n < outsz - 1 && (r = read(outpipe[0], out + n, outsz - 1 - n)) > 0)
			n += (size_t)r;
		out[n] = '\0';
	}
	close(outpipe[0]);
	close(errpipe[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

static int exit_code_of(char **argv, char *out, char *err)
{
	int status = run_binary(argv, out, 8192, err, 8192, NULL);

	ck_assert_msg(WIFEXITED(status), "killed: status 0x%x", status);
	return WEXITSTATUS(status);
}

START_TEST(binary_help_version)
{
	char out[8192], err[8192];

	ck_assert_int_eq(exit_code_of(ARGV("--help"), out, err), 0);
	ck_assert(strstr(out, "Usage:"));
	ck_assert(strstr(out, "Exit status:"));
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(exit_code_of(ARGV("--version"), out, err), 0);
	ck_assert_msg(strncmp(out, "pidfdctl from pidfd-dkms ", 25) == 0, "%s", out);
	ck_assert_int_eq(exit_code_of(ARGV("wait", "-h"), out, err), 0);
	ck_assert(strstr(out, "pidfdctl wait"));
}
END_TEST

START_TEST(exec_args)
{
	struct pidfdctl_args a;

	ck_assert_int_eq(parse(ARGV("exec", "--", "python3", "-c", "x"), &a), 0);
	ck_assert_int_eq(a.command, PIDFDCTL_EXEC);
	ck_assert_str_eq(a.cmd[0], "python3");
	ck_assert_str_eq(a.cmd[1], "-c");
	ck_assert_ptr_null(a.cmd[3]);
	pidfdctl_args_free(&a);
	/* CMD's options stay CMD's, without "--" too. */
	ck_assert_int_eq(parse(ARGV("--backend", "native", "exec", "ls", "-t"), &a), 0);
	ck_assert_str_eq(a.cmd[1], "-t");
	pidfdctl_args_free(&a);
	assert_rejected(ARGV("exec"), "exec: no command specified");
	assert_rejected(ARGV("exec", "--json", "ls"), "exec: option '--json' not allowed");
}
END_TEST

/*
 * The binary beside its build's libpidfd-preload.so: CMD runs with it
 * first in LD_PRELOAD, what was there after it, LIBPIDFD_BACKEND from
 * --backend; exit codes as env(1).
 */
START_TEST(binary_exec)
{
	char out[8192], err[8192];

	setenv("LD_PRELOAD", "", 1);
	ck_assert_int_eq(exit_code_of(ARGV("exec", "sh", "-c", "echo \"$LD_PRELOAD\""),
				      out, err), 0);
	ck_assert_msg(strstr(out, "/libpidfd-preload.so\n") && !strchr(out, ':'),
		      "LD_PRELOAD='%s' (%s)", out, err);
	/* A dynamically linked program: nothing to say about it. */
	ck_assert_str_eq(err, "");
	setenv("LD_PRELOAD", "libfoo.so", 1);
	ck_assert_int_eq(exit_code_of(ARGV("--backend", "native", "exec", "sh", "-c",
					   "echo \"$LD_PRELOAD $LIBPIDFD_BACKEND\""),
				      out, err), 0);
	ck_assert_msg(strstr(out, "/libpidfd-preload.so:libfoo.so native\n"),
		      "'%s' (%s)", out, err);
	unsetenv("LD_PRELOAD");
	ck_assert_int_eq(exit_code_of(ARGV("exec", "/nonexistent/cmd"), out, err), 127);
	ck_assert_int_eq(exit_code_of(ARGV("exec", "/dev/null"), out, err), 126);
	ck_assert_int_eq(exit_code_of(ARGV("exec"), out, err), 125);
	ck_assert_int_eq(exit_code_of(ARGV("exec", "sh", "-c", "exit 7"), out, err), 7);
}
END_TEST

/* doctor's BTF lookup: a BPF-LSM hook's function, by id and by name. */
START_TEST(btf_names)
{
	const char *vmlinux = "/sys/kernel/btf/vmlinux";
	char name[96];
	uint32_t id;

	if (access(vmlinux, R_OK) != 0)
		PT_SKIP("no %s here: %s", vmlinux, strerror(errno));
	id = pidfdctl_btf_id(vmlinux, "bpf_lsm_task_kill");
	if (!id)
		PT_SKIP("this kernel has no BPF-LSM hooks (CONFIG_BPF_LSM)");
	ck_assert_int_eq(pidfdctl_btf_name(vmlinux, id, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "bpf_lsm_task_kill");
	ck_assert_uint_eq(pidfdctl_btf_id(vmlinux, "no_such_type_anywhere"), 0);
	ck_assert_int_eq(pidfdctl_btf_name(vmlinux, 0, name, sizeof(name)), -1);
	ck_assert_int_eq(pidfdctl_btf_name("/dev/null", 1, name, sizeof(name)), -1);
}
END_TEST

/* run -v says what timeout(1) -v says of the timeout's signals. */
START_TEST(binary_run_verbose)
{
	char out[8192], err[8192];

	ck_assert_int_eq(exit_code_of(ARGV("run", "-v", "-k", "0.2", "0.1", "sh",
					   "-c", "trap '' TERM; sleep 5"),
				      out, err), 137);
	ck_assert_msg(strstr(err, "pidfdctl: sending signal TERM to command 'sh'\n"
			     "pidfdctl: sending signal KILL to command 'sh'\n"),
		      "%s", err);
}
END_TEST

/* kill -l SIG translates, as kill(1): number to name, name to number. */
START_TEST(binary_kill_list_one)
{
	static const struct { const char *arg, *out; } cases[] = {
		{ "9", "KILL\n" }, { "KILL", "9\n" }, { "SIGTERM", "15\n" },
		{ "137", "KILL\n" },	/* the shell's 128 + N */
		{ "RTMIN+2", "36\n" }, { "36", "RTMIN+2\n" },
	};
	char out[8192], err[8192];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(exit_code_of(ARGV("kill", "-l",
						   (char *)cases[i].arg),
					      out, err), 0);
		ck_assert_msg(!strcmp(out, cases[i].out), "kill -l %s: '%s'",
			      cases[i].arg, out);
	}
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-l", "65"), out, err), 1);
	ck_assert_str_eq(err, "pidfdctl: unknown signal: 65\n");
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-l", "NOPE"), out, err), 1);
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-L"), out, err), 0);
	ck_assert(strstr(out, " 9 KILL\n"));
}
END_TEST

START_TEST(binary_usage_errors)
{
	char out[8192], err[8192];

	ck_assert_int_eq(exit_code_of(ARGV("bogus"), out, err), 1);
	ck_assert_str_eq(err, "pidfdctl: unknown command 'bogus'\n"
			      "Try 'pidfdctl --help' for more information.\n");
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-s", "XYZ", "1"), out, err), 1);
	ck_assert(strstr(err, "pidfdctl: unknown signal 'XYZ'"));
	ck_assert_int_eq(exit_code_of(ARGV("wait", "abc"), out, err), 1);
	ck_assert(strstr(err, "pidfdctl: invalid PID 'abc'"));
	ck_assert_int_eq(exit_code_of(ARGV("run", "--bogus", "true"), out, err), 125);
	ck_assert(strstr(err, "pidfdctl: unrecognized option '--bogus'"));
	ck_assert_int_eq(exit_code_of(ARGV("run"), out, err), 125);
}
END_TEST

/*
 * The module is never loaded on the host. With the module backend: the
 * distinct error and exit code. By default: the kernel's own pidfds do
 * what they can, and what needs the module says so.
 */
START_TEST(binary_without_module)
{
	char out[8192], err[8192];
	char pid[16], pid_line[32];
	int self, err_no;

	if (access("/dev/pidfd", F_OK) == 0)
		PT_SKIP("the module is loaded on this host: covered in the VM");
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ck_assert_int_eq(setenv("LIBPIDFD_BACKEND", "module", 1), 0);
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-s", "0", pid), out, err), 2);
	ck_assert_msg(strstr(err, "pidfdctl: The pidfd kernel module is not loaded"), "%s", err);
	ck_assert(strstr(err, "modprobe pidfd"));
	ck_assert_int_eq(exit_code_of(ARGV("wait", pid), out, err), 2);
	ck_assert_int_eq(exit_code_of(ARGV("info", pid), out, err), 2);
	ck_assert_int_eq(exit_code_of(ARGV("status", pid), out, err), 2);
	/* run starts nothing and fails as timeout(1) does: 125. */
	ck_assert_int_eq(exit_code_of(ARGV("run", "--", "/bin/sh", "-c", "echo ran"), out, err), 125);
	ck_assert_str_eq(out, "");
	ck_assert(strstr(err, "modprobe pidfd"));

	ck_assert_int_eq(setenv("LIBPIDFD_BACKEND", "bogus", 1), 0);
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-s", "0", pid), out, err), 1);
	ck_assert_str_eq(err, "pidfdctl: LIBPIDFD_BACKEND='bogus': unknown "
			      "backend (auto, native or module)\n");
	ck_assert_int_eq(exit_code_of(ARGV("run", "true"), out, err), 125);

	ck_assert_int_eq(unsetenv("LIBPIDFD_BACKEND"), 0);
	/* A kernel before 5.3: nothing more works without the module. */
	self = (int)syscall(SYS_pidfd_open, getpid(), 0);
	err_no = errno;
	if (self >= 0)
		close(self);
	/* This program links no tests/lib: the probe's test, ENOSYS, here. */
	PT_SKIP_UNLESS(self >= 0, err_no != ENOSYS, "pidfd_open(2)");
	ck_assert_int_eq(exit_code_of(ARGV("kill", "-v", "-s", "0", pid), out, err), 0);
	ck_assert_str_eq(out, "");
	ck_assert_msg(strstr(err, ": the kernel's pidfd (pidfd_open(2))"), "%s", err);
	ck_assert_int_eq(exit_code_of(ARGV("wait", "-t", "0.2", pid), out, err), 3);
	ck_assert_int_eq(exit_code_of(ARGV("run", "-v", "--", "/bin/sh", "-c", "echo ran; exit 4"),
				      out, err), 4);
	ck_assert_str_eq(out, "ran\n");
	ck_assert_msg(strstr(err, ": the kernel's pidfd (pidfd_open(2))"), "%s", err);
	/* /proc/PID through a kernel pidfd: proved in userspace. */
	snprintf(pid_line, sizeof(pid_line), "\nPid:\t%s\n", pid);
	ck_assert_int_eq(exit_code_of(ARGV("status", pid), out, err), 0);
	ck_assert_msg(strstr(out, pid_line), "%s", out);
	ck_assert_int_eq(exit_code_of(ARGV("status", "--backend", "native", pid), out, err), 0);
	ck_assert_msg(strstr(out, pid_line), "%s", out);
	ck_assert_int_eq(exit_code_of(ARGV("kill", "--backend", "nope", pid), out, err), 1);
	ck_assert(strstr(err, "pidfdctl: unknown backend 'nope' (auto, native or module)"));
}
END_TEST

START_TEST(binary_write_error)
{
	char out[16], err[8192];
	int status;

	if (access("/dev/full", W_OK) != 0)
		PT_SKIP("no writable /dev/full here: %s", strerror(errno));
	status = run_binary(ARGV("--help"), out, sizeof(out), err, sizeof(err), "/dev/full");
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 1);
	ck_assert_msg(strstr(err, "pidfdctl: write error: No space left on device"),
		      "%s", err);
}
END_TEST

static Suite *args_suite(void)
{
	Suite *s = suite_create("pidfdctl_args");
	TCase *tc = tcase_create("parser");

	tcase_add_checked_fixture(tc, NULL, teardown);
	pt_add_tests(tc, no_command, unknown_command, help_and_version,
		     global_options_first,
		     wait_pids_and_timeout, pid_colon_id, wait_count, wait_errors, durations, signals,
		     kill_options, kill_process_groups, kill_follow_ups, kill_errors, info_and_status, run_options,
		     run_foreground, doctor_args, run_errors, exec_args);
	suite_add_tcase(s, tc);

	tc = tcase_create("binary");
	pt_add_tests(tc, btf_names, binary_help_version, binary_kill_list_one,
		     binary_run_verbose, binary_exec,
		     binary_usage_errors, binary_without_module,
		     binary_write_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return pt_main(args_suite());
}
