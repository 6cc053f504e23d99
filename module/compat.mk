# SPDX-License-Identifier: GPL-2.0
# Build-time probes of the kernel we build against. Each one turns into a
# -DPFD_HAVE_* define that module/compat.h uses; nothing in module/*.c
# looks at version numbers.

pfd_hdr_has = $(shell grep -qsE '$(2)' $(srctree)/include/$(1) \
		$(objtree)/include/$(1) && echo y)

ccflags-$(call pfd_hdr_has,linux/fs.h,file_open_root.const struct path) += -DPFD_HAVE_FILE_OPEN_ROOT_PATH
ccflags-$(call pfd_hdr_has,linux/namei.h,int vfs_path_lookup) += -DPFD_HAVE_VFS_PATH_LOOKUP_DECL
ccflags-$(call pfd_hdr_has,linux/fs.h,typedef bool .\*filldir_t) += -DPFD_HAVE_FILLDIR_BOOL
ccflags-$(call pfd_hdr_has,uapi/linux/pidfd.h,define PIDFD_INFO_EXIT) += -DPFD_HAVE_OPEN_ENOENT
ccflags-$(call pfd_hdr_has,net/sock.h,spinlock_t[[:space:]]+sk_peer_lock) += -DPFD_HAVE_SK_PEER_LOCK
ccflags-$(call pfd_hdr_has,uapi/asm-generic/socket.h,define SO_PEERPIDFD) += -DPFD_HAVE_SO_PEERPIDFD
ccflags-$(call pfd_hdr_has,linux/bpf-cgroup.h,cgroup_bpf_enabled_key\[) += -DPFD_HAVE_CGROUP_BPF_KEYS
ccflags-$(call pfd_hdr_has,trace/events/sched.h,bool group_dead) += -DPFD_HAVE_SCHED_PROCESS_EXIT_GROUP_DEAD
# 6.9 gave every struct pid a number for the boot (pidfs's inode number).
ccflags-$(call pfd_hdr_has,linux/pid.h,u64[[:space:]]+ino;) += -DPFD_HAVE_PID_INO
# 6.7 put an inode's times behind accessors (6.6 its ctime; Debian's 5.10
# and 6.1 have the ctime ones backported).
ccflags-$(call pfd_hdr_has,linux/fs.h,inode_set_mtime_to_ts) += -DPFD_HAVE_INODE_MTIME_ACCESSORS
ccflags-$(call pfd_hdr_has,linux/fs.h,inode_set_ctime_to_ts) += -DPFD_HAVE_INODE_CTIME_ACCESSORS
# Where a task's dumpability lives: its exec state (7.x) or its mm.
ccflags-$(call pfd_hdr_has,linux/sched.h,struct task_exec_state __rcu) += -DPFD_HAVE_TASK_EXEC_STATE
# How a module reads a task's AppArmor label (signal_policy.c): lsm_prop
# (7.x), or secids (5.13+: subjective and objective getters; 5.10: one).
ccflags-$(call pfd_hdr_has,linux/security.h,^void security_task_getlsmprop_obj) += -DPFD_HAVE_TASK_GETLSMPROP_OBJ
ccflags-$(call pfd_hdr_has,linux/security.h,^void security_task_getsecid_obj) += -DPFD_HAVE_TASK_GETSECID_OBJ
ccflags-$(call pfd_hdr_has,linux/security.h,^void security_task_getsecid.struct task_struct) += -DPFD_HAVE_TASK_GETSECID

# The oldest kernel the module is built and tested for (dkms.conf says the
# same through BUILD_EXCLUSIVE_KERNEL_MIN).
ifeq ($(shell test $(VERSION)$(shell printf %03d $(PATCHLEVEL)) -lt 5010 && echo old),old)
$(error pidfd-dkms needs Linux 5.10 or later, not $(KERNELVERSION))
endif

# Without tracepoints there is no exit tracking.
ifndef CONFIG_TRACEPOINTS
$(error pidfd-dkms needs a kernel with CONFIG_TRACEPOINTS)
endif
