/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared between the library's source files; not installed. Grouped by
 * the file that defines them, in the order the files depend on each
 * other: device and backend first, then the proofs and conversion, then
 * the calls (pidfd.c, and peer.c, spawn.c, waitid.c on top of it).
 * Nothing calls a file further down the list.
 */
#ifndef LIBPIDFD_INTERNAL_H
#define LIBPIDFD_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <linux/types.h>

#include "libpidfd.h"

/* Hidden from the shared library's dynamic symbol table. */
#define LIBPIDFD_PRIVATE __attribute__((visibility("hidden")))

/*
 * waitid()'s P_PIDFD (5.4), the kernel's value (<linux/wait.h>): glibc's
 * <sys/wait.h> has it from 2.32 only (Debian 11 has 2.31), and as an
 * enumerator, so no #ifndef can tell.
 */
#define LIBPIDFD_P_PIDFD	((idtype_t)3)

/*
 * glibc names only the system calls it knew (2.31: none newer than 5.4);
 * numbers from 424 on are the same on every architecture.
 */
#ifndef SYS_openat2
#define SYS_openat2		437
#endif

/* ---- misc.c ---------------------------------------------------------- */

/*
 * @prefix followed by the decimal @nr in @buf (of @size bytes; "" if it
 * does not fit), async-signal-safe where snprintf() is not. Returns @buf.
 */
LIBPIDFD_PRIVATE char *libpidfd_priv_path_fd(char *buf, size_t size,
					     const char *prefix, int nr);

/* CLOCK_MONOTONIC in milliseconds. */
LIBPIDFD_PRIVATE int64_t libpidfd_priv_now_ms(void);

/* ---- device.c: /dev/pidfd --------------------------------------------- */

/*
 * The process's control fd for /dev/pidfd, opened on first use. Returns
 * it, or -1 with errno (ENOPKG when the module is not loaded).
 */
LIBPIDFD_PRIVATE int libpidfd_priv_control_fd(void);
/* An ioctl of /dev/pidfd's on the control fd: its result, or -1/errno. */
LIBPIDFD_PRIVATE int libpidfd_priv_control_ioctl(unsigned long cmd,
						 unsigned long arg);
/*
 * Whether the module is there: a control fd opened before (no system
 * call), else libpidfd_probe().
 */
LIBPIDFD_PRIVATE bool libpidfd_priv_module_known(void);
/* PIDFD_DEV_OPEN on the control fd. */
LIBPIDFD_PRIVATE int libpidfd_priv_module_open(pid_t pid, unsigned int flags);

/* ---- backend.c: the kernel's calls, what it can do, which kind -------- */

/* What the running kernel's own pidfd calls can do, probed once. */
struct libpidfd_native {
	bool open;		/* pidfd_open(2), 5.3 */
	bool thread;		/* PIDFD_THREAD, 6.9 */
	bool signal;		/* pidfd_send_signal(2) not refused, 5.1 */
	bool signal_scope;	/* PIDFD_SIGNAL_* flags, 6.9 */
	bool waitid;		/* waitid(P_PIDFD), 5.4 */
	bool namespaces;	/* PIDFD_GET_*_NAMESPACE, 6.11 */
	bool info;		/* PIDFD_GET_INFO, 6.13 */
	__u64 info_mask;	/* PIDFD_INFO_* its GET_INFO can report */
};

/*
 * What the library's calls go by: probed once per process on its own
 * pidfd, without a child; info_mask has PIDFD_INFO_EXIT only where the
 * kernel says it supports it (6.19). No lock, no allocation: a signal
 * handler may call it (backend.c).
 */
LIBPIDFD_PRIVATE struct libpidfd_native libpidfd_priv_kernel(void);
/*
 * The same, whole: on 6.13 to 6.18 whether the kernel keeps the exit
 * status is asked of a child that exits at once (for pidfdctl doctor).
 */
LIBPIDFD_PRIVATE struct libpidfd_native libpidfd_priv_native(void);

