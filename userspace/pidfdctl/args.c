// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfdctl's argument parser: pure (no I/O but the error stream), so the
 * host tests drive it without a module.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpidfd.h>

#include "args.h"

#ifndef PIDFD_DKMS_VERSION
#define PIDFD_DKMS_VERSION "unknown"
#endif

const char *pidfdctl_progname(void)
{
	return "pidfdctl";
}

static void usage_error(FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	fprintf(err, "%s: ", pidfdctl_progname());
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fprintf(err, "\nTry '%s --help' for more information.\n",
		pidfdctl_progname());
}

void pidfdctl_print_help(FILE *out)
{
	fputs(
"Usage:\n"
" pidfdctl wait [--timeout T] [--exited] [--count N] [--exit-status]\n"
"               [--quiet] PID[:ID]...\n"
" pidfdctl kill [-s SIG | -SIG | -N] [--thread|--thread-group|\n"
"               --process-group] [--value N] [--timeout MS SIG]...\n"
"               PID[:ID]...\n"
" pidfdctl kill -l [SIG] | -L\n"
" pidfdctl info [--json] PID[:ID]\n"
" pidfdctl status PID[:ID]\n"
" pidfdctl run [--timeout T] [--kill-after T] [-s SIG] [--preserve-status]\n"
"              [--foreground] [--] CMD [ARG...]\n"
" pidfdctl run [OPTION...] T CMD [ARG...]    (timeout(1)'s form)\n"
" pidfdctl doctor [--json]\n"
" pidfdctl exec [--] CMD [ARG...]\n"
"\n"
"Work with processes through pidfds, free of PID-reuse races: the\n"
"kernel's own where it has what a command needs, the pidfd kernel\n"
"module's (/dev/pidfd) for the rest.\n"
"\n"
"PID:ID: only the process whose identity (info's id) is ID.\n"
"\n"
"Commands:\n"
" wait     wait for processes (any, not only children) to exit and print\n"
"          how each exited, where the module recorded it\n"
" kill     send a signal through a pidfd to each PID\n"
" info     show a process's identity and what PIDFD_GET_INFO says of it\n"
" status   print /proc/PID/status, opened through PIDFD_GET_PROCFD\n"
" run      run CMD as timeout(1) does, supervised through a pidfd: in a\n"
"          process group of its own with pidfdctl, which gets the timeout's\n"
"          signal and SIGINT, SIGTERM, SIGHUP and SIGQUIT; exit with CMD's\n"
"          status\n"
" doctor   say what this machine has: the kernel's pidfd features, the\n"
"          module, which pidfds libpidfd makes, the module's signal policy\n"
" exec     execute CMD with libpidfd-preload.so in LD_PRELOAD: a\n"
"          dynamically linked program gets the newest kernel's pidfd calls\n"
"          (the kernel's where it has them, the module's for the rest)\n"
"\n"
"Options:\n"
" -t, --timeout T       wait/run: give up (wait) or signal CMD (run) after T\n"
"                       (seconds; suffix s, m, h or d; 0 means never)\n"
"     --timeout MS SIG  kill: if the process still runs MS milliseconds\n"
"                       later, send SIG (util-linux's kill; repeatable)\n"
" -e, --exited          wait: a PID that is already gone is not an error\n"
" -c, --count N         wait: return once N of the PIDs have ended\n"
" -x, --exit-status     wait: exit with the status of the last to end, as\n"
"                       the shell's wait (128+N for signal N)\n"
" -q, --quiet           wait: print nothing\n"
" -s, --signal SIG      kill: the signal (default TERM; also -SIG, -N as\n"
"                       the first option); run: the signal sent at the\n"
"                       timeout (default TERM)\n"
"     --thread          kill: signal the thread PID only\n"
"     --thread-group    kill: signal the process (the default)\n"
"     --process-group   kill: signal the process group PID leads\n"
"     --value N         kill: queue the integer N with the signal, as\n"
"                       sigqueue(3) does\n"
" -l, --list[=SIG]      kill: list signal numbers and names; with SIG, give\n"
"                       the name of a number (or of 128 + N), the number\n"
"                       of a name, or the names in a mask 0xHEX\n"
" -L, --table           kill: list signal numbers and names\n"
" -j, --json            info, doctor: print JSON\n"
" -k, --kill-after T    run: send KILL if CMD still runs T after the signal\n"
"     --preserve-status run: exit with CMD's status even on timeout\n"
"     --foreground      run: signal CMD only, not its children, and leave\n"
"                       it in the terminal's process group (it may read\n"
"                       the terminal and get its signals)\n"
"-v and --backend may also come before the command.\n"
" -v, --verbose         say which kind of pidfd each PID got (the kernel's\n"
"                       or the module's) and why\n"
"     --backend B       where pidfds come from: auto (default: the kernel's\n"
"                       where it has what the command needs), native or\n"
"                       module; also LIBPIDFD_BACKEND in the environment\n"
" -h, --help            display this help\n"
" -V, --version         display version\n"
"\n"
"Exit status:\n"
" 0    success\n"
" 1    failure (no such process, no permission, bad usage, ...)\n"
" 2    the pidfd kernel module is needed and not loaded\n"
" 3    wait: the timeout expired before all PIDs exited\n"
" 64   kill: some PIDs failed and others did not (util-linux's code)\n"
" exec: CMD's; 125 if pidfdctl failed, 126 or 127 as run.\n"
" run: CMD's exit status; killed by signal N, pidfdctl dies of N; 124 if it\n"
" timed out (unless --preserve-status), 137 if the timeout's KILL killed\n"
" it; 125 if pidfdctl failed; 126 if CMD cannot be executed; 127 if CMD\n"
" was not found.\n"
"\n"
"For more details see pidfdctl(1).\n", out);
}

