// SPDX-License-Identifier: GPL-2.0
/*
 * pidfd-dkms: race-free process handles through /dev/pidfd.
 *
 * /dev/pidfd is a control device: its ioctls, PIDFD_DEV_OPEN,
 * PIDFD_DEV_OPEN_PROCDIR and PIDFD_DEV_OPEN_PEER, make pidfds, and
 * PIDFD_DEV_IS_PIDFD recognises them. Everything else happens on the pidfds (pidfd_file.c).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pidfd_dev.h>

#include "pidfd_internal.h"
#include "probe_stats.h"

static long pfd_dev_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	if (pfd_ioctl_is(cmd, PIDFD_DEV_OPEN))
		return pfd_dev_open(cmd, (void __user *)arg);
	if (pfd_ioctl_is(cmd, PIDFD_DEV_OPEN_PROCDIR))
		return pfd_dev_open_procdir(cmd, (void __user *)arg);
	if (pfd_ioctl_is(cmd, PIDFD_DEV_OPEN_PEER))
		return pfd_dev_open_peer(cmd, (void __user *)arg);
	if (cmd == PIDFD_DEV_IS_PIDFD)
		return pfd_fd_is_ours((int)arg);
	return -ENOTTY;
}

/*
 * Every argument is a pointer but PIDFD_DEV_IS_PIDFD's fd number, which
 * compat_ptr() zero-extends just as the 64-bit call passes it.
 */
static const struct file_operations pfd_dev_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= pfd_dev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

/*
 * Mode 0666: opening a pidfd needs no privilege, as pidfd_open(2) needs
 * none; every operation on a pidfd does its own permission check.
 */
static struct miscdevice pfd_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "pidfd",
	.fops	= &pfd_dev_fops,
	.mode	= 0666,
};

/*
 * Counters that let tests and administrators prove nothing leaks. Root
 * only: they are system-wide, and other users could watch through them
 * how many pidfds other containers hold, and when (issue 39).
 */
static int get_atomic(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%d\n", atomic_read(kp->arg));
}

/*
 * A parameter without .set oopses the loader when given a value at load
 * time (parse_one() calls .set unchecked; only sysfs looks at the mode):
 * the read-only ones refuse it instead.
 */
int pfd_param_set_read_only(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static const struct kernel_param_ops counter_ops = {
	.set = pfd_param_set_read_only,
	.get = get_atomic,
};

module_param_cb(live_pidfds, &counter_ops, &pfd_live_files, 0400);
MODULE_PARM_DESC(live_pidfds, "Number of open pidfds");
module_param_cb(live_pids, &counter_ops, &pfd_live_targets, 0400);
MODULE_PARM_DESC(live_pids, "Number of struct pids the module keeps");

static int __init pfd_init(void)
{
	int err;

	err = pfd_signal_policy_init();
	if (err)
		return err;
	err = pfd_nsfd_init();
	if (err)
		return err;
	err = pfd_probe_stats_init();
	if (err)
		goto err_nsfd;
	err = pfd_fs_init();
	if (err)
		goto err_probe_stats;
	err = pfd_exit_track_init();
	if (err)
		goto err_fs;
	err = misc_register(&pfd_miscdev);
	if (err)
		goto err_exit_track;
	pr_info("version %s loaded: /dev/pidfd\n", PIDFD_DKMS_VERSION);
	return 0;

err_exit_track:
	pfd_exit_track_exit();
err_fs:
	pfd_fs_exit();
err_probe_stats:
	pfd_probe_stats_exit();
err_nsfd:
	pfd_nsfd_exit();
	return err;
}

static void __exit pfd_exit(void)
{
	misc_deregister(&pfd_miscdev);
	pfd_exit_track_exit();
	pfd_fs_exit();
	pfd_probe_stats_exit();
	pfd_nsfd_exit();
}

module_init(pfd_init);
module_exit(pfd_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Race-free process handles (pidfds) through /dev/pidfd");
MODULE_VERSION(PIDFD_DKMS_VERSION);
