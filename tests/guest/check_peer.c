// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PIDFD_DEV_OPEN_PEER and libpidfd_peer_open() (docs/abi.md): the pidfd
 * of a connected socket's peer, from the socket's own reference, as
 * getsockopt(SO_PEERPIDFD) (6.5) gives it; compared with the kernel's
 * where it has it.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <libpidfd.h>

#include "lsm_test.h"
#include "pidfd_test.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

#define PEER_CMD(size) _IOC(_IOC_WRITE, PIDFD_DEV_IOC_MAGIC, 5, (size))

/* A listening AF_UNIX socket of @type at an abstract address of our own. */
static int listen_on(struct sockaddr_un *addr, int type)
{
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1,
		 "pidfd-peer-%d-%d", getpid(), type);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)addr, sizeof(*addr)), 0);
	ck_assert_int_eq(listen(fd, 4), 0);
	return fd;
}

/*
 * A child that connects to @addr and then waits to be killed (or exits
 * with @code at once if @code >= 0); the accepted socket in *@conn.
 */
static pid_t connect_child(const struct sockaddr_un *addr, int type,
			   int listener, int code, int *conn)
{
	pid_t pid = pt_fork();

	if (pid == 0) {
		int fd = socket(AF_UNIX, type, 0);

		if (fd < 0 || connect(fd, (const struct sockaddr *)addr,
				      sizeof(*addr)) < 0)
			_exit(100);
		if (code >= 0)
			_exit(code);
		for (;;)
			pause();
	}
	ck_assert_int_gt(pid, 0);
	*conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	ck_assert_int_ge(*conn, 0);
	return pid;
}

/* The number the kernel's SO_PEERPIDFD pidfd names, or 0 before 6.5. */
static pid_t kernel_peer_pid(int sockfd)
{
	socklen_t len = sizeof(int);
	pid_t pid;
	int fd;

	if (getsockopt(sockfd, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) < 0) {
		ck_assert_int_eq(errno, ENOPROTOOPT);
		return 0;
	}
	pid = pt_pidfd_pid(fd);
	close(fd);
	return pid;
}

/* Does the kernel have getsockopt(SO_PEERPIDFD) (6.5)? */
static bool kernel_has_peerpidfd(void)
{
	socklen_t len = sizeof(int);
	int sv[2], fd = -1;
	bool has;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	has = getsockopt(sv[0], SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0;
	if (has)
		close(fd);
	close(sv[0]);
	close(sv[1]);
	return has;
}

/*
 * A module pidfd for @sock's peer: the module's ioctl where the kernel
 * has no SO_PEERPIDFD; where it has, the module refuses (EOPNOTSUPP) and
 * libpidfd takes the kernel's and converts it.
 */
static int open_peer(int sock, unsigned int flags)
{
	if (!kernel_has_peerpidfd())
		return pt_open_peer(sock, flags);
	ck_assert_errno(pt_open_peer(sock, flags), EOPNOTSUPP);
	ck_assert_int_eq(libpidfd_set_backend(LIBPIDFD_BACKEND_MODULE), 0);
	return libpidfd_peer_open(sock, flags);
}

/*
 * What opening the peer of @sock gives once the peer is reaped: ESRCH
 * from the module (and from a conversion of 7.x's stale pidfd), else the
 * kernel's own errno (EINVAL on 6.5-6.14).
 */
static int reaped_peer_errno(int sock)
{
	socklen_t len = sizeof(int);
	int fd;

	if (!kernel_has_peerpidfd())
		return ESRCH;
	if (getsockopt(sock, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0) {
		close(fd);
		return ESRCH;
	}
	return errno;
}

START_TEST(socketpair_peer_is_self)
{
	static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int sv[2], fd;
		pid_t kernel;

		ck_assert_int_eq(socketpair(AF_UNIX, types[i] | SOCK_CLOEXEC, 0,
					    sv), 0);
		fd = ck_assert_ok(open_peer(sv[0], 0));
		ck_assert_int_eq(pt_pidfd_pid(fd), getpid());
		ck_assert_int_eq(fcntl(fd, F_GETFD), FD_CLOEXEC);
		ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
		ck_assert_int_eq(libpidfd_pidfd_backend(fd),
				 LIBPIDFD_BACKEND_MODULE);
		kernel = kernel_peer_pid(sv[0]);
		ck_assert(kernel == 0 || kernel == getpid());
		close(fd);
		fd = ck_assert_ok(open_peer(sv[1], PIDFD_NONBLOCK));
		ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, O_NONBLOCK);
		close(fd);
		close(sv[0]);
		close(sv[1]);
	}
}
END_TEST

