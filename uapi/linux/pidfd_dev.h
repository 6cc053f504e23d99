/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pidfd-dkms: the ioctl ABI of /dev/pidfd and of the pidfds it creates.
 *
 * The pidfds made here are the module's own file type: the kernel's
 * pidfd_send_signal(2), waitid(P_PIDFD), setns(2) and pidfd_getfd(2) do not
 * accept them. Every operation is an ioctl on the pidfd instead.
 *
 * A uapi header as the kernel's are: it includes <linux/...> headers only,
 * and it may be included before or after upstream's <linux/pidfd.h> (5.10
 * and later) and glibc's <sys/pidfd.h> (2.36 and later), in C and C++.
 *
 * - Names upstream has too (PIDFD_NONBLOCK, PIDFD_SIGNAL_*, PIDFD_INFO_*,
 *   the namespace ioctls...) are defined with the very tokens upstream's
 *   <linux/pidfd.h> and glibc's <sys/pidfd.h> use, and unconditionally:
 *   a macro defined again with the same tokens is no error and no warning,
 *   so the value is the same whichever header comes first.
 * - Upstream's struct pidfd_info has grown from release to release (64
 *   bytes in 6.13, 88 in 7.2), and glibc 2.43 has one of its own: this
 *   header never defines it. Its copy, with every field the module fills
 *   in, is struct pidfd_dev_info and PIDFD_DEV_GET_INFO, which is the same
 *   command as upstream's PIDFD_GET_INFO of the same size. The module takes
 *   any size of either from PIDFD_INFO_SIZE_VER0 on.
 * - PIDFD_NONBLOCK, PIDFD_THREAD and PIDFD_AUTOKILL are O_NONBLOCK, O_EXCL
 *   and O_TRUNC, as upstream's: include <fcntl.h> (or, in the kernel,
 *   <linux/fcntl.h>) to use them. This header includes neither: the two
 *   both define struct flock, so a program can have only one of them, and
 *   <sys/pidfd.h> includes glibc's.
 *
 * The commands, by type and number (docs/abi.md has the same table), on
 * /dev/pidfd (dev) or on a pidfd:
 *
 *  type  nr    command                     dir   on     argument
 *  0xBF   1    PIDFD_DEV_OPEN              _IOW  dev    pidfd_open_args
 *  0xBF   2    PIDFD_DEV_SEND_SIGNAL       _IOW  pidfd  pidfd_signal_args
 *  0xBF   3    PIDFD_DEV_OPEN_PROCDIR      _IOW  dev    pidfd_open_procdir_args
 *  0xBF   4    PIDFD_DEV_IS_PIDFD          _IO   dev    an fd, by value
 *  0xBF   5    PIDFD_DEV_OPEN_PEER         _IOW  dev    pidfd_open_peer_args
 *  'p'    1    PIDFD_GET_PROCFD            _IOR  pidfd  an fd, by value (!)
 *  0xFF   1-10 PIDFD_GET_<TYPE>_NAMESPACE  _IO   pidfd  0
 *  0xFF  11    PIDFD_DEV_GET_INFO          _IOWR pidfd  pidfd_dev_info
 *
 * 0xBF is the module's own type, PIDFD_DEV_IOC_MAGIC: its numbers from 6
 * on are free. 0xFF is upstream pidfs's (PIDFS_IOCTL_MAGIC): those have
 * upstream's numbers and meaning. 'p' 1 is the 2019 patch set's, and its
 * encoding is wrong (PIDFD_GET_PROCFD says why it stays). The _IOW and
 * _IOWR commands are extensible: the size field is the caller's struct's
 * (copy_struct_from_user() rules), matched on type, number and direction.
 */
#ifndef _UAPI_LINUX_PIDFD_DEV_H
#define _UAPI_LINUX_PIDFD_DEV_H

#include <linux/types.h>
#include <linux/ioctl.h>
#ifdef __KERNEL__
#include <linux/fcntl.h>
#endif

/* Flags for PIDFD_DEV_OPEN, as pidfd_open(2) takes them. */
#define PIDFD_NONBLOCK	O_NONBLOCK
#define PIDFD_THREAD	O_EXCL
/*
 * Kill the process (SIGKILL) when the last reference to this pidfd's file
 * is closed. Upstream 7.2's value (it offers it only through clone3()'s
 * CLONE_PIDFD_AUTOKILL); the rules are in docs/abi.md.
 */
#define PIDFD_AUTOKILL	O_TRUNC

/* Flags for PIDFD_DEV_SEND_SIGNAL, as pidfd_send_signal(2) takes them. */
#define PIDFD_SIGNAL_THREAD		(1UL << 0)
#define PIDFD_SIGNAL_THREAD_GROUP	(1UL << 1)
#define PIDFD_SIGNAL_PROCESS_GROUP	(1UL << 2)
/* The 2019 patch set's name for PIDFD_SIGNAL_THREAD. */
#define PIDFD_SIGNAL_TID		PIDFD_SIGNAL_THREAD

