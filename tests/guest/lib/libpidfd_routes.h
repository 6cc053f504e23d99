/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which libpidfd call works without the module on which kernel, and by
 * which route: the one table of docs/libpidfd.md. check_native_libpidfd
 * runs every row on every kernel of the matrix without the module (it
 * must work from the version given on, and fail with ENOPKG before it),
 * and check_libpidfd_routes (a host unit test) checks that the table in
 * docs/libpidfd.md is this one.
 *
 * ROUTE(id, call, since_major, since_minor, before, route): since 0.0
 * means any kernel this project supports (5.10 and later); 99.0 means
 * never (only the module can). before is the errno without the module on
 * older kernels: ENOPKG, or ESRCH where not even the module could answer
 * (no record of the exit of a process it never had a pidfd for). route is
 * how libpidfd does it from then on.
 */
#ifndef LIBPIDFD_ROUTES_H
#define LIBPIDFD_ROUTES_H

#define LIBPIDFD_ROUTES(ROUTE) \
	ROUTE(OPEN, "libpidfd_open(pid, 0 or PIDFD_NONBLOCK)", 0, 0, ENOPKG, \
	      "kernel: pidfd_open(2)") \
	ROUTE(OPEN_THREAD, "libpidfd_open(tid, PIDFD_THREAD)", 6, 9, ENOPKG, \
	      "kernel: pidfd_open(2)") \
	ROUTE(OPEN_AUTOKILL, "libpidfd_open(child, PIDFD_AUTOKILL)", 99, 0, ENOPKG, \
	      "module only") \
	ROUTE(SIGNAL, "libpidfd_send_signal(pidfd, sig, info, 0)", 0, 0, ENOPKG, \
	      "kernel: pidfd_send_signal(2)") \
	ROUTE(SIGNAL_PROCDIR, "libpidfd_send_signal(/proc/<pid> fd, ...)", \
	      0, 0, ENOPKG, "kernel: pidfd_send_signal(2)") \
	ROUTE(SIGNAL_SCOPE, "libpidfd_send_signal(..., PIDFD_SIGNAL_*)", \
	      6, 9, ENOPKG, "kernel: pidfd_send_signal(2)") \
	ROUTE(WAITID, "libpidfd_waitid(pidfd of a child)", 0, 0, ENOPKG, \
	      "kernel: waitid(P_PIDFD)") \
	ROUTE(WAIT_EXIT, "libpidfd_wait_exit()", 0, 0, ENOPKG, "kernel: poll(2)") \
	ROUTE(GETPID, "libpidfd_getpid()", 0, 0, ENOPKG, \
	      "userspace: /proc/self/fdinfo (PIDFD_GET_INFO without /proc, 6.13)") \
	ROUTE(GET_PROCFD, "libpidfd_get_procfd(), libpidfd_open_procdir()", \
	      0, 0, ENOPKG, "userspace: proved by the number before and after") \
	ROUTE(FROM_PROCDIR, "libpidfd_from_procdir()", 0, 0, ENOPKG, \
	      "userspace: proved by the number before and after") \
	ROUTE(NAMESPACE, "libpidfd_get_namespace()", 6, 11, ENOPKG, \
	      "kernel: PIDFD_GET_*_NAMESPACE") \
	ROUTE(INFO, "libpidfd_get_info(PID, CREDS, CGROUPID)", 6, 13, ENOPKG, \
	      "kernel: PIDFD_GET_INFO") \
	ROUTE(INFO_EXIT, "libpidfd_get_info(EXIT), libpidfd_exit_status()", \
	      6, 15, ESRCH, "kernel: PIDFD_GET_INFO") \
	ROUTE(INFO_COREDUMP, "libpidfd_get_info(COREDUMP)", 6, 16, ENOPKG, \
	      "kernel: PIDFD_GET_INFO") \
	ROUTE(PEER, "libpidfd_peer_open()", 6, 5, ENOPKG, \
	      "kernel: getsockopt(SO_PEERPIDFD)") \
	ROUTE(TO_NATIVE, "libpidfd_to_native() of a kernel pidfd", 0, 0, ENOPKG, \
	      "kernel: a duplicate") \
	ROUTE(TO_MODULE, "libpidfd_to_module()", 99, 0, ENOPKG, "module only")

#endif