/* connect()/accept(): the child, signalled through its pidfd. */
START_TEST(accepted_peer_is_the_child)
{
	static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct sockaddr_un addr;
		int listener = listen_on(&addr, types[i]);
		int conn, fd;
		pid_t child, kernel;

		child = connect_child(&addr, types[i], listener, -1, &conn);
		fd = ck_assert_ok(open_peer(conn, 0));
		ck_assert_int_eq(pt_pidfd_pid(fd), child);
		kernel = kernel_peer_pid(conn);
		ck_assert(kernel == 0 || kernel == child);
		ck_assert_ok(pt_send_signal(fd, SIGUSR1, NULL, 0));
		ck_assert_int_eq(pt_reap(child), 128 + SIGUSR1);
		close(fd);
		close(conn);
		close(listener);
	}
}
END_TEST

/* A peer that exits: its pidfd while a zombie, ESRCH once reaped. */
START_TEST(peer_exits)
{
	struct sockaddr_un addr;
	int listener = listen_on(&addr, SOCK_STREAM);
	int conn, fd;
	pid_t child;

	child = connect_child(&addr, SOCK_STREAM, listener, 3, &conn);
	ck_assert_int_eq(pt_wait_zombie(child), 0);
	fd = ck_assert_ok(open_peer(conn, 0));
	ck_assert_int_eq(pt_pidfd_pid(fd), child);
	ck_assert_int_eq(pt_poll1(fd, POLLIN, 0) & POLLIN, POLLIN);
	ck_assert_int_eq(pt_reap(child), 3);
	ck_assert_errno(open_peer(conn, 0), reaped_peer_errno(conn));
	close(fd);
	close(conn);
	close(listener);
}
END_TEST

/*
 * The connecting process hands the socket on (a child of its own
 * inherits it) and goes: the peer stays the one that connected.
 */
START_TEST(peer_passes_the_socket_on)
{
	struct sockaddr_un addr;
	int listener = listen_on(&addr, SOCK_STREAM);
	int ready[2], conn, fd;
	pid_t child, heir = 0;

	ck_assert_int_eq(pipe(ready), 0);
	child = pt_fork();
	if (child == 0) {
		int sock = socket(AF_UNIX, SOCK_STREAM, 0);
		pid_t h;

		if (sock < 0 || connect(sock, (struct sockaddr *)&addr,
					sizeof(addr)) < 0)
			_exit(100);
		h = pt_fork_lasting_sleeper();
		if (write(ready[1], &h, sizeof(h)) != sizeof(h))
			_exit(101);
		for (;;)
			pause();
	}
	ck_assert_int_gt(child, 0);
	conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	ck_assert_int_ge(conn, 0);
	ck_assert_int_eq(read(ready[0], &heir, sizeof(heir)), sizeof(heir));
	fd = ck_assert_ok(open_peer(conn, 0));
	ck_assert_int_eq(pt_pidfd_pid(fd), child);
	pt_kill_reap(child);
	/* The heir holds the socket; the peer is gone, never the heir. */
	ck_assert(pt_alive(heir));
	ck_assert_errno(open_peer(conn, 0), reaped_peer_errno(conn));
	ck_assert_errno(pt_send_signal(fd, 0, NULL, 0), ESRCH);
	ck_assert(pt_alive(heir));
	ck_assert_int_eq(kill(heir, SIGKILL), 0);
	pt_close_all(fd, conn, listener, ready[0], ready[1]);
}
END_TEST

/* The peer's number taken by a newcomer: never the newcomer. */
START_TEST(peer_number_recycled)
{
	struct sockaddr_un addr;
	int listener, conn, early;
	pid_t child, newcomer;

	ck_assert_int_eq(pt_set_ns_last_pid(PT_PID_RECYCLE - 1), 0);
	listener = listen_on(&addr, SOCK_STREAM);
	child = connect_child(&addr, SOCK_STREAM, listener, -1, &conn);
	ck_assert_int_eq(child, PT_PID_RECYCLE);
	early = ck_assert_ok(open_peer(conn, 0));
	pt_kill_reap(child);
	newcomer = pt_fork_sleeper_at(child);
	ck_assert_int_eq(newcomer, child);
	ck_assert_errno(open_peer(conn, 0), reaped_peer_errno(conn));
	ck_assert_errno(pt_send_signal(early, SIGKILL, NULL, 0), ESRCH);
	ck_assert(pt_alive(newcomer));
	pt_kill_reap(newcomer);
	close(early);
	close(conn);
	close(listener);
}
END_TEST