void pidfdctl_print_version(FILE *out)
{
	fprintf(out, "pidfdctl from pidfd-dkms %s\n", PIDFD_DKMS_VERSION);
}

int pidfdctl_parse_pid(const char *text, pid_t *pid)
{
	char *end;
	long value;

	if (!isdigit((unsigned char)text[0]))
		return -1;
	errno = 0;
	value = strtol(text, &end, 10);
	if (errno || *end || value <= 0 || value > INT_MAX)
		return -1;
	*pid = (pid_t)value;
	return 0;
}

int pidfdctl_parse_pid_id(const char *text, pid_t *pid, uint64_t *id)
{
	const char *colon = strchr(text, ':');
	char number[16], *end;
	unsigned long long value;
	size_t len;

	*id = 0;
	if (!colon)
		return pidfdctl_parse_pid(text, pid);
	len = (size_t)(colon - text);
	if (len == 0 || len >= sizeof(number))
		return -1;
	memcpy(number, text, len);
	number[len] = '\0';
	if (pidfdctl_parse_pid(number, pid) < 0 ||
	    !isdigit((unsigned char)colon[1]))
		return -1;
	errno = 0;
	value = strtoull(colon + 1, &end, 10);
	if (errno || *end || value == 0)
		return -1;
	*id = value;
	return 0;
}

int pidfdctl_parse_duration(const char *text, int64_t *ms)
{
	double value, scale = 1.0;
	char *end;

	/* timeout(1)'s word for no limit. */
	if (!strcasecmp(text, "inf") || !strcasecmp(text, "infinity")) {
		*ms = 0;
		return 0;
	}
	if (!isdigit((unsigned char)text[0]) && text[0] != '.')
		return -1;
	errno = 0;
	value = strtod(text, &end);
	if (errno || end == text)
		return -1;
	if (*end) {
		if (end[1])
			return -1;
		switch (*end) {
		case 's': scale = 1; break;
		case 'm': scale = 60; break;
		case 'h': scale = 3600; break;
		case 'd': scale = 86400; break;
		default: return -1;
		}
	}
	value *= scale * 1000.0;
	if (!isfinite(value) || value < 0)
		return -1;
	/* A year is more than any caller means; clamp rather than overflow. */
	if (value > 365.0 * 86400 * 1000)
		value = 365.0 * 86400 * 1000;
	/* Round up, so that a tiny timeout is not "no timeout" (0). */
	*ms = (int64_t)value;
	if ((double)*ms < value)
		++*ms;
	return 0;
}

