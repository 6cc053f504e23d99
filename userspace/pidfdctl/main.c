// SPDX-License-Identifier: GPL-2.0-or-later
/* pidfdctl: processes through pidfds, the kernel's or the module's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <libpidfd.h>

#include "args.h"
#include "commands.h"

/* Output errors (a full disk, a closed pipe) must not pass as success. */
static int flush_stdout(int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			pidfdctl_warn("write error");
		return code ? code : PIDFDCTL_EXIT_FAILURE;
	}
	return code;
}

int main(int argc, char **argv)
{
	struct pidfdctl_args args;
	int code;

	if (pidfdctl_parse(argc, argv, &args, stderr) < 0) {
		code = pidfdctl_usage_exit_code(&args);
		pidfdctl_args_free(&args);
		return code;
	}

	pidfdctl_verbose = args.verbose;
	if (args.backend >= 0) {
		libpidfd_set_backend(args.backend);
	} else if (args.command != PIDFDCTL_HELP &&
		   args.command != PIDFDCTL_VERSION &&
		   libpidfd_get_backend() < 0) {
		pidfdctl_warn("LIBPIDFD_BACKEND='%s': unknown backend (auto, "
			      "native or module)", getenv("LIBPIDFD_BACKEND"));
		code = args.command == PIDFDCTL_RUN ? RUN_EXIT_FAILURE :
						   PIDFDCTL_EXIT_FAILURE;
		pidfdctl_args_free(&args);
		return code;
	}

	switch (args.command) {
	case PIDFDCTL_HELP:
		pidfdctl_print_help(stdout);
		code = PIDFDCTL_EXIT_OK;
		break;
	case PIDFDCTL_VERSION:
		pidfdctl_print_version(stdout);
		code = PIDFDCTL_EXIT_OK;
		break;
	case PIDFDCTL_WAIT:
		code = pidfdctl_wait(&args);
		break;
	case PIDFDCTL_KILL:
		code = pidfdctl_kill(&args);
		break;
	case PIDFDCTL_INFO:
		code = pidfdctl_info(&args);
		break;
	case PIDFDCTL_STATUS:
		code = pidfdctl_status(&args);
		break;
	case PIDFDCTL_DOCTOR:
		code = pidfdctl_doctor(&args);
		break;
	case PIDFDCTL_RUN:
		code = pidfdctl_run(&args);
		break;
	default:
		code = PIDFDCTL_EXIT_FAILURE;
		break;
	}
	pidfdctl_args_free(&args);
	return flush_stdout(code);
}
