// SPDX-License-Identifier: GPL-2.0-or-later
/* See bpf_lsm.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "bpf_lsm.h"

/* The uapi's numbers, for headers older than the kernel (5.10's). */
#define LINK_TYPE_TRACING	2
#define LINK_TYPE_CGROUP	3
#define ATTACH_LSM_MAC		27
#define ATTACH_LSM_CGROUP	43

/*
 * struct bpf_link_info as 5.13+ has it: 5.10's headers lack the tracing
 * target. The kernel fills what it knows and zeroes the rest.
 */
struct link_info {
	uint32_t type;
	uint32_t id;
	uint32_t prog_id;
	uint32_t pad;
	union {
		struct {
			uint32_t attach_type;
			uint32_t target_obj_id;
			uint32_t target_btf_id;
		} tracing;
		struct {
			uint64_t cgroup_id;
			uint32_t attach_type;
		} cgroup;
		uint8_t rest[64];
	};
};

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int obj_info(int fd, void *info, uint32_t len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = len;
	attr.info.info = (uint64_t)(uintptr_t)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

static void prog_name(uint32_t id, char *name, size_t size)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	int fd;

	name[0] = '\0';
	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	if (obj_info(fd, &info, sizeof(info)) == 0)
		snprintf(name, size, "%.*s", (int)sizeof(info.name), info.name);
	close(fd);
}

/* Bytes that follow a struct btf_type of kind @kind with @vlen members. */
static long btf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return 12L * vlen;
	case BTF_KIND_ENUM:
		return 8L * vlen;
	case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	case BTF_KIND_VAR:
		return 4;
	case BTF_KIND_DATASEC:
		return 12L * vlen;
	case 17:	/* BTF_KIND_DECL_TAG (5.16) */
		return 4;
	case 19:	/* BTF_KIND_ENUM64 (6.0) */
		return 12L * vlen;
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC: case 16 /* FLOAT */: case 18 /* TYPE_TAG */:
		return 0;
	default:
		return -1;	/* a kind this file does not know */
	}
}

/* sysfs hands a large file out in pieces. */
static int read_all(int fd, char *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = read(fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/*
 * Walks the BTF file @path: the type numbered @id (its name into @name),
 * or, with @id 0, the first named @name (its number returned).
 */
static long btf_walk(const char *path, uint32_t id, char *name, size_t size)
{
	const struct btf_header *hdr;
	const char *types, *strs;
	struct stat st;
	char *buf = NULL;
	uint32_t cur = 1;
	long off = 0, ret = -1;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(*hdr) ||
	    !(buf = malloc((size_t)st.st_size)) ||
	    read_all(fd, buf, (size_t)st.st_size) < 0)
		goto out;
	hdr = (const struct btf_header *)buf;
	if (hdr->magic != BTF_MAGIC ||
	    (uint64_t)hdr->hdr_len + hdr->type_off + hdr->type_len > (uint64_t)st.st_size ||
	    (uint64_t)hdr->hdr_len + hdr->str_off + hdr->str_len > (uint64_t)st.st_size)
		goto out;
	types = buf + hdr->hdr_len + hdr->type_off;
	strs = buf + hdr->hdr_len + hdr->str_off;
	while (off + (long)sizeof(struct btf_type) <= (long)hdr->type_len) {
		const struct btf_type *t = (const void *)(types + off);
		long extra = btf_extra(BTF_INFO_KIND(t->info), BTF_INFO_VLEN(t->info));
		const char *tname = t->name_off < hdr->str_len ? strs + t->name_off : "";

		if (extra < 0)
			goto out;
		if (id && cur == id) {
			snprintf(name, size, "%.*s",
				 (int)(hdr->str_len - t->name_off), tname);
			ret = 0;
			goto out;
		}
		if (!id && !strncmp(tname, name, hdr->str_len - t->name_off) &&
		    strlen(name) < hdr->str_len - t->name_off) {
			ret = cur;
			goto out;
		}
		off += (long)sizeof(*t) + extra;
		cur++;
	}
out:
	free(buf);
	close(fd);
	return ret;
}

int pidfdctl_btf_name(const char *path, uint32_t id, char *name, size_t size)
{
	return id && btf_walk(path, id, name, size) == 0 ? 0 : -1;
}

uint32_t pidfdctl_btf_id(const char *path, const char *name)
{
	long id = btf_walk(path, 0, (char *)name, 0);

	return id > 0 ? (uint32_t)id : 0;
}

/* The hook a BPF-LSM program's BTF id names: bpf_lsm_task_kill -> task_kill. */
static void hook_name(const struct link_info *li, char *hook, size_t size)
{
	char func[96];

	hook[0] = '\0';
	/* 0: a kernel before 5.13, which does not say. */
	if (!li->tracing.target_btf_id ||
	    pidfdctl_btf_name("/sys/kernel/btf/vmlinux", li->tracing.target_btf_id,
			      func, sizeof(func)) < 0)
		return;
	snprintf(hook, size, "%.63s", strncmp(func, "bpf_lsm_", 8) ? func : func + 8);
}

int pidfdctl_bpf_lsm_list(struct pidfdctl_bpf_lsm *out, int max)
{
	union bpf_attr attr;
	uint32_t id = 0;
	int n = 0;

	for (;;) {
		struct link_info li;
		bool lsm, cgroup;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_LINK_GET_NEXT_ID, &attr) < 0)
			return errno == ENOENT ? n : -errno;
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.link_id = id;
		fd = sys_bpf(BPF_LINK_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue;	/* gone meanwhile */
		memset(&li, 0, sizeof(li));
		if (obj_info(fd, &li, sizeof(li)) < 0) {
			close(fd);
			continue;
		}
		close(fd);
		lsm = li.type == LINK_TYPE_TRACING &&
		      li.tracing.attach_type == ATTACH_LSM_MAC;
		cgroup = li.type == LINK_TYPE_CGROUP &&
			 li.cgroup.attach_type == ATTACH_LSM_CGROUP;
		if (!lsm && !cgroup)
			continue;
		if (n < max) {
			out[n].prog_id = li.prog_id;
			out[n].cgroup = cgroup;
			prog_name(li.prog_id, out[n].prog_name,
				  sizeof(out[n].prog_name));
			if (lsm)
				hook_name(&li, out[n].hook, sizeof(out[n].hook));
			else
				out[n].hook[0] = '\0';
		}
		n++;
	}
}