/* glibc reserves the first real-time signals; SIGRTMIN is a function. */
static int rt_offset(const char *text, int base, int dir, int *sig)
{
	char *end;
	long n = 0;

	if (*text) {
		if ((dir > 0 && *text != '+') || (dir < 0 && *text != '-'))
			return -1;
		if (!isdigit((unsigned char)text[1]))
			return -1;
		errno = 0;
		n = strtol(text + 1, &end, 10);
		if (errno || *end)
			return -1;
	}
	if (n > SIGRTMAX - SIGRTMIN)
		return -1;
	*sig = base + dir * (int)n;
	return 0;
}

/*
 * A signal's abbreviation ("HUP"), as glibc's sigabbrev_np() (2.32) gives
 * it; for older glibc (Debian 11's 2.31), the same names of our own.
 */
static const char *signal_abbrev(int sig)
{
#if __GLIBC_PREREQ(2, 32)
	return sigabbrev_np(sig);
#else
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
		{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
		{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
		{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
		{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
#ifdef SIGSTKFLT
		{ SIGSTKFLT, "STKFLT" },
#endif
		{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" },
		{ SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" }, { SIGTTOU, "TTOU" },
		{ SIGURG, "URG" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
		{ SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" },
		{ SIGWINCH, "WINCH" }, { SIGPOLL, "POLL" }, { SIGPWR, "PWR" },
		{ SIGSYS, "SYS" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
#endif
}

int pidfdctl_parse_signal(const char *text, int *sig)
{
	const char *name = text;

	if (isdigit((unsigned char)text[0])) {
		char *end;
		long value;

		errno = 0;
		value = strtol(text, &end, 10);
		if (errno || *end || value < 0 || value >= NSIG)
			return -1;
		*sig = (int)value;
		return 0;
	}
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	if (strncasecmp(name, "RTMIN", 5) == 0)
		return rt_offset(name + 5, SIGRTMIN, 1, sig);
	if (strncasecmp(name, "RTMAX", 5) == 0)
		return rt_offset(name + 5, SIGRTMAX, -1, sig);
	for (int i = 1; i < SIGRTMIN; i++) {
		const char *abbrev = signal_abbrev(i);

		if (abbrev && strcasecmp(abbrev, name) == 0) {
			*sig = i;
			return 0;
		}
	}
	return -1;
}

const char *pidfdctl_signal_name(int sig, char *buf, size_t size)
{
	const char *abbrev;

	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		if (sig == SIGRTMIN)
			snprintf(buf, size, "SIGRTMIN");
		else
			snprintf(buf, size, "SIGRTMIN+%d", sig - SIGRTMIN);
		return buf;
	}
	abbrev = sig > 0 ? signal_abbrev(sig) : NULL;
	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "%d", sig);
	return buf;
}

static const struct {
	const char *name;
	enum pidfdctl_command command;
} commands[] = {
	{ "wait", PIDFDCTL_WAIT },
	{ "kill", PIDFDCTL_KILL },
	{ "info", PIDFDCTL_INFO },
	{ "status", PIDFDCTL_STATUS },
	{ "run", PIDFDCTL_RUN },
	{ "doctor", PIDFDCTL_DOCTOR },
	{ "exec", PIDFDCTL_EXEC },
};

enum {
	OPT_THREAD = 0x100,
	OPT_THREAD_GROUP,
	OPT_PROCESS_GROUP,
	OPT_VALUE,
	OPT_PRESERVE_STATUS,
	OPT_BACKEND,
	OPT_FOREGROUND,
};

static const struct option long_options[] = {
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ "timeout",		required_argument,	NULL, 't' },
	{ "exited",		no_argument,		NULL, 'e' },
	{ "count",		required_argument,	NULL, 'c' },
	{ "exit-status",	no_argument,		NULL, 'x' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "signal",		required_argument,	NULL, 's' },
	{ "list",		optional_argument,	NULL, 'l' },
	{ "table",		no_argument,		NULL, 'L' },
	{ "thread",		no_argument,		NULL, OPT_THREAD },
	{ "thread-group",	no_argument,		NULL, OPT_THREAD_GROUP },
	{ "process-group",	no_argument,		NULL, OPT_PROCESS_GROUP },
	{ "value",		required_argument,	NULL, OPT_VALUE },
	{ "json",		no_argument,		NULL, 'j' },
	{ "kill-after",		required_argument,	NULL, 'k' },
	{ "preserve-status",	no_argument,		NULL, OPT_PRESERVE_STATUS },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "backend",		required_argument,	NULL, OPT_BACKEND },
	{ "foreground",		no_argument,		NULL, OPT_FOREGROUND },
	{ NULL, 0, NULL, 0 },
};

/* Which options each command takes: short letters and long-only ids. */
static bool option_allowed(enum pidfdctl_command cmd, int opt)
{
	switch (opt) {
	case 'h': case 'V': case 'v': case OPT_BACKEND:
		return true;
	case 't':
		return cmd == PIDFDCTL_WAIT || cmd == PIDFDCTL_RUN ||
		       cmd == PIDFDCTL_KILL;
	case 'e': case 'q': case 'c': case 'x':
		return cmd == PIDFDCTL_WAIT;
	case 's':
		return cmd == PIDFDCTL_KILL || cmd == PIDFDCTL_RUN;
	case 'l': case 'L': case OPT_THREAD: case OPT_THREAD_GROUP:
	case OPT_PROCESS_GROUP: case OPT_VALUE:
		return cmd == PIDFDCTL_KILL;
	case 'j':
		return cmd == PIDFDCTL_INFO || cmd == PIDFDCTL_DOCTOR;
	case 'k': case OPT_PRESERVE_STATUS: case OPT_FOREGROUND:
		return cmd == PIDFDCTL_RUN;
	}
	return false;
}

static const char *option_text(int opt, char *buf, size_t size)
{
	for (const struct option *o = long_options; o->name; o++)
		if (o->val == opt) {
			snprintf(buf, size, "--%s", o->name);
			return buf;
		}
	snprintf(buf, size, "-%c", opt);
	return buf;
}

static int set_scope(struct pidfdctl_args *args, unsigned int scope, FILE *err)
{
	if (args->scope && args->scope != scope) {
		usage_error(err, "--thread, --thread-group and --process-group "
			    "are mutually exclusive");
		return -1;
	}
	args->scope = scope;
	return 0;
}

static int parse_int(const char *text, int *value)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 0);
	if (errno || end == text || *end || n < INT_MIN || n > INT_MAX)
		return -1;
	*value = (int)n;
	return 0;
}

/* A duration option's value in @ms; 0 means none (-1). */
static int duration_option(const char *text, int64_t *ms, const char *name,
			   FILE *err)
{
	if (pidfdctl_parse_duration(text, ms) < 0) {
		usage_error(err, "invalid %s '%s'", name, text);
		return -1;
	}
	if (*ms == 0)
		*ms = -1;
	return 0;
}

/*
 * kill --timeout MS SIG, as util-linux's kill: MS in milliseconds (not a
 * duration), then the signal, the next argument, taken from getopt.
 */
static int follow_option(int argc, char **argv, struct pidfdctl_args *args,
			 FILE *err)
{
	int ms;

	if (parse_int(optarg, &ms) < 0 || ms < 0) {
		usage_error(err, "kill: invalid timeout '%s' (milliseconds)",
			    optarg);
		return -1;
	}
	if (optind >= argc || !strcmp(argv[optind], "--")) {
		usage_error(err, "kill: --timeout %s needs a signal after it",
			    optarg);
		return -1;
	}
	if (args->nfollow == PIDFDCTL_MAX_FOLLOW) {
		usage_error(err, "kill: at most %d --timeout", PIDFDCTL_MAX_FOLLOW);
		return -1;
	}
	if (pidfdctl_parse_signal(argv[optind], &args->follow[args->nfollow].sig) < 0) {
		usage_error(err, "kill: unknown signal '%s'", argv[optind]);
		return -1;
	}
	args->follow[args->nfollow++].ms = ms;
	optind++;
	return 0;
}

/* How many separate arguments a kill option takes after it. */
static int option_arity(const char *arg)
{
	static const char *const one[] = { "-s", "--signal", "--value", "--backend" };

	if (!strcmp(arg, "--timeout") || !strcmp(arg, "-t"))
		return 2;	/* MS SIG */
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		if (!strcmp(arg, one[i]))
			return 1;
	return 0;
}

static bool is_group(const char *arg)
{
	return arg[0] == '-' && isdigit((unsigned char)arg[1]);
}

/*
 * kill(1)'s -PGID arguments are process groups, not options: a copy of
 * @argv with each after a "--" at the end (a user's own "--" kept), so
 * that getopt leaves them alone. NULL if out of memory.
 */
static char **groups_last(int argc, char **argv, struct pidfdctl_args *args)
{
	char **copy = calloc((size_t)argc + 2, sizeof(*copy));
	int n = 0, i, dashes = -1;

	if (!copy)
		return NULL;
	args->argv_copy = copy;
	copy[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashes = i;
			break;
		}
		if (is_group(argv[i]))
			continue;
		copy[n++] = argv[i];
		/* An option's own argument may be negative: --value -7. */
		for (int take = option_arity(argv[i]); take > 0 && i + 1 < argc; take--)
			copy[n++] = argv[++i];
	}
	copy[n++] = "--";
	for (i = dashes < 0 ? argc : dashes + 1; i < argc; i++)
		copy[n++] = argv[i];
	for (i = 1; i < (dashes < 0 ? argc : dashes); i++) {
		if (is_group(argv[i]))
			copy[n++] = argv[i];
		else
			i += option_arity(argv[i]);
	}
	args->argc_copy = n;
	return copy;
}

/* argv[0] is the command, or kill's -SIG, which getopt skips alike. */
static int parse_options(int argc, char **argv, const char *cmdname,
			 struct pidfdctl_args *args, FILE *err)
{
	char optbuf[32];
	int opt;

	/*
	 * "run" and "exec" stop at the first non-option, so CMD's own
	 * options stay CMD's; the other commands accept options after the
	 * PIDs too.
	 */
	const char *shortopts = args->command == PIDFDCTL_RUN ?
				"+:hVvt:s:k:" :
				args->command == PIDFDCTL_EXEC ? "+:hVv" :
				":hVvt:eqc:xs:lLj";

	optind = 0;	/* full re-initialisation, for repeated calls */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, long_options,
				  NULL)) != -1) {
		if (opt == '?') {
			if (optopt)
				usage_error(err, "invalid option -- '%c'", optopt);
			else
				usage_error(err, "unrecognized option '%s'",
					    argv[optind - 1]);
			return -1;
		}
		if (opt == ':') {
			usage_error(err, "option '%s' requires an argument",
				    argv[optind - 1]);
			return -1;
		}
		if (!option_allowed(args->command, opt)) {
			usage_error(err, "%s: option '%s' not allowed", cmdname,
				    option_text(opt, optbuf, sizeof(optbuf)));
			return -1;
		}
		switch (opt) {
		case 'h':
			args->command = PIDFDCTL_HELP;
			return 0;
		case 'V':
			args->command = PIDFDCTL_VERSION;
			return 0;
		case 't':
			if (args->command == PIDFDCTL_KILL) {
				if (follow_option(argc, argv, args, err) < 0)
					return -1;
				break;
			}
			if (duration_option(optarg, &args->timeout_ms,
					    "timeout", err) < 0)
				return -1;
			args->timeout_given = true;
			break;
		case 'k':
			if (duration_option(optarg, &args->kill_after_ms,
					    "kill-after", err) < 0)
				return -1;
			break;
		case 'e':
			args->exited_ok = true;
			break;
		case 'x':
			args->exit_status = true;
			break;
		case 'c': {
			int n;

			if (parse_int(optarg, &n) < 0 || n <= 0) {
				usage_error(err, "invalid count '%s'", optarg);
				return -1;
			}
			args->count = (size_t)n;
			break;
		}
		case 'q':
			args->quiet = true;
			break;
		case 's':
			if (pidfdctl_parse_signal(optarg, &args->signal) < 0) {
				usage_error(err, "unknown signal '%s'", optarg);
				return -1;
			}
			break;
		case 'l':
		case 'L':
			args->list_signals = true;
			/* util-linux's --list=SIG, the same as -l SIG */
			if (optarg)
				args->list_arg = optarg;
			break;
		case OPT_THREAD:
			if (set_scope(args, PIDFD_SIGNAL_THREAD, err) < 0)
				return -1;
			break;
		case OPT_THREAD_GROUP:
			if (set_scope(args, PIDFD_SIGNAL_THREAD_GROUP, err) < 0)
				return -1;
			break;
		case OPT_PROCESS_GROUP:
			if (set_scope(args, PIDFD_SIGNAL_PROCESS_GROUP, err) < 0)
				return -1;
			break;
		case OPT_VALUE:
			if (parse_int(optarg, &args->value) < 0) {
				usage_error(err, "invalid value '%s'", optarg);
				return -1;
			}
			args->has_value = true;
			break;
		case 'j':
			args->json = true;
			break;
		case 'v':
			args->verbose = true;
			break;
		case OPT_BACKEND:
			args->backend = libpidfd_backend_by_name(optarg);
			if (args->backend < 0) {
				usage_error(err, "unknown backend '%s' (auto, "
					    "native or module)", optarg);
				return -1;
			}
			break;
		case OPT_PRESERVE_STATUS:
			args->preserve_status = true;
			break;
		case OPT_FOREGROUND:
			args->foreground = true;
			break;
		}
	}
	return optind;
}