/*
 * Is @fd one of the kernel's pidfds (waitid(P_PIDFD, WNOHANG | WNOWAIT))?
 * 1, 0, or -1 when the kernel cannot tell.
 */
LIBPIDFD_PRIVATE int libpidfd_priv_kernel_pidfd(int fd);

/* The chosen backend; negative until LIBPIDFD_BACKEND is read, or bad. */
extern LIBPIDFD_PRIVATE int libpidfd_priv_chosen_backend;

/* libpidfd_get_backend() without a call once the backend is known. */
static inline int libpidfd_priv_backend(void)
{
	int backend = __atomic_load_n(&libpidfd_priv_chosen_backend,
				      __ATOMIC_RELAXED);

	return backend >= 0 ? backend : libpidfd_get_backend();
}

/* LIBPIDFD_BACKEND_* for "auto", "native", "module"; -1 otherwise. */
LIBPIDFD_PRIVATE int libpidfd_priv_backend_named(const char *name);

/* The kernel's calls, made as they are (inline: no call around them). */
static inline int libpidfd_priv_sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static inline int libpidfd_priv_sys_send_signal(int pidfd, int sig,
						const siginfo_t *info,
						unsigned int flags)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
}

static inline bool libpidfd_priv_is_self(int pidfd)
{
	return pidfd == PIDFD_SELF_THREAD || pidfd == PIDFD_SELF_THREAD_GROUP;
}

/* ---- procfs.c: the userspace routes ------------------------------------ */

/*
 * -1 with errno is the answer; LIBPIDFD_PRIV_UNPROVED means this route
 * cannot prove it here (another procfs instance, a covered file, an
 * fdinfo the caller may not read) and the module may.
 */
#define LIBPIDFD_PRIV_UNPROVED	(-2)

/* The "Pid:" of @fd's fdinfo in the calling thread's /proc. */
LIBPIDFD_PRIVATE int libpidfd_priv_fdinfo_pid(int fd, pid_t *nr);
/* PIDFD_GET_PROCFD for a kernel pidfd. */
LIBPIDFD_PRIVATE int libpidfd_priv_procdir_of(int pidfd, int procfd);
/* PIDFD_DEV_OPEN_PROCDIR, making a kernel pidfd. */
LIBPIDFD_PRIVATE int libpidfd_priv_pidfd_of_procdir(int dirfd,
						    unsigned int flags);

/* (getpid.c: libpidfd_getpid(), on backend.c and procfs.c.) */

/* ---- convert.c: one kind of pidfd as the other ------------------------- */

/*
 * @pidfd as a pidfd of @kind: the caller's own fd, or a temporary one
 * (PIDFD_SELF_*, or converted) that libpidfd_priv_release() closes.
 */
struct libpidfd_held {
	int fd;
	bool temporary;
};

LIBPIDFD_PRIVATE int libpidfd_priv_hold(int pidfd, int kind,
					struct libpidfd_held *held);
LIBPIDFD_PRIVATE void libpidfd_priv_release(struct libpidfd_held *held);

/*
 * Route a call on @pidfd and hold it for that route: the kind of pidfd
 * (LIBPIDFD_BACKEND_NATIVE or _MODULE) the call acts through, given
 * whether the kernel can do the call natively. That is the pidfd's own
 * kind unless the backend or the kernel says otherwise. -1 with errno for
 * a bad pidfd or LIBPIDFD_BACKEND, or a failed conversion.
 */
LIBPIDFD_PRIVATE int libpidfd_priv_take(int pidfd, bool native_can,
					struct libpidfd_held *held);

/*
 * Whether @pidfd (of @kind) still names a process that holds pid number
 * @nr and has not been reaped.
 */
LIBPIDFD_PRIVATE bool libpidfd_priv_still_holds(int pidfd, int kind, pid_t nr);

/* ---- pidfd.c: the calls ------------------------------------------------ */

/* The kind of pidfd libpidfd_open() makes for @flags, or -1. */
LIBPIDFD_PRIVATE int libpidfd_priv_open_kind(unsigned int flags);

#endif
