/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One translation unit of make check-headers (tests/headers/check-headers):
 * HDR_FIRST, then HDR_SECOND (each optional: -DHDR_FIRST='<linux/pidfd.h>'),
 * then what a program does with the names, at file scope, in C99 to C23
 * and C++11 to C++23. It must compile with -Wall -Wextra -pedantic -Werror.
 * It is never linked.
 *
 * -DHDR_OWN_OPEN: the program has its own "open" (a variable, a struct
 * member), which <libpidfd.h> and <linux/pidfd_dev.h> must not meet.
 */
#ifdef HDR_FIRST
#include HDR_FIRST
#endif
#ifdef HDR_SECOND
#include HDR_SECOND
#endif

#ifndef _UAPI_LINUX_PIDFD_DEV_H
#error "<linux/pidfd_dev.h> is not in this unit"
#endif

#define HDR_CHECK(name, cond) typedef char hdr_check_##name[(cond) ? 1 : -1]

/* The ABI, as docs/abi.md lists it: frozen from 1.0 on. */
HDR_CHECK(open_args, sizeof(struct pidfd_open_args) == 8);
HDR_CHECK(signal_args, sizeof(struct pidfd_signal_args) == 16);
HDR_CHECK(procdir_args, sizeof(struct pidfd_open_procdir_args) == 8);
HDR_CHECK(peer_args, sizeof(struct pidfd_open_peer_args) == 8);
HDR_CHECK(info, sizeof(struct pidfd_dev_info) == PIDFD_INFO_SIZE_VER3 &&
	  PIDFD_INFO_SIZE_VER3 == 88 && PIDFD_INFO_SIZE_VER0 == 64);
HDR_CHECK(magic, PIDFD_DEV_IOC_MAGIC == 0xBF && PIDFS_IOCTL_MAGIC == 0xFF);
HDR_CHECK(open, PIDFD_DEV_OPEN == _IOC(_IOC_WRITE, 0xBF, 1, 8));
HDR_CHECK(signal, PIDFD_DEV_SEND_SIGNAL == _IOC(_IOC_WRITE, 0xBF, 2, 16));
HDR_CHECK(procdir, PIDFD_DEV_OPEN_PROCDIR == _IOC(_IOC_WRITE, 0xBF, 3, 8));
HDR_CHECK(is_pidfd, PIDFD_DEV_IS_PIDFD == _IOC(_IOC_NONE, 0xBF, 4, 0));
HDR_CHECK(peer, PIDFD_DEV_OPEN_PEER == _IOC(_IOC_WRITE, 0xBF, 5, 8));
HDR_CHECK(procfd, PIDFD_GET_PROCFD == _IOC(_IOC_READ, 'p', 1, 4));
HDR_CHECK(get_info, PIDFD_DEV_GET_INFO ==
	  _IOC(_IOC_READ | _IOC_WRITE, 0xFF, 11, 88));
HDR_CHECK(ns_first, PIDFD_GET_CGROUP_NAMESPACE == _IOC(_IOC_NONE, 0xFF, 1, 0));
HDR_CHECK(ns_last, PIDFD_GET_UTS_NAMESPACE == _IOC(_IOC_NONE, 0xFF, 10, 0));
HDR_CHECK(scopes, PIDFD_SIGNAL_THREAD == 1 && PIDFD_SIGNAL_TID == 1 &&
	  PIDFD_SIGNAL_THREAD_GROUP == 2 && PIDFD_SIGNAL_PROCESS_GROUP == 4);
HDR_CHECK(info_bits, PIDFD_INFO_PID == 1 && PIDFD_INFO_EXIT == 8 &&
	  PIDFD_INFO_SUPPORTED_MASK == 32 && PIDFD_INFO_COREDUMP_CODE == 128);
HDR_CHECK(coredump_bits, PIDFD_COREDUMPED == 1 && PIDFD_COREDUMP_ROOT == 8);