/*
 * The module's own ioctl type: no one holds it in the kernel's
 * Documentation/userspace-api/ioctl/ioctl-number.rst (7.3), and no ioctl
 * of the 7.3 tree uses it (docs/abi.md says how to register it). Until
 * 1.0 it was 0xB6, which that table gives to fpga-dfl.
 */
#define PIDFD_DEV_IOC_MAGIC	0xBF

/**
 * struct pidfd_open_args - argument of PIDFD_DEV_OPEN
 * @pid:   process ID in the caller's pid namespace; a thread ID only with
 *         PIDFD_THREAD (EINVAL without, as pidfd_open(2))
 * @flags: 0, PIDFD_NONBLOCK, PIDFD_THREAD, PIDFD_AUTOKILL
 *
 * Extensible: the size is taken from the command number; a larger struct
 * must have its unknown tail zeroed.
 */
struct pidfd_open_args {
	__s32 pid;
	__u32 flags;
};

#define PIDFD_OPEN_ARGS_SIZE_VER0	8

/* On /dev/pidfd: returns a new close-on-exec pidfd. */
#define PIDFD_DEV_OPEN	_IOW(PIDFD_DEV_IOC_MAGIC, 1, struct pidfd_open_args)

/**
 * struct pidfd_signal_args - argument of PIDFD_DEV_SEND_SIGNAL
 * @sig:   signal number, an int as the kernel's; 0 checks permission and
 *         existence only; negative or above 64: EINVAL
 * @flags: 0 or one of PIDFD_SIGNAL_*
 * @info:  user pointer to a siginfo_t, or 0 for a kill(2)-style siginfo
 */
struct pidfd_signal_args {
	__s32 sig;
	__u32 flags;
	__aligned_u64 info;
};

#define PIDFD_SIGNAL_ARGS_SIZE_VER0	16

/* On a pidfd: pidfd_send_signal(pidfd, sig, info, flags). */
#define PIDFD_DEV_SEND_SIGNAL \
	_IOW(PIDFD_DEV_IOC_MAGIC, 2, struct pidfd_signal_args)

/**
 * struct pidfd_open_procdir_args - argument of PIDFD_DEV_OPEN_PROCDIR
 * @procdir: fd of a /proc/<pid> or /proc/<pid>/task/<tid> directory, of
 *           any procfs instance (O_PATH fds too)
 * @flags:   0, PIDFD_NONBLOCK and/or PIDFD_THREAD (needed for a thread
 *           other than the thread-group leader, as in pidfd_open(2))
 *
 * Extensible as struct pidfd_open_args.
 */
struct pidfd_open_procdir_args {
	__s32 procdir;
	__u32 flags;
};

#define PIDFD_OPEN_PROCDIR_ARGS_SIZE_VER0	8

/*
 * On /dev/pidfd: a new close-on-exec pidfd for exactly the process (or
 * thread) the directory stands for; ESRCH once it is gone. The reverse of
 * PIDFD_GET_PROCFD.
 */
#define PIDFD_DEV_OPEN_PROCDIR \
	_IOW(PIDFD_DEV_IOC_MAGIC, 3, struct pidfd_open_procdir_args)

/*
 * On /dev/pidfd: ioctl(dev, PIDFD_DEV_IS_PIDFD, fd) with the descriptor
 * passed by value. Returns 1 if it is a pidfd this module made, 0 for any
 * other open file, EBADF if it is not open. Lets a library tell its
 * pidfds apart without /proc; no other ioctl need be sent to an unknown
 * file.
 */
#define PIDFD_DEV_IS_PIDFD	_IO(PIDFD_DEV_IOC_MAGIC, 4)

/**
 * struct pidfd_open_peer_args - argument of PIDFD_DEV_OPEN_PEER
 * @sockfd: a connected socket (AF_UNIX: connect(), accept(), socketpair())
 * @flags:  0 or PIDFD_NONBLOCK
 *
 * Extensible as struct pidfd_open_args.
 */
struct pidfd_open_peer_args {
	__s32 sockfd;
	__u32 flags;
};

#define PIDFD_OPEN_PEER_ARGS_SIZE_VER0	8

/*
 * On /dev/pidfd: a new close-on-exec pidfd for the process at the other
 * end of the socket as it was at connect time, as getsockopt(SO_PEERPIDFD)
 * (6.5) gives. ENODATA without a recorded peer (unconnected, or a family
 * that records none), ESRCH once the peer is reaped, ENOTSOCK, EBADF.
 */
