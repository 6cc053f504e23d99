/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PIDFDCTL_COMMANDS_H
#define PIDFDCTL_COMMANDS_H

#include <stdint.h>

#include "args.h"

/* Each returns the exit code of pidfdctl. */
int pidfdctl_wait(const struct pidfdctl_args *args);
int pidfdctl_kill(const struct pidfdctl_args *args);
int pidfdctl_info(const struct pidfdctl_args *args);
int pidfdctl_status(const struct pidfdctl_args *args);
int pidfdctl_run(const struct pidfdctl_args *args);
int pidfdctl_doctor(const struct pidfdctl_args *args);
/* Returns only on failure. */
int pidfdctl_exec(const struct pidfdctl_args *args);

/* Errors on stderr, prefixed with the program name. */
void pidfdctl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Open a pidfd for @pid, of the process identity @id names unless @id is
 * 0 (PID:ID), or say why not; errno is kept (ESRCH: another process).
 */
int pidfdctl_open(pid_t pid, uint64_t id, unsigned int flags);
/* Does @fd name the process @id names (0: any)? 0, or -1 after saying. */
int pidfdctl_check_id(pid_t pid, uint64_t id, int fd);
/* --verbose: say which kind of pidfd each PID got. */
extern bool pidfdctl_verbose;
void pidfdctl_say_pidfd(pid_t pid, int pidfd);
/* CLOCK_MONOTONIC in milliseconds. */
int64_t pidfdctl_now_ms(void);
/* PIDFDCTL_EXIT_NOMODULE for ENOPKG, else PIDFDCTL_EXIT_FAILURE. */
int pidfdctl_failure(int err);

#endif
