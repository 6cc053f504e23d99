// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_DEV_OPEN_PEER: a pidfd for the process at the other end of a
 * connected socket, as SO_PEERPIDFD (6.5) gives one. The socket already
 * holds the peer's struct pid, taken at connect(), accept() or
 * socketpair() (the one SO_PEERCRED reports): the pidfd is made from that
 * reference, never from a number, so it names that process or none.
 */
#include <linux/errno.h>
#include <linux/net.h>
#include <linux/pid.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

long pfd_dev_open_peer(unsigned int cmd, void __user *uarg)
{
	struct pidfd_open_peer_args args;
	size_t usize = _IOC_SIZE(cmd);
	struct socket *sock;
	struct pid *pid;
	int err;

	if (usize < PIDFD_OPEN_PEER_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_struct_from_user(&args, sizeof(args), uarg, usize);
	if (err)
		return err;
	if (args.flags & ~PIDFD_NONBLOCK)
		return -EINVAL;
	/* The kernel's own call runs every check: use it. */
	if (PFD_KERNEL_HAS_PEERPIDFD)
		return -EOPNOTSUPP;

	/* EBADF for no such fd, ENOTSOCK for another kind of file. */
	sock = sockfd_lookup(args.sockfd, &err);
	if (!sock)
		return err;
	err = pfd_peer_policy_check();
	if (err) {
		sockfd_put(sock);
		return err;
	}
	/* Unconnected, or a family that records no peer process. */
	pid = pfd_sock_peer_pid(sock->sk);
	sockfd_put(sock);
	if (IS_ERR(pid))
		return PTR_ERR(pid);
	if (!pid)
		return -ENODATA;

	/* Reaped: no process to name any more (6.15's pidfd_open(2) errno). */
	err = pid_has_task(pid, PIDTYPE_TGID) ? pfd_install(pid, args.flags) :
						-ESRCH;
	put_pid(pid);
	return err;
}