/* An unprivileged caller gets the pidfd of a root peer. */
static int unprivileged_child(void *arg)
{
	const struct sockaddr_un *addr = arg;
	struct pidfd_dev_info info = { 0 };
	int sock, fd;

	PT_REQUIRE(pt_drop_privs(PT_NOBODY, PT_NOBODY) == 0, "drop: %m");
	sock = socket(AF_UNIX, SOCK_STREAM, 0);
	PT_REQUIRE(sock >= 0 && connect(sock, (const struct sockaddr *)addr,
					sizeof(*addr)) == 0, "connect: %m");
	fd = open_peer(sock, 0);
	PT_CHECK(fd >= 0, "OPEN_PEER as nobody: %s", pt_errname(errno));
	/* GET_INFO: 5.10 keeps a non-dumpable process from its fdinfo. */
	PT_CHECK(pt_get_info(fd, &info, PIDFD_INFO_PID) == 0 &&
		 info.pid == (__u32)getppid(), "names %u, want %d", info.pid,
		 getppid());
	/* The pidfd gives no more rights than the uid has. */
	PT_CHECK(pt_send_signal(fd, SIGTERM, NULL, 0) < 0 && errno == EPERM,
		 "SIGTERM to root: %s", pt_errname(errno));
	return 0;
}

START_TEST(unprivileged_caller)
{
	struct sockaddr_un addr;
	int listener = listen_on(&addr, SOCK_STREAM);
	char msg[512] = "";

	ck_assert_ok(pt_dev());
	ck_assert_msg(pt_run(unprivileged_child, &addr, msg, sizeof(msg)) == 0,
		      "%s", msg);
	close(listener);
}
END_TEST

START_TEST(errors)
{
	struct pidfd_open_peer_args args = { .flags = 0 };
	unsigned char big[16] = { 0 };
	int sv[2], fds[2], lone, tcp;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(pipe(fds), 0);
	lone = socket(AF_UNIX, SOCK_STREAM, 0);
	tcp = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(lone, 0);
	ck_assert_int_ge(tcp, 0);

	if (kernel_has_peerpidfd()) {
		/* The kernel's own call runs every check: the module refuses. */
		ck_assert_errno(pt_open_peer(sv[0], 0), EOPNOTSUPP);
		ck_assert_errno(libpidfd_peer_open(lone, 0), ENODATA);
		ck_assert_errno(libpidfd_peer_open(fds[0], 0), ENOTSOCK);
		ck_assert_errno(libpidfd_peer_open(-1, 0), EBADF);
		ck_assert_errno(libpidfd_peer_open(sv[0], 1), EINVAL);
		goto out;
	}
	ck_assert_errno(pt_open_peer(lone, 0), ENODATA);
	ck_assert_errno(pt_open_peer(tcp, 0), ENODATA);
	ck_assert_errno(pt_open_peer(fds[0], 0), ENOTSOCK);
	ck_assert_errno(pt_open_peer(-1, 0), EBADF);
	ck_assert_errno(pt_open_peer(9999, 0), EBADF);
	ck_assert_errno(pt_open_peer(sv[0], 1), EINVAL);
	ck_assert_errno(pt_open_peer(sv[0], PIDFD_THREAD), EINVAL);
	ck_assert_errno(pt_open_peer(sv[0], 1U << 31), EINVAL);
	ck_assert_errno(ioctl(pt_dev(), PIDFD_DEV_OPEN_PEER, pt_bad_ptr()),
			EFAULT);
	ck_assert_errno(ioctl(pt_dev(), PEER_CMD(4), &args), EINVAL);
	/* A bigger struct: a zero tail is fine, anything else E2BIG. */
	args.sockfd = sv[0];
	memcpy(big, &args, sizeof(args));
	close(ck_assert_ok(ioctl(pt_dev(), PEER_CMD(sizeof(big)), big)));
	big[12] = 1;
	ck_assert_errno(ioctl(pt_dev(), PEER_CMD(sizeof(big)), big), E2BIG);
out:
	pt_close_all(tcp, lone, fds[0], fds[1], sv[0], sv[1]);
}
END_TEST