#define PIDFD_DEV_OPEN_PEER \
	_IOW(PIDFD_DEV_IOC_MAGIC, 5, struct pidfd_open_peer_args)

/*
 * On a pidfd: ioctl(pidfd, PIDFD_GET_PROCFD, procfd) with the descriptor of
 * a procfs root passed by value. Returns a new close-on-exec directory fd
 * for /proc/<pid> in that procfs instance.
 *
 * Its encoding is wrong, and stays: _IOR says the kernel writes an int to
 * the address in the argument, which is the descriptor itself, by value.
 * It is the 2019 patch set's number, which programs written for that
 * series send, so it is kept as it was; no ioctl of the kernel has that
 * number ('p' 1 is RTC_AIE_ON, an _IO, and phantom's PHN_SET_REG, an _IOW
 * of a pointer). Do not copy it: a command that takes a value is
 * _IO(type, nr), as PIDFD_DEV_IS_PIDFD is.
 */
#define PIDFD_GET_PROCFD	_IOR('p', 1, int)

/*
 * On a pidfd: upstream's PIDFD_GET_INFO (6.13, with 6.15's exit status,
 * 6.16's core dump and 7.2's supported mask and core dump code), in the
 * layout of 7.2's struct pidfd_info (PIDFD_INFO_SIZE_VER3). Any size of at
 * least PIDFD_INFO_SIZE_VER0 is accepted, so upstream's PIDFD_GET_INFO and
 * struct pidfd_info of any release work as well.
 */
#define PIDFD_INFO_PID			(1UL << 0)
#define PIDFD_INFO_CREDS		(1UL << 1)
#define PIDFD_INFO_CGROUPID		(1UL << 2)
#define PIDFD_INFO_EXIT			(1UL << 3)
#define PIDFD_INFO_COREDUMP		(1UL << 4)
#define PIDFD_INFO_SUPPORTED_MASK	(1UL << 5)
#define PIDFD_INFO_COREDUMP_SIGNAL	(1UL << 6)
#define PIDFD_INFO_COREDUMP_CODE	(1UL << 7)

#define PIDFD_INFO_SIZE_VER0		64
#define PIDFD_INFO_SIZE_VER1		72
#define PIDFD_INFO_SIZE_VER2		80
#define PIDFD_INFO_SIZE_VER3		88

/* Values of coredump_mask, as upstream (6.16) has them. */
#define PIDFD_COREDUMPED	(1U << 0)	/* a core dump was made... */
#define PIDFD_COREDUMP_SKIP	(1U << 1)	/* dumps are disabled */
#define PIDFD_COREDUMP_USER	(1U << 2)	/* ...as the user */
#define PIDFD_COREDUMP_ROOT	(1U << 3)	/* ...as root */

/**
 * struct pidfd_dev_info - argument of PIDFD_DEV_GET_INFO
 *
 * Upstream's struct pidfd_info of 7.2, field for field. @mask on input:
 * the PIDFD_INFO_* asked for; on output, those filled in. docs/abi.md says
 * which field comes when.
 */
struct pidfd_dev_info {
	__u64 mask;
	__u64 cgroupid;
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 ruid;
	__u32 rgid;
	__u32 euid;
	__u32 egid;
	__u32 suid;
	__u32 sgid;
	__u32 fsuid;
	__u32 fsgid;
	__s32 exit_code;
	__u32 coredump_mask;
	__u32 coredump_signal;
	__u32 coredump_code;
	__u32 coredump_pad;
	__u64 supported_mask;
};

#define PIDFS_IOCTL_MAGIC 0xFF

#define PIDFD_DEV_GET_INFO \
	_IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_dev_info)

/*
 * On a pidfd: the namespace ioctls of upstream 6.11, with its numbers. The
 * argument must be 0; each returns a new close-on-exec nsfs fd, as
 * open("/proc/<pid>/ns/<type>") would, for setns(2) and the NS_GET_*
 * ioctls.
 */
#define PIDFD_GET_CGROUP_NAMESPACE            _IO(PIDFS_IOCTL_MAGIC, 1)
#define PIDFD_GET_IPC_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 2)
#define PIDFD_GET_MNT_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 3)
#define PIDFD_GET_NET_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 4)
#define PIDFD_GET_PID_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 5)
#define PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE  _IO(PIDFS_IOCTL_MAGIC, 6)
#define PIDFD_GET_TIME_NAMESPACE              _IO(PIDFS_IOCTL_MAGIC, 7)
#define PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE _IO(PIDFS_IOCTL_MAGIC, 8)
#define PIDFD_GET_USER_NAMESPACE              _IO(PIDFS_IOCTL_MAGIC, 9)
#define PIDFD_GET_UTS_NAMESPACE               _IO(PIDFS_IOCTL_MAGIC, 10)

#endif /* _UAPI_LINUX_PIDFD_DEV_H */
