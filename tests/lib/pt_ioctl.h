/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's ioctls of <linux/pidfd_dev.h>, raw, never through libpidfd
 * (the library is tested on its own). They follow the system call
 * convention, -1 and errno, so that tests can assert errno values
 * exactly. No Check: the fuzzer and the 32-bit programs link this too.
 */
#ifndef PT_IOCTL_H
#define PT_IOCTL_H

#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include <linux/pidfd_dev.h>

#define PT_DEV_PATH		"/dev/pidfd"

/* PIDFD_GET_INFO and PIDFD_DEV_OPEN/SEND_SIGNAL with another struct size. */
#define PT_GET_INFO_CMD(size) \
	_IOC(_IOC_READ | _IOC_WRITE, PIDFS_IOCTL_MAGIC, 11, (size))
#define PT_OPEN_CMD(size) \
	_IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 1, (size))
#define PT_SIGNAL_CMD(size) \
	_IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 2, (size))

/* The control fd (opened once per process, O_CLOEXEC); -1 on failure. */
int pt_dev(void);
/* Forget (and close) the cached control fd. */
void pt_dev_close(void);
/* PIDFD_DEV_OPEN: a new pidfd or -1/errno. */
int pt_open(pid_t pid, unsigned int flags);
/* PIDFD_DEV_SEND_SIGNAL: 0 or -1/errno. */
int pt_send_signal(int pidfd, int sig, const siginfo_t *info,
		   unsigned int flags);
/* PIDFD_DEV_GET_INFO: upstream's PIDFD_GET_INFO at our struct's size. */
int pt_get_info(int pidfd, struct pidfd_dev_info *info, uint64_t mask);
/* PIDFD_GET_PROCFD: a new fd or -1/errno. */
int pt_get_procfd(int pidfd, int procfd);
/* PIDFD_DEV_OPEN_PROCDIR: a new pidfd from a /proc dir fd, or -1/errno. */
int pt_open_procdir(int dirfd, unsigned int flags);
/* PIDFD_DEV_OPEN_PEER. */
int pt_open_peer(int sockfd, unsigned int flags);

#endif /* PT_IOCTL_H */
