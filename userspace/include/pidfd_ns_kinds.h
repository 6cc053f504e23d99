/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The namespaces of a process as /proc/<pid>/ns names them, each with the
 * pidfd ioctl that gives it: one table for pidfdctl and the tests (the
 * module has its own, of kernel paths). Not installed.
 */
#ifndef PIDFD_NS_KINDS_H
#define PIDFD_NS_KINDS_H

#include <linux/pidfd_dev.h>

struct pidfd_ns_kind {
	const char *name;
	unsigned int cmd;
};

static const struct pidfd_ns_kind pidfd_ns_kinds[] = {
	{ "cgroup", PIDFD_GET_CGROUP_NAMESPACE },
	{ "ipc", PIDFD_GET_IPC_NAMESPACE },
	{ "mnt", PIDFD_GET_MNT_NAMESPACE },
	{ "net", PIDFD_GET_NET_NAMESPACE },
	{ "pid", PIDFD_GET_PID_NAMESPACE },
	{ "pid_for_children", PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE },
	{ "time", PIDFD_GET_TIME_NAMESPACE },
	{ "time_for_children", PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE },
	{ "user", PIDFD_GET_USER_NAMESPACE },
	{ "uts", PIDFD_GET_UTS_NAMESPACE },
};

#define PIDFD_NS_KINDS (sizeof(pidfd_ns_kinds) / sizeof(pidfd_ns_kinds[0]))

#endif /* PIDFD_NS_KINDS_H */
