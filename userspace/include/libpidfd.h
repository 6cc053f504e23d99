/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpidfd: pidfds on every kernel from 5.10 on. Each call uses the
 * kernel's own pidfd system calls where the running kernel has what it
 * needs (probed at run time) and the pidfd-dkms module's /dev/pidfd for
 * the rest; libpidfd_set_backend() or LIBPIDFD_BACKEND=auto|native|module
 * in the environment choose. Every function that takes a pidfd takes both
 * kinds, and PIDFD_SELF_THREAD / PIDFD_SELF_THREAD_GROUP.
 *
 * Every function returns -1 and sets errno on failure, as a system call
 * does; errno is the one the kernel or the module set, passed through
 * unchanged. When the module is needed and not loaded, errno is ENOPKG
 * and libpidfd_strerror(ENOPKG) says how to load it.
 *
 * The names are all prefixed libpidfd_ so that a program can include
 * glibc's <sys/pidfd.h> as well, and <linux/pidfd.h>, before or after this
 * header. docs/libpidfd.md maps each function to the upstream call it
 * stands for and says which backend serves what.
 *
 * C99 or later, or C++11 or later. siginfo_t is POSIX.1b's: as glibc's
 * <signal.h> does, this header needs _POSIX_C_SOURCE 199309L or later
 * (or _XOPEN_SOURCE, _DEFAULT_SOURCE, _GNU_SOURCE), which the compilers'
 * default -std=gnu* and every C++ mode define but a strict -std=c99,
 * c11, c17 or c23 does not: define _POSIX_C_SOURCE 200809L then.
 *
 * It includes what its declarations need and nothing more: <signal.h>
 * (siginfo_t), <spawn.h> (the posix_spawn types), <stddef.h>,
 * <sys/types.h>, and <linux/pidfd_dev.h> (struct pidfd_dev_info, the
 * PIDFD_* flags; itself only <linux/types.h> and <linux/ioctl.h>). Not
 * <fcntl.h>: PIDFD_NONBLOCK and PIDFD_THREAD are O_NONBLOCK and O_EXCL, as
 * upstream's, so include it where you use them.
 */
#ifndef LIBPIDFD_H
#define LIBPIDFD_H

#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/pidfd_dev.h>

#if defined(__GLIBC__) && \
	(!defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 199309L)
