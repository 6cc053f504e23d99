// SPDX-License-Identifier: GPL-2.0
/*
 * pidfd-dkms: race-free process handles through /dev/pidfd.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>

static long pidfd_dev_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	return -ENOTTY;
}

static const struct file_operations pidfd_dev_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= pidfd_dev_ioctl,
	.compat_ioctl	= pidfd_dev_ioctl,
};

static struct miscdevice pidfd_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "pidfd",
	.fops	= &pidfd_dev_fops,
	.mode	= 0666,
};

static int __init pidfd_init(void)
{
	return misc_register(&pidfd_miscdev);
}

static void __exit pidfd_exit(void)
{
	misc_deregister(&pidfd_miscdev);
}

module_init(pidfd_init);
module_exit(pidfd_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Race-free process handles (pidfds) through /dev/pidfd");
MODULE_VERSION(PIDFD_DKMS_VERSION);
