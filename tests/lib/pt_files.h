/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tests read and write besides the module's ioctls: /proc, the
 * module's sysfs counters, environment knobs, scratch directories and
 * mounts. No Check, so every test program links it.
 */
#ifndef PT_FILES_H
#define PT_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The module's counters (docs/design.md) and its reference count. */
#define PT_LIVE_PIDFDS		"/sys/module/pidfd/parameters/live_pidfds"
#define PT_LIVE_PIDS		"/sys/module/pidfd/parameters/live_pids"
#define PT_MODULE_REFCNT	"/sys/module/pidfd/refcnt"

/* A small file's text, trailing newlines cut, NUL-terminated. 0 or -1. */
int pt_read_text(const char *path, char *buf, size_t len);
/* What /proc/self/fd/@fd links to, into @buf; its length, or -1 (errno). */
ssize_t pt_fd_link(int fd, char *buf, size_t len);
/* Reads a decimal number from a file. 0 or -1. */
int pt_read_long(const char *path, long *val);
/*
 * Reads the line starting with @key from @path (e.g. "Pid:") into @out,
 * without the key and without the trailing newline, the tab kept as is.
 * 0 on success, -1 if the file cannot be read or the key is absent.
 */
int pt_read_field(const char *path, const char *key, char *out, size_t len);
/* The same, for a file relative to a directory fd. */
int pt_read_field_at(int dirfd, const char *path, const char *key,
		     char *out, size_t len);
/*
 * The fdinfo field @key for descriptor @fd of process @pid ("self" if 0)
 * as the procfs at @procroot ("/proc" when NULL) shows it.
 */
int pt_fdinfo_field(const char *procroot, pid_t pid, int fd, const char *key,
		    char *out, size_t len);
/* The Pid: line of @pidfd's fdinfo (in /proc's namespace); 0 if none. */
pid_t pt_pidfd_pid(int pidfd);
/* Pending-signal masks of a thread: SigPnd and ShdPnd of its status. */
int pt_thread_pending(pid_t pid, pid_t tid, uint64_t *sigpnd,
		      uint64_t *shdpnd);
/* Writes @last to /proc/sys/kernel/ns_last_pid. 0 or -1. */
int pt_set_ns_last_pid(pid_t last);
/*
 * The number in environment variable @name (any base strtoul takes), or
 * @dflt when it is unset or empty: the knobs of the long-running suites.
 */
unsigned long pt_env_ulong(const char *name, unsigned long dflt);
/*
 * delete_module("pidfd", O_NONBLOCK): 0 or -1/errno. Only ever call it
 * while the caller holds something that pins the module (a pidfd, or
 * /dev/pidfd open; PT_MODULE_REFCNT > 0), so that it must fail: the
 * harness does the real rmmod.
 */
int pt_try_unload(void);
/*
 * unshare(CLONE_NEWNS) and make every mount private, so that mounts made
 * afterwards stay in this test. 0 or -1.
 */
int pt_private_mounts(void);
/* Makes a fresh temporary directory; its path in @buf. 0 or -1. */
int pt_tmpdir(char *buf, size_t len);

/*
 * Closes every descriptor listed, the end of a test that holds several:
 * pt_close_all(fd, pipefd[0], pipefd[1]).
 */
#define pt_close_all(...) \
	pt_close_list((const int[]){ __VA_ARGS__ }, \
		      sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))
void pt_close_list(const int *fds, size_t n);

/*
 * Leaves the calling process no free descriptor (EMFILE for the next
 * one): RLIMIT_NOFILE lowered to 64, every number below it taken with
 * /dev/null. 0, or -1 if that did not end in EMFILE. For a test's own
 * (forked) process: nothing is given back.
 */
int pt_use_every_fd(void);

/* Sends @fd over the Unix socket @sock (SCM_RIGHTS). 0 or -1. */
int pt_send_fd(int sock, int fd);
/* Receives a descriptor that pt_send_fd() sent: the new fd, or -1. */
int pt_recv_fd(int sock);

#endif /* PT_FILES_H */