static int parse_pids(int argc, char **argv, struct pidfdctl_args *args,
		      FILE *err)
{
	args->pids = calloc((size_t)argc, sizeof(*args->pids));
	args->ids = calloc((size_t)argc, sizeof(*args->ids));
	if (!args->pids || !args->ids) {
		fprintf(err, "%s: out of memory\n", pidfdctl_progname());
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		/* kill: -PGID, a process group; not -1, every process. */
		if (args->command == PIDFDCTL_KILL && is_group(argv[i])) {
			if (pidfdctl_parse_pid(argv[i] + 1, &args->pids[i]) < 0 ||
			    args->pids[i] < 2) {
				usage_error(err, "kill: invalid process group '%s'",
					    argv[i]);
				return -1;
			}
			args->pids[i] = -args->pids[i];
			continue;
		}
		if (pidfdctl_parse_pid_id(argv[i], &args->pids[i],
					  &args->ids[i]) < 0) {
			usage_error(err, "invalid PID '%s'", argv[i]);
			return -1;
		}
	}
	args->npids = (size_t)argc;
	return 0;
}

int pidfdctl_parse(int argc, char **argv, struct pidfdctl_args *args,
		   FILE *err)
{
	const char *cmdname;
	int first, skip = 0;

	memset(args, 0, sizeof(*args));
	args->backend = -1;
	args->timeout_ms = -1;
	args->kill_after_ms = -1;
	args->signal = SIGTERM;

	/* The options of every command may come before it, too. */
	while (argc > 2 && argv[1][0] == '-') {
		const char *opt = argv[1];
		int used = 1;

		if (!strcmp(opt, "-v") || !strcmp(opt, "--verbose")) {
			args->verbose = true;
		} else if (!strcmp(opt, "--backend") ||
			   !strncmp(opt, "--backend=", 10)) {
			const char *name = opt[9] ? opt + 10 : argv[2];

			used = opt[9] ? 1 : 2;
			args->backend = libpidfd_backend_by_name(name);
			if (args->backend < 0) {
				usage_error(err, "unknown backend '%s' (auto, "
					    "native or module)", name);
				return -1;
			}
		} else {
			break;
		}
		argv[used] = argv[0];
		argv += used;
		argc -= used;
	}
	if (argc < 2) {
		usage_error(err, "no command specified");
		return -1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		args->command = PIDFDCTL_HELP;
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		args->command = PIDFDCTL_VERSION;
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			args->command = commands[i].command;
	if (args->command == PIDFDCTL_NONE) {
		if (argv[1][0] == '-')
			usage_error(err, "a command must come first, not '%s'",
				    argv[1]);
		else
			usage_error(err, "unknown command '%s'", argv[1]);
		return -1;
	}

	cmdname = argv[1];
	/* kill(1)'s -SIG and -N forms, first after the command. */
	if (args->command == PIDFDCTL_KILL && argc > 2 &&
	    argv[2][0] == '-' && argv[2][1] && argv[2][1] != '-' &&
	    strcmp(argv[2], "-l") && strcmp(argv[2], "-L")) {
		if (pidfdctl_parse_signal(argv[2] + 1, &args->signal) == 0) {
			skip = 1;
		} else if (isdigit((unsigned char)argv[2][1])) {
			/* Not an option: a number, and no signal's. */
			usage_error(err, "kill: invalid signal name or number: %s",
				    argv[2] + 1);
			return -1;
		}
	}
	argc -= 1 + skip;
	argv += 1 + skip;
	if (args->command == PIDFDCTL_KILL) {
		argv = groups_last(argc, argv, args);
		if (!argv) {
			fprintf(err, "%s: out of memory\n", pidfdctl_progname());
			return -1;
		}
		argc = args->argc_copy;
	}
	first = parse_options(argc, argv, cmdname, args, err);
	if (first < 0)
		return -1;
	if (args->command == PIDFDCTL_HELP || args->command == PIDFDCTL_VERSION)
		return 0;
	argc -= first;
	argv += first;

	switch (args->command) {
	case PIDFDCTL_WAIT:
		if (argc < 1) {
			usage_error(err, "wait: no PID specified");
			return -1;
		}
		if (args->count > (size_t)argc) {
			usage_error(err, "wait: --count %zu is more than the %d "
				    "PID%s given", args->count, argc,
				    argc == 1 ? "" : "s");
			return -1;
		}
		return parse_pids(argc, argv, args, err);
	case PIDFDCTL_KILL:
		if (args->list_signals) {
			/* kill(1)'s "-l SIG": one name or number to translate. */
			if (argc > (args->list_arg ? 0 : 1)) {
				usage_error(err, "kill: --list takes one signal at most");
				return -1;
			}
			if (argc)
				args->list_arg = argv[0];
			return 0;
		}
		if (args->has_value && args->signal == 0) {
			usage_error(err, "kill: --value needs a signal, not 0");
			return -1;
		}
		if (argc < 1) {
			usage_error(err, "kill: no PID specified");
			return -1;
		}
		if (parse_pids(argc, argv, args, err) < 0)
			return -1;
		for (size_t i = 0; i < args->npids; i++)
			if (args->pids[i] < 0 &&
			    (args->has_value || args->scope || args->nfollow)) {
				usage_error(err, "kill: a process group (%d) has no "
					    "pidfd: --value, --thread, --thread-group, "
					    "--process-group and --timeout are for PIDs",
					    (int)args->pids[i]);
				return -1;
			}
		return 0;
	case PIDFDCTL_INFO:
	case PIDFDCTL_STATUS:
		if (argc < 1) {
			usage_error(err, "%s: no PID specified", cmdname);
			return -1;
		}
		if (argc > 1) {
			usage_error(err, "%s: unexpected argument '%s'",
				    cmdname, argv[1]);
			return -1;
		}
		return parse_pids(argc, argv, args, err);
	case PIDFDCTL_RUN:
		/* timeout(1)'s form: run DURATION CMD, without --timeout. */
		if (!args->timeout_given && argc >= 2 &&
		    pidfdctl_parse_duration(argv[0], &args->timeout_ms) == 0) {
			if (args->timeout_ms == 0)
				args->timeout_ms = -1;
			argc--;
			argv++;
		}
		if (argc < 1) {
			usage_error(err, "run: no command specified");
			return -1;
		}
		if (args->kill_after_ms >= 0 && args->timeout_ms < 0) {
			usage_error(err, "run: --kill-after needs --timeout");
			return -1;
		}
		args->cmd = argv;
		return 0;
	case PIDFDCTL_EXEC:
		if (argc < 1) {
			usage_error(err, "exec: no command specified");
			return -1;
		}
		args->cmd = argv;
		return 0;
	case PIDFDCTL_DOCTOR:
		if (argc > 0) {
			usage_error(err, "doctor: unexpected argument '%s'",
				    argv[0]);
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

int pidfdctl_usage_exit_code(const struct pidfdctl_args *args)
{
	/* timeout(1) and env(1) report their own usage errors as 125. */
	return args->command == PIDFDCTL_RUN ||
	       args->command == PIDFDCTL_EXEC ? RUN_EXIT_FAILURE :
						PIDFDCTL_EXIT_FAILURE;
}

void pidfdctl_args_free(struct pidfdctl_args *args)
{
	free(args->argv_copy);
	args->argv_copy = NULL;
	free(args->pids);
	args->pids = NULL;
	free(args->ids);
	args->ids = NULL;
	args->npids = 0;
}
