// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a small procfs or securityfs file from the module.
 *
 * kernel_read() needs ->read_iter. The files the module reads (securityfs's
 * lsm list; a procfs process directory's stat) have only a ->read into
 * user memory (procfs's stat up to 7.2 at least), so those are read through
 * an anonymous page mapped for the moment into the calling process: the
 * loader of the module, or the caller of an ioctl. That process's other
 * threads could change the page before it is copied back; what the module
 * reads this way may only ever protect the caller from others, never
 * others from the caller.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "pidfd_internal.h"

static ssize_t read_via_user_page(struct file *file, char *buf, size_t size)
{
	unsigned long ubuf;
	ssize_t len = 0, n;
	loff_t pos = 0;

	if (!current->mm)
		return -EOPNOTSUPP;
	ubuf = vm_mmap(NULL, 0, size, PROT_READ | PROT_WRITE,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(ubuf))
		return (ssize_t)ubuf;
	do {
		n = file->f_op->read(file, (char __user *)ubuf + len,
				     size - len, &pos);
		if (n > 0)
			len += n;
	} while (n > 0 && len < size);
	if (n < 0)
		len = n;
	else if (copy_from_user(buf, (char __user *)ubuf, len))
		len = -EFAULT;
	vm_munmap(ubuf, size);
	return len;
}

/**
 * pidfd_read_file - read the start of a file
 * @file: the file, opened for reading
 * @buf: where to put it
 * @size: at most this many bytes (at most a page)
 *
 * Return: the number of bytes read, or a negative errno.
 */
ssize_t pidfd_read_file(struct file *file, char *buf, size_t size)
{
	loff_t pos = 0;

	if (size > PAGE_SIZE)
		return -EINVAL;
	if (file->f_op->read_iter && !file->f_op->read)
		return kernel_read(file, buf, size, &pos);
	if (file->f_op->read)
		return read_via_user_page(file, buf, size);
	return -EOPNOTSUPP;
}