/*
 * An LSM that refuses the caller getsockopt() on its socket refuses the
 * peer too: the kernel's SO_PEERPIDFD asks it, the module (which cannot)
 * refuses for a confined caller.
 */
static int confined_child(void *arg)
{
	bool kernel_has = *(const bool *)arg;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int sv[2], refused, fd;

	PT_REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "%m");
	PT_REQUIRE(pt_dev() >= 0, "/dev/pidfd: %m");
	PT_REQUIRE(lt_apparmor_enter("pidfd_no_unix_net") == 0, "enter: %m");
	refused = getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ?
		  errno : 0;
	PT_CHECK(refused == EACCES, "SO_PEERCRED: %s, want EACCES",
		 pt_errname(refused));
	if (!kernel_has) {
		fd = pt_open_peer(sv[0], 0);
		PT_CHECK(fd < 0 && errno == EACCES, "OPEN_PEER: %d/%s", fd,
			 pt_errname(errno));
	}
	fd = libpidfd_peer_open(sv[0], 0);
	PT_CHECK(fd < 0 && errno == EACCES, "libpidfd_peer_open: %d/%s", fd,
		 pt_errname(errno));
	return 0;
}

START_TEST(confined_caller_refused)
{
	bool kernel_has = kernel_has_peerpidfd();
	char msg[512] = "", lsms[256], what[320];

	/*
	 * Debian's kernels all have AppArmor active: elsewhere the skip says
	 * why, from the kernel's own list of active LSMs.
	 */
	ck_assert_msg(lt_mount_securityfs() == 0, "securityfs: %m");
	ck_assert_msg(pt_read_text(LT_LSM_LIST, lsms, sizeof(lsms)) == 0,
		      "%s: %m", LT_LSM_LIST);
	snprintf(what, sizeof(what), "AppArmor among its active LSMs (%s)",
		 lsms);
	PT_SKIP_UNLESS(lt_lsm_active("apparmor"), lt_apparmor_enabled(), what);
	ck_assert_msg(lt_apparmor_load(LT_PROFILES) == 0, "load: %m");
	ck_assert_msg(pt_run(confined_child, &kernel_has, msg, sizeof(msg)) == 0,
		      "%s", msg);
}
END_TEST

/* The library: the module's pidfd, or the kernel's where auto takes it. */
START_TEST(library_peer_open)
{
	struct sockaddr_un addr;
	int listener = listen_on(&addr, SOCK_STREAM);
	int conn, fd, kind;
	pid_t child;

	child = connect_child(&addr, SOCK_STREAM, listener, -1, &conn);
	for (kind = LIBPIDFD_BACKEND_AUTO; kind <= LIBPIDFD_BACKEND_MODULE;
	     kind++) {
		ck_assert_int_eq(libpidfd_set_backend(kind), 0);
		fd = libpidfd_peer_open(conn, PIDFD_NONBLOCK);
		if (fd < 0 && kind == LIBPIDFD_BACKEND_NATIVE &&
		    !kernel_peer_pid(conn)) {
			ck_assert_int_eq(errno, ENOPROTOOPT);
			continue;
		}
		ck_assert_msg(fd >= 0, "backend %d: %s", kind,
			      pt_errname(errno));
		ck_assert_int_eq(libpidfd_getpid(fd), child);
		ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, O_NONBLOCK);
		if (kind == LIBPIDFD_BACKEND_MODULE)
			ck_assert_int_eq(libpidfd_pidfd_backend(fd),
					 LIBPIDFD_BACKEND_MODULE);
		close(fd);
	}
	ck_assert_errno(libpidfd_peer_open(conn, 1), EINVAL);
	pt_kill_reap(child);
	close(conn);
	close(listener);
}
END_TEST

PT_SUITE_MAIN("peer", socketpair_peer_is_self, accepted_peer_is_the_child,
	      peer_exits, peer_passes_the_socket_on, peer_number_recycled,
	      unprivileged_caller, confined_caller_refused, errors,
	      library_peer_open)
