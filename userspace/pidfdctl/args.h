/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidfdctl's command line, parsed into a struct without side effects (no
 * module, no processes), so the host unit tests can call it directly.
 */
#ifndef PIDFDCTL_ARGS_H
#define PIDFDCTL_ARGS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes, as util-linux's waitpid(1) and kill(1) have them. */
#define PIDFDCTL_EXIT_OK	0	/* success */
#define PIDFDCTL_EXIT_FAILURE	1	/* failure, or bad usage */
#define PIDFDCTL_EXIT_NOMODULE	2	/* the pidfd module is not loaded */
#define PIDFDCTL_EXIT_TIMEOUT	3	/* wait: the timeout expired */
#define PIDFDCTL_EXIT_SOMEOK	64	/* kill: some PIDs failed, not all */

/* Exit codes of "run" (and "exec"), as timeout(1) and the shell have them. */
#define RUN_EXIT_TIMEDOUT	124	/* CMD timed out */
#define RUN_EXIT_FAILURE	125	/* pidfdctl itself failed */
#define RUN_EXIT_CANNOT_EXEC	126	/* CMD found but not executable */
#define RUN_EXIT_ENOENT		127	/* CMD not found */
#define RUN_EXIT_SIGNAL_BASE	128	/* + signal number: CMD killed */
#define RUN_EXIT_KILLED		(RUN_EXIT_SIGNAL_BASE + SIGKILL)

#define PIDFDCTL_MAX_FOLLOW	8

enum pidfdctl_command {
	PIDFDCTL_NONE,
	PIDFDCTL_HELP,
	PIDFDCTL_VERSION,
	PIDFDCTL_WAIT,
	PIDFDCTL_KILL,
	PIDFDCTL_INFO,
	PIDFDCTL_STATUS,
	PIDFDCTL_RUN,
	PIDFDCTL_DOCTOR,
	PIDFDCTL_EXEC,
};

struct pidfdctl_args {
	enum pidfdctl_command command;

	/* every command: say which kind of pidfd is used; the backend. */
	bool verbose;
	int backend;	/* LIBPIDFD_BACKEND_*, or -1: the environment's */

	/*
	 * wait, kill, info, status: the PIDs (one for info and status), and
	 * for each the process identity a PID:ID named, or 0; kill: a
	 * negative one is a process group (kill(1)'s -PGID).
	 */
	pid_t *pids;
	uint64_t *ids;
	size_t npids;
	char **argv_copy;	/* kill: argv with the -PGIDs after "--" */
	int argc_copy;

	/* wait, run: milliseconds, -1 for none; given as --timeout. */
	int64_t timeout_ms;
	bool timeout_given;
	/* wait: an already-gone PID is not an error; print nothing. */
	bool exited_ok;
	size_t count;	/* wait: return after this many ended; 0: all */
	bool exit_status;	/* wait: exit with the last one's status */
	bool quiet;

	/* kill: signal, PIDFD_SIGNAL_* scope, and a queued value. */
	int signal;
	unsigned int scope;
	bool has_value;
	int value;
	bool list_signals;
	/*
	 * kill --timeout MS SIG (util-linux's): after the signal, wait up
	 * to MS milliseconds for the process to end and send SIG if it has
	 * not; the pairs in the order given.
	 */
	struct { int64_t ms; int sig; } follow[PIDFDCTL_MAX_FOLLOW];
	size_t nfollow;
	const char *list_arg;	/* kill -l SIG: the one to translate */

	/* info */
	bool json;

	/* run: signal at timeout, kill-after delay, the command. */
	int64_t kill_after_ms;
	bool preserve_status;
	bool foreground;	/* signal CMD only, not its process group */
	char **cmd;	/* run, exec: points into argv, NULL-terminated */
};

/*
 * Parse argv. Returns 0, or -1 after printing the error and a pointer to
 * --help on @err; the exit code for a usage error is then
 * pidfdctl_usage_exit_code(args).
 */
int pidfdctl_parse(int argc, char **argv, struct pidfdctl_args *args,
		   FILE *err);
int pidfdctl_usage_exit_code(const struct pidfdctl_args *args);
void pidfdctl_args_free(struct pidfdctl_args *args);

void pidfdctl_print_help(FILE *out);
void pidfdctl_print_version(FILE *out);

/*
 * Helpers shared with the commands. A duration is a decimal number of
 * seconds with an optional suffix s, m, h or d, as timeout(1) takes it.
 */
int pidfdctl_parse_duration(const char *text, int64_t *ms);
int pidfdctl_parse_pid(const char *text, pid_t *pid);
/* PID, or PID:ID (util-linux's PID:INODE), *@id 0 without one. */
int pidfdctl_parse_pid_id(const char *text, pid_t *pid, uint64_t *id);
/* A signal by number or by name, with or without SIG, RTMIN+n, RTMAX-n. */
int pidfdctl_parse_signal(const char *text, int *sig);
/* "SIGTERM", "SIGRTMIN+3"; buf is used for the latter. */
const char *pidfdctl_signal_name(int sig, char *buf, size_t size);

/* The program name errors are prefixed with. */
const char *pidfdctl_progname(void);

#endif
