// SPDX-License-Identifier: GPL-2.0
/*
 * PIDFD_DEV_OPEN: the module's pidfd_open(2).
 */
#include <linux/pid.h>
#include <linux/uaccess.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"

long pidfd_dev_open(unsigned int cmd, void __user *uarg)
{
	struct pidfd_open_args args;
	size_t usize = _IOC_SIZE(cmd);
	struct pid *pid;
	int err;

	if (usize < PIDFD_OPEN_ARGS_SIZE_VER0)
		return -EINVAL;
	err = copy_struct_from_user(&args, sizeof(args), uarg, usize);
	if (err)
		return err;

	if (args.flags & ~(PIDFD_NONBLOCK | PIDFD_THREAD))
		return -EINVAL;
	if (args.pid <= 0)
		return -EINVAL;

	pid = find_get_pid(args.pid);
	if (!pid)
		return -ESRCH;
	/*
	 * A number can stay allocated for a process group or session after
	 * its process is gone: only a number with a task is a process.
	 */
	if (!pid_has_task(pid, PIDTYPE_PID)) {
		put_pid(pid);
		return -ESRCH;
	}

	err = pidfd_install(pid, args.flags);
	put_pid(pid);
	return err;
}