#error "<libpidfd.h> needs siginfo_t: define _POSIX_C_SOURCE 200809L (or _GNU_SOURCE) before any #include"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Where pidfds come from (libpidfd_set_backend(), LIBPIDFD_BACKEND):
 * AUTO makes native pidfds where the kernel's pidfd_open(2) takes the
 * flags and module ones otherwise, and serves each call natively where the
 * kernel can; NATIVE never uses the module (a call the kernel lacks fails
 * with the kernel's errno, or EOPNOTSUPP where there is no such call);
 * MODULE makes module pidfds and never uses the kernel's pidfd calls.
 * A pidfd of the other kind handed in is converted (see libpidfd_to_*).
 */
#define LIBPIDFD_BACKEND_AUTO	0
#define LIBPIDFD_BACKEND_NATIVE	1
#define LIBPIDFD_BACKEND_MODULE	2

/*
 * Upstream 6.15's pidfds for the calling thread and its process, with the
 * tokens of <linux/fcntl.h> and glibc 2.43's <sys/pidfd.h>: defined again
 * by either, before or after, they are silent.
 */
#define PIDFD_SELF_THREAD		-10000
#define PIDFD_SELF_THREAD_GROUP		-10001

/* The control device the library opens (once per process). */
#define LIBPIDFD_DEVICE "/dev/pidfd"

/*
 * Check that the module is loaded and /dev/pidfd can be opened. Returns 0,
 * or -1 with errno ENOPKG (module not loaded) or the error of open(2).
 * With the native backend the module is not needed: do not call this.
 */
int libpidfd_probe(void);

/*
 * pidfd_open(2): a close-on-exec pidfd for process (or thread) @pid of the
 * caller's pid namespace. @flags: 0, PIDFD_NONBLOCK, PIDFD_THREAD. Auto
 * makes the kernel's pidfd where pidfd_open(2) takes @flags and the kernel
 * says its pidfds keep the exit status (PIDFD_INFO_EXIT in its supported
 * mask, 7.x); elsewhere the module's if it is loaded, else the kernel's.
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
 * directory @procfd is, proved to belong to @pidfd's process: in userspace
 * for a kernel pidfd, by the module for a module pidfd or where userspace
 * cannot prove it (EOPNOTSUPP then with the native backend).
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
 * Proved in userspace where the pidfd is the kernel's kind, else by the
 * module (EOPNOTSUPP with the native backend where userspace cannot); the
 * pidfd is of the kind libpidfd_open() would make.
 */
int libpidfd_from_procdir(int dirfd, unsigned int flags);

/*
 * The pidfd of the process at the other end of a connected socket, as it
 * was at connect(), accept() or socketpair() time: getsockopt(SO_PEERPIDFD)
 * (6.5) where the kernel has it, the module's PIDFD_DEV_OPEN_PEER
 * otherwise. Race-free: made from the socket's own reference to the peer,
 * never from its number. @flags: 0 or PIDFD_NONBLOCK. errno: ENODATA (no
 * peer recorded: unconnected, or a family that records none), ESRCH (the
 * peer has been reaped; EINVAL from 6.5-6.14 kernels' own call), ENOTSOCK,
 * EBADF, EINVAL (flags).
 */
int libpidfd_peer_open(int sockfd, unsigned int flags);

/*
 * ioctl(pidfd, PIDFD_GET_INFO, info): set info->mask to what you ask for
 * (PIDFD_INFO_EXIT, PIDFD_INFO_SUPPORTED_MASK; the rest always comes);
 * on return info->mask says what was filled in. @size is sizeof(*info):
 * any size from PIDFD_INFO_SIZE_VER0 (64) works, so upstream's struct
 * pidfd_info of any <linux/pidfd.h> or <sys/pidfd.h>, whose fields are
 * the first ones of struct pidfd_dev_info, may be passed (cast) with its
 * own sizeof. One ioctl on either kind of pidfd (the same command): the
 * kernel's or the module's errno, ENOTTY for a file that is not a pidfd.
 */
int libpidfd_get_info(int pidfd, struct pidfd_dev_info *info, size_t size);

/*
 * The namespace ioctls (upstream 6.11): a close-on-exec nsfs fd, for
 * setns(2), of the namespace of @pidfd's process that @cmd names, one of
 * PIDFD_GET_CGROUP_NAMESPACE ... PIDFD_GET_UTS_NAMESPACE. The caller needs
 * what opening /proc/<pid>/ns/<type> needs (ptrace read access). errno:
 * ENOTTY (@cmd is not one of them: never sent; or not a pidfd), EACCES, ESRCH (the process has
 * exited), EOPNOTSUPP (the kernel has no such kind of namespace).
 */
int libpidfd_get_namespace(int pidfd, unsigned int cmd);

/*
 * Wait until the process (or, for a PIDFD_THREAD pidfd, the thread) has
 * exited, by poll(2) on the pidfd. @timeout_ms < 0 waits for ever.
 * Returns 0 once it has exited, -1 with errno ETIMEDOUT if it has not by
 * then; EBADF if @pidfd is not a pidfd (a negative number too, which
 * poll(2) would ignore). Interrupted polls are restarted with the time
 * left; to be woken by signals, poll the pidfd yourself.
 */
int libpidfd_wait_exit(int pidfd, int timeout_ms);

/*
 * The wait(2) status (for WIFEXITED() and friends) of the exited process,
 * from PIDFD_GET_INFO with PIDFD_INFO_EXIT, for any process, not only
 * children, once it has been reaped by its parent. Recorded at the exit
 * for pidfds open then: the module's on every kernel, the kernel's from
 * 6.15. Returns 0, or -1 with errno EAGAIN while the process is alive or
 * a zombie not yet reaped, or ESRCH if the exit was not recorded (a
 * kernel's pidfd before 6.15 cannot be converted after the reap). An
 * ESRCH from the kernel's 6.15 to 7.2, which give it to a call that races
 * the reap, is asked again once.
 */
int libpidfd_exit_status(int pidfd, int *status);

/*
 * glibc's pidfd_getpid(3): the PID of @pidfd's process in the pid
 * namespace of /proc, from /proc/self/fdinfo. errno: EBADF (not an open
 * pidfd), EREMOTE (the process is in a pid namespace /proc cannot see),
 * ESRCH (the process has exited and been reaped).
 */
pid_t libpidfd_getpid(int pidfd);

/*
 * The identity of @pidfd's process (or, for a thread pidfd, thread): a
 * number that no other process gets until the next boot, the same through
 * every pidfd of it, of either kind, for as long as it lives and after.
 * It is what fstat(2) of a pidfd says in st_ino where each process has
 * an inode of its own: every module pidfd, and the kernel's from 6.9
 * (pidfs), where both kinds give the same number. On older kernels a
 * kernel pidfd's is its module twin's (libpidfd_to_module()). What
 * util-linux's "kill PID:INODE" and systemd's pidfd inode ID compare.
 * Returns 0 with *@id set. errno: EBADF (not an open pidfd), EINVAL (@id
 * is NULL), and for a kernel pidfd before 6.9: ENOPKG (no module),
 * EOPNOTSUPP (the native backend), ESRCH (the process has been reaped).
 */
int libpidfd_get_id(int pidfd, uint64_t *id);

/*
 * Choose the backend for this process (overrides LIBPIDFD_BACKEND).
 * Returns 0, or -1 with EINVAL for anything but LIBPIDFD_BACKEND_*.
 */
int libpidfd_set_backend(int backend);

/*
 * The chosen backend, LIBPIDFD_BACKEND_*; -1 with EINVAL if
 * LIBPIDFD_BACKEND holds something other than auto, native or module
 * (every call then fails with EINVAL until libpidfd_set_backend()).
 */
int libpidfd_get_backend(void);

/*
 * Which kind of pidfd @pidfd is: LIBPIDFD_BACKEND_NATIVE (the kernel's)
 * or LIBPIDFD_BACKEND_MODULE. errno: EBADF (not an open pidfd).
 */
int libpidfd_pidfd_backend(int pidfd);

/*
 * A new close-on-exec pidfd of the other kind for exactly @pidfd's
 * process (or thread), with its PIDFD_THREAD and PIDFD_NONBLOCK; for a
 * pidfd already of that kind, a duplicate. Race-free: ESRCH if the
 * process has been reaped, never a pidfd for another process that got
 * its number (docs/libpidfd.md has the proof). errno also: ENOPKG
 * (to_module without the module), ENOSYS (to_native on a kernel without
 * pidfd_open), EINVAL (a thread pidfd to_native before 6.9), EREMOTE (the
 * process is not visible in /proc's pid namespace).
 */
int libpidfd_to_native(int pidfd);
int libpidfd_to_module(int pidfd);

/*
 * fork(2) that also returns the child's pidfd in *@pidfd (close-on-exec,
 * of the backend's kind) in the parent; 0 in the child. @flags: 0,
 * PIDFD_NONBLOCK, PIDFD_AUTOKILL (a module pidfd that kills the child
 * when closed: docs/libpidfd.md), for the pidfd. The pidfd is opened
 * before the parent can reap the child, so it names the child. errno ECHILD, and no child,
 * when SIGCHLD is ignored or SA_NOCLDWAIT is set (the kernel would reap
 * the child itself); EINVAL for other @flags. Another thread of the
 * caller that waits for any child (wait(-1)) can still reap it first.
 */
pid_t libpidfd_fork(int *pidfd, unsigned int flags);

/*
 * glibc 2.39's pidfd_spawn(3) and pidfd_spawnp(3), in their argument
 * order: posix_spawn(3)/posix_spawnp(3) that return the child's pidfd in
 * *@pidfd instead of its PID (libpidfd_getpid() gives that), with the
 * rules of libpidfd_fork(). Returns 0 or an error number, as posix_spawn
 * does (and does not set errno). For PIDFD_AUTOKILL use libpidfd_fork().
 */
int libpidfd_spawn(int *pidfd, const char *path,
		   const posix_spawn_file_actions_t *file_actions,
		   const posix_spawnattr_t *attr, char *const argv[],
		   char *const envp[]);
int libpidfd_spawnp(int *pidfd, const char *file,
		    const posix_spawn_file_actions_t *file_actions,
		    const posix_spawnattr_t *attr, char *const argv[],
		    char *const envp[]);

/*
 * waitid(P_PIDFD, pidfd, info, options) (5.4) for a child of the
 * caller: the kernel's where it has it, otherwise through the pid number
 * the pidfd proves (WNOWAIT first, then the reap). errno as waitid(2):
 * ECHILD (not a child of the caller, or already reaped), EINVAL.
 */
int libpidfd_waitid(int pidfd, siginfo_t *info, int options);

/*
 * strerror(3), except that ENOPKG explains that the pidfd module is not
 * loaded and how to load it. The string is static; do not free it.
 */
const char *libpidfd_strerror(int errnum);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *libpidfd_version(void);

/*
 * LIBPIDFD_BACKEND_* for the name LIBPIDFD_BACKEND takes ("auto",
 * "native", "module"); -1 with EINVAL for any other.
 */
int libpidfd_backend_by_name(const char *name);

/*
 * What the running kernel's own pidfds can do, as libpidfd finds it: a
 * mask of LIBPIDFD_KERNEL_*, for diagnostics (the calls choose their
 * routes by the same probes). Probed once per process on its own pidfd;
 * whether 6.13 to 6.18 keep the exit status after the reap, which they do
 * not say, is asked of a child that exits at once (invisible: no SIGCHLD,
 * nothing to reap), the one process the library makes unasked.
 */
#define LIBPIDFD_KERNEL_PIDFD_OPEN	(1u << 0)	/* pidfd_open(2), 5.3 */
#define LIBPIDFD_KERNEL_SEND_SIGNAL	(1u << 1)	/* 5.1 */
#define LIBPIDFD_KERNEL_WAITID		(1u << 2)	/* P_PIDFD, 5.4 */
#define LIBPIDFD_KERNEL_THREAD		(1u << 3)	/* PIDFD_THREAD, 6.9 */
#define LIBPIDFD_KERNEL_SIGNAL_SCOPE	(1u << 4)	/* PIDFD_SIGNAL_*, 6.9 */
#define LIBPIDFD_KERNEL_NAMESPACES	(1u << 5)	/* 6.11 */
#define LIBPIDFD_KERNEL_GET_INFO	(1u << 6)	/* 6.13 */
#define LIBPIDFD_KERNEL_EXIT_INFO	(1u << 7)	/* after the reap, 6.15 */
unsigned int libpidfd_kernel_features(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBPIDFD_H */
