// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscall(3) for the pidfd system calls, as Python's os.pidfd_open() and
 * signal.pidfd_send_signal() make them (and process_madvise,
 * process_mrelease), and for waitid, setns, ioctl and clone3 (the child's
 * pidfd):
 * the call made as the program made it, then what pidfd.c and ioctl.c do
 * after it. Any other number is passed on at once.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ioctl.h>
#include <sys/syscall.h>

#include "libpidfd.h"
#include "preload.h"

typedef long syscall_fn(long, ...);
/* The next syscall() is variadic; ours and syscall_rest() take seven. */
typedef long syscall_entry(long, long, long, long, long, long, long);

static long after(long ret, long nr, const long a[6])
{
	switch (nr) {
	case PRELOAD_SYS_pidfd_open:
		return preload_after_open((int)ret, (pid_t)a[0],
					  (unsigned int)a[1]);
	case PRELOAD_SYS_pidfd_send_signal:
		return preload_after_send_signal((int)ret, (int)a[0],
						 (int)a[1],
						 (const siginfo_t *)a[2],
						 (unsigned int)a[3]);
	case PRELOAD_SYS_pidfd_getfd:
	case PRELOAD_SYS_process_madvise:
	case PRELOAD_SYS_process_mrelease:
		return preload_after_kernel_only(ret, nr, a, EBADF);
	case SYS_setns:
		return preload_after_kernel_only(ret, nr, a, EINVAL);
	case PRELOAD_SYS_clone3:
		return preload_after_clone3(ret, (const void *)a[0],
					    (unsigned long)a[1]);
	case SYS_waitid:
		return preload_after_waitid((int)ret, (idtype_t)a[0],
					    (id_t)a[1], (siginfo_t *)a[2],
					    (int)a[3], (struct rusage *)a[4]);
	case SYS_ioctl:
		return preload_after_pidfs_ioctl((int)ret, (int)a[0],
						 (unsigned long)a[1],
						 (void *)a[2]);
	}
	return ret;
}

/* The numbers after() looks at. */
static const unsigned short interposed[] = {
	SYS_ioctl, SYS_waitid, SYS_setns, PRELOAD_SYS_pidfd_send_signal,
	PRELOAD_SYS_pidfd_open, PRELOAD_SYS_clone3, PRELOAD_SYS_pidfd_getfd,
	PRELOAD_SYS_process_madvise, PRELOAD_SYS_process_mrelease,
};

static long __attribute__((noinline))
syscall_rest(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	syscall_fn *next = (syscall_fn *)preload_next(NEXT_SYSCALL);
	const long a[6] = { a0, a1, a2, a3, a4, a5 };
	/*
	 * The call a kernel that reads the low 32 bits only makes of it; one
	 * that reads all 64 (5.10) refuses it, ENOSYS, which after() leaves.
	 */
	const long call = (int)nr;
	long ret;

	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	ret = next(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if ((ret >= 0 && call != PRELOAD_SYS_pidfd_open &&
	     call != PRELOAD_SYS_clone3) ||
	    (call == SYS_ioctl &&
	     _IOC_TYPE((unsigned long)a[1]) != PIDFS_IOCTL_MAGIC))
		return ret;
	return after(ret, call, a);
}

/*
 * Where syscall() sends number nr: preload_syscall_to[nr & 0xff], the next
 * syscall() where no number after() looks at has that low byte, else
 * syscall_rest(), which passes the others on after one look. Before our
 * constructor (another object's), or where there is no next syscall(),
 * every entry is syscall_rest().
 */
PRELOAD_PRIVATE syscall_entry *preload_syscall_to[256] = {
	[0 ... 255] = syscall_rest
};

__attribute__((constructor)) static void resolve_syscall_to(void)
{
	syscall_entry *next = (syscall_entry *)preload_next(NEXT_SYSCALL);
	bool ours[256] = { false };

	if (!next)
		return;
	for (size_t i = 0; i < sizeof(interposed) / sizeof(interposed[0]); i++)
		ours[interposed[i] & 0xff] = true;
	for (int i = 0; i < 256; i++)
		if (!ours[i])
			__atomic_store_n(&preload_syscall_to[i], next,
					 __ATOMIC_RELAXED);
}

#if defined(__x86_64__) && !defined(__ILP32__)
/*
 * glibc declares syscall(long, ...), and its own reads six arguments
 * after the number, the last from the stack, whatever the call takes.
 * Here it is three instructions that leave every register (%al too) and
 * the stack as the caller set them and jump to preload_syscall_to's entry:
 * C could not jump on without copying the stack's argument.
 */
__asm__(".pushsection .text\n"
	".globl syscall\n"
	".type syscall, @function\n"
	".p2align 4\n"
	"syscall:\n"
	".cfi_startproc\n"
#if defined(__CET__) && (__CET__ & 1)
	"	endbr64\n"
#endif
	"	movzbl %dil, %r11d\n"
	"	leaq preload_syscall_to(%rip), %r10\n"
	"	jmpq *(%r10,%r11,8)\n"
	".cfi_endproc\n"
	".size syscall, .-syscall\n"
	".popsection\n");
#else
/*
 * Elsewhere the same table, from C: on arm64, where the seven arguments
 * all come in registers, a jump on that leaves them. The C name is
 * another, as <unistd.h> declares syscall() variadic; its symbol is
 * syscall.
 */
PRELOAD_EXPORT long preload_syscall(long nr, long a0, long a1, long a2,
				    long a3, long a4, long a5)
	__asm__("syscall");

PRELOAD_EXPORT long preload_syscall(long nr, long a0, long a1, long a2,
				    long a3, long a4, long a5)
{
	syscall_entry *to = __atomic_load_n(&preload_syscall_to[nr & 0xff],
					    __ATOMIC_RELAXED);

	/* As glibc's own is called (syscall_rest() does not mind). */
	return ((syscall_fn *)to)(nr, a0, a1, a2, a3, a4, a5);
}
#endif
