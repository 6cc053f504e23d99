// SPDX-License-Identifier: GPL-2.0-or-later
/* pidfdctl: processes through pidfds, the kernel's or the module's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpidfd.h>

#include "args.h"
#include "commands.h"

/* Output errors (a full disk, a closed pipe) must not pass as success. */
static int flush_stdout(int code)
{
	int err = fflush(stdout) ? errno : 0;

	if (err || ferror(stdout)) {
		/* An earlier failed write left no errno behind: say less. */
		if (err && err != EPIPE)
			pidfdctl_warn("write error: %s", strerror(err));
		else if (!err)
			pidfdctl_warn("write error");
		return code ? code : PIDFDCTL_EXIT_FAILURE;
	}
	return code;
}

static int print_help(const struct pidfdctl_args *args)
{
	(void)args;
	pidfdctl_print_help(stdout);
	return PIDFDCTL_EXIT_OK;
}

static int print_version(const struct pidfdctl_args *args)
{
	(void)args;
	pidfdctl_print_version(stdout);
	return PIDFDCTL_EXIT_OK;
}

/* What runs each command. */
static int (*const commands[])(const struct pidfdctl_args *) = {
	[PIDFDCTL_HELP] = print_help,
	[PIDFDCTL_VERSION] = print_version,
	[PIDFDCTL_WAIT] = pidfdctl_wait,
	[PIDFDCTL_KILL] = pidfdctl_kill,
	[PIDFDCTL_INFO] = pidfdctl_info,
	[PIDFDCTL_STATUS] = pidfdctl_status,
	[PIDFDCTL_RUN] = pidfdctl_run,
	[PIDFDCTL_DOCTOR] = pidfdctl_doctor,
	[PIDFDCTL_EXEC] = pidfdctl_exec,
};

/* glibc takes a size only with a buffer. */
static char stdout_buffer[1 << 16];

int main(int argc, char **argv)
{
	struct pidfdctl_args args;
	int (*run)(const struct pidfdctl_args *args);
	int code;

	if (pidfdctl_parse(argc, argv, &args, stderr) < 0) {
		code = pidfdctl_usage_exit_code(&args);
		pidfdctl_args_free(&args);
		return code;
	}

	/*
	 * Into a file or a pipe, one buffer large enough for any of our
	 * reports (--help included), written at the end: a failed write is
	 * then the flush's, whose errno says why.
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
	pidfdctl_verbose = args.verbose;
	if (args.backend >= 0) {
		libpidfd_set_backend(args.backend);
	} else if (args.command != PIDFDCTL_HELP &&
		   args.command != PIDFDCTL_VERSION &&
		   libpidfd_get_backend() < 0) {
		pidfdctl_warn("LIBPIDFD_BACKEND='%s': unknown backend (auto, "
			      "native or module)", getenv("LIBPIDFD_BACKEND"));
		code = pidfdctl_usage_exit_code(&args);
		pidfdctl_args_free(&args);
		return code;
	}

	run = args.command < sizeof(commands) / sizeof(commands[0]) ?
	      commands[args.command] : NULL;
	code = run ? run(&args) : PIDFDCTL_EXIT_FAILURE;
	pidfdctl_args_free(&args);
	return flush_stdout(code);
}
