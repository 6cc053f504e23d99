/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF-LSM programs attached right now, found as bpftool finds them
 * (bpf(2): every link, its program, the hook its BTF id names), for
 * pidfdctl doctor: trusting "bpf" in the module's signal_lsm_trust skips
 * exactly these.
 */
#ifndef PIDFDCTL_BPF_LSM_H
#define PIDFDCTL_BPF_LSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pidfdctl_bpf_lsm {
	uint32_t prog_id;
	char prog_name[16];	/* BPF_OBJ_NAME_LEN, NUL-terminated */
	char hook[64];		/* "task_kill"; "" where the kernel does not say */
	bool cgroup;		/* a per-cgroup LSM program (BPF_LSM_CGROUP) */
};

/*
 * Fills @out with up to @max programs; returns how many there are (more
 * than @max possible), or -errno (EPERM: listing needs CAP_SYS_ADMIN).
 */
int pidfdctl_bpf_lsm_list(struct pidfdctl_bpf_lsm *out, int max);

/*
 * The name of type @id in the BTF file @path (/sys/kernel/btf/vmlinux):
 * 0 and @name filled, or -1. Exposed for the host test.
 */
int pidfdctl_btf_name(const char *path, uint32_t id, char *name, size_t size);
/* The id of the type named @name in @path, or 0. For the tests. */
uint32_t pidfdctl_btf_id(const char *path, const char *name);

#endif