/* Every command and flag expands to a constant. */
unsigned long hdr_cmds[] = {
	PIDFD_DEV_OPEN, PIDFD_DEV_SEND_SIGNAL, PIDFD_DEV_OPEN_PROCDIR,
	PIDFD_DEV_IS_PIDFD, PIDFD_DEV_OPEN_PEER, PIDFD_GET_PROCFD,
	PIDFD_DEV_GET_INFO, PIDFD_GET_CGROUP_NAMESPACE,
	PIDFD_GET_IPC_NAMESPACE, PIDFD_GET_MNT_NAMESPACE,
	PIDFD_GET_NET_NAMESPACE, PIDFD_GET_PID_NAMESPACE,
	PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE, PIDFD_GET_TIME_NAMESPACE,
	PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE, PIDFD_GET_USER_NAMESPACE,
	PIDFD_GET_UTS_NAMESPACE,
};
unsigned long long hdr_bits[] = {
	PIDFD_SIGNAL_THREAD, PIDFD_SIGNAL_THREAD_GROUP,
	PIDFD_SIGNAL_PROCESS_GROUP, PIDFD_SIGNAL_TID, PIDFD_INFO_PID,
	PIDFD_INFO_CREDS, PIDFD_INFO_CGROUPID, PIDFD_INFO_EXIT,
	PIDFD_INFO_COREDUMP, PIDFD_INFO_SUPPORTED_MASK,
	PIDFD_INFO_COREDUMP_SIGNAL, PIDFD_INFO_COREDUMP_CODE,
	PIDFD_COREDUMPED, PIDFD_COREDUMP_SKIP, PIDFD_COREDUMP_USER,
	PIDFD_COREDUMP_ROOT,
};
/* The open flags are O_*: where <fcntl.h> or <linux/fcntl.h> is in. */
#ifdef O_NONBLOCK
unsigned int hdr_open_flags[] = {
	PIDFD_NONBLOCK, PIDFD_THREAD, PIDFD_AUTOKILL,
};
#endif
struct pidfd_dev_info hdr_info;
struct pidfd_signal_args hdr_signal_args;

/*
 * Upstream's struct pidfd_info, of whatever size this <linux/pidfd.h> or
 * <sys/pidfd.h> has, is another type, with the same command number but
 * for the size, and a prefix of ours.
 */
#ifdef PIDFD_GET_INFO
struct pidfd_info hdr_upstream_info;
HDR_CHECK(upstream_cmd, _IOC_TYPE(PIDFD_GET_INFO) ==
	  _IOC_TYPE(PIDFD_DEV_GET_INFO) &&
	  _IOC_NR(PIDFD_GET_INFO) == _IOC_NR(PIDFD_DEV_GET_INFO) &&
	  _IOC_DIR(PIDFD_GET_INFO) == _IOC_DIR(PIDFD_DEV_GET_INFO));
HDR_CHECK(upstream_size, sizeof(struct pidfd_info) >= PIDFD_INFO_SIZE_VER0 &&
	  sizeof(struct pidfd_info) <= sizeof(struct pidfd_dev_info));
#endif

#ifdef HDR_OWN_OPEN
int open;
struct hdr_user {
	int open;
	int fcntl;
	int pidfd_open;
};
#endif

#ifdef LIBPIDFD_H
int hdr_self[] = { PIDFD_SELF_THREAD, PIDFD_SELF_THREAD_GROUP };

int hdr_use(int pidfd);
int hdr_use(int pidfd)
{
	siginfo_t si;
	int n = libpidfd_get_info(pidfd, &hdr_info, sizeof(hdr_info));

	n += libpidfd_send_signal(pidfd, 0, &si, (unsigned int)hdr_bits[0]);
	n += libpidfd_spawn(&n, "/bin/true", NULL, NULL, NULL, NULL);
#ifdef PIDFD_GET_INFO
	n += libpidfd_get_info(pidfd,
			       (struct pidfd_dev_info *)&hdr_upstream_info,
			       sizeof(hdr_upstream_info));
#endif
	return n + (int)libpidfd_getpid(pidfd);
}
#endif
