/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd: pidfds on kernels that lack them, through the pidfd-dkms
 * module's /dev/pidfd.
 *
 * Every function returns -1 and sets errno on failure, as a system call
 * does; errno is the one the module set, passed through unchanged. When the
 * module is not loaded, errno is ENOPKG and libpidfd_strerror(ENOPKG) says
 * how to load it.
 *
 * The names are all prefixed libpidfd_ so that a program can include
 * glibc's <sys/pidfd.h> as well: the module's pidfds are not the kernel's,
 * and glibc's pidfd_open()/pidfd_send_signal() do not work on them (nor
 * ours on the kernel's). docs/libpidfd.md maps each function to the
 * upstream call it stands for.
 */
#ifndef LIBPIDFD_H
#define LIBPIDFD_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/pidfd_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The control device the library opens (once per process). */
#define LIBPIDFD_DEVICE "/dev/pidfd"

/*
 * Check that the module is loaded and /dev/pidfd can be opened. Returns 0,
 * or -1 with errno ENOPKG (module not loaded) or the error of open(2).
 */
int libpidfd_probe(void);

/*
 * pidfd_open(2): a close-on-exec pidfd for process (or thread) @pid of the
 * caller's pid namespace. @flags: 0, PIDFD_NONBLOCK, PIDFD_THREAD.
 */
int libpidfd_open(pid_t pid, unsigned int flags);

/*
 * pidfd_send_signal(2): send @sig to the process @pidfd names. @info (may
 * be NULL) is delivered as rt_sigqueueinfo(2) would; @flags is 0 or one of
 * PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP, PIDFD_SIGNAL_PROCESS_GROUP.
 */
int libpidfd_send_signal(int pidfd, int sig, const siginfo_t *info,
			 unsigned int flags);

/*
 * ioctl(pidfd, PIDFD_GET_PROCFD, procfd) of the 2019 patch set: a
 * close-on-exec directory fd for /proc/<pid> in the procfs whose root
 * directory @procfd is, proved to belong to @pidfd's process.
 */
int libpidfd_get_procfd(int pidfd, int procfd);

/* As libpidfd_get_procfd(), with the procfs mounted on /proc. */
int libpidfd_open_procdir(int pidfd);

/*
 * The reverse of libpidfd_get_procfd(): a close-on-exec pidfd for exactly
 * the process (or, for /proc/<pid>/task/<tid>, the thread) whose /proc
 * directory @dirfd is, of any procfs instance. @flags: 0, PIDFD_NONBLOCK,
 * PIDFD_THREAD. errno: ESRCH (gone, even if its number is in use again, or
 * hidden by hidepid=invisible), EINVAL (not such a directory), EBADF.
 */
int libpidfd_from_procdir(int dirfd, unsigned int flags);

/*
 * ioctl(pidfd, PIDFD_GET_INFO, info): set info->mask to what you ask for
 * (PIDFD_INFO_EXIT, PIDFD_INFO_SUPPORTED_MASK; the rest always comes);
 * on return info->mask says what was filled in. @size is sizeof(*info):
 * any size from PIDFD_INFO_SIZE_VER0 (64) works, so a struct pidfd_info
 * from an older <linux/pidfd.h> is safe to pass.
 */
int libpidfd_get_info(int pidfd, struct pidfd_info *info, size_t size);

/*
 * The namespace ioctls (upstream 6.11): a close-on-exec nsfs fd, for
 * setns(2), of the namespace of @pidfd's process that @cmd names, one of
 * PIDFD_GET_CGROUP_NAMESPACE ... PIDFD_GET_UTS_NAMESPACE. The caller needs
 * what opening /proc/<pid>/ns/<type> needs (ptrace read access). errno:
 * EINVAL (@cmd is not one of them), EACCES, ESRCH (the process has
 * exited), EOPNOTSUPP (the kernel has no such kind of namespace).
 */
int libpidfd_get_namespace(int pidfd, unsigned int cmd);

/*
 * Wait until the process (or, for a PIDFD_THREAD pidfd, the thread) has
 * exited, by poll(2) on the pidfd. @timeout_ms < 0 waits for ever.
 * Returns 0 once it has exited, -1 with errno ETIMEDOUT if it has not by
 * then. Interrupted polls are restarted with the time left; to be woken by
 * signals, poll the pidfd yourself.
 */
int libpidfd_wait_exit(int pidfd, int timeout_ms);

/*
 * The wait(2) status (for WIFEXITED() and friends) of the exited process,
 * from PIDFD_GET_INFO with PIDFD_INFO_EXIT. The kernel keeps it for any
 * process, not only children, once the process has been reaped by its
 * parent. Returns 0, or -1 with errno EAGAIN while the process is alive
 * or a zombie not yet reaped, or ESRCH if the exit was not recorded.
 */
int libpidfd_exit_status(int pidfd, int *status);

/*
 * glibc's pidfd_getpid(3): the PID of @pidfd's process in the pid
 * namespace of /proc, from /proc/self/fdinfo. errno: EBADF (not an open
 * pidfd of the module), EREMOTE (the process is in a pid namespace /proc
 * cannot see), ESRCH (the process has exited and been reaped).
 */
pid_t libpidfd_getpid(int pidfd);

/*
 * strerror(3), except that ENOPKG explains that the pidfd module is not
 * loaded and how to load it. The string is static; do not free it.
 */
const char *libpidfd_strerror(int errnum);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *libpidfd_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBPIDFD_H */
