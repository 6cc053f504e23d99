# SPDX-License-Identifier: GPL-2.0
# Build-time probes of the kernel we build against. Each one turns into a
# -DPIDFD_HAVE_* define that module/compat.h uses; nothing in module/*.c
# looks at version numbers.

pidfd_symvers := $(firstword $(wildcard $(objtree)/Module.symvers) /dev/null)
pidfd_has_sym = $(shell grep -qw '$(1)' $(pidfd_symvers) && echo y)
pidfd_hdr_has = $(shell grep -qsE '$(2)' $(srctree)/include/$(1) \
		  $(objtree)/include/$(1) && echo y)

ccflags-$(call pidfd_hdr_has,linux/fs.h,file_open_root.const struct path) += -DPIDFD_HAVE_FILE_OPEN_ROOT_PATH
ccflags-$(call pidfd_hdr_has,trace/events/sched.h,bool group_dead) += -DPIDFD_HAVE_SCHED_PROCESS_EXIT_GROUP_DEAD
# How a module reads a task's AppArmor label (signal_policy.c): lsm_prop
# with a named LSM (7.x), or secids (5.10: one getter; 5.13+: subj/obj).
ccflags-$(call pidfd_hdr_has,linux/security.h,int security_lsmprop_to_secctx.struct lsm_prop .prop. struct lsm_context .cp.$$) += -DPIDFD_HAVE_LSMPROP_TO_SECCTX_LSMID
ccflags-$(call pidfd_hdr_has,linux/security.h,int security_secid_to_secctx.u32 secid. char ..secdata. u32 .seclen.;) += -DPIDFD_HAVE_SECID_TO_SECCTX_CHARP
ccflags-$(call pidfd_hdr_has,linux/security.h,void security_task_getsecid_obj.struct task_struct) += -DPIDFD_HAVE_TASK_GETSECID_OBJ

# The oldest kernel the module is built and tested for (dkms.conf says the
# same through BUILD_EXCLUSIVE_KERNEL_MIN).
ifeq ($(shell test $(VERSION)$(shell printf %03d $(PATCHLEVEL)) -lt 5010 && echo old),old)
$(error pidfd-dkms needs Linux 5.10 or later, not $(KERNELVERSION))
endif

# The exit tracepoints' probes take a spinlock_t and wake a waitqueue, which
# sleep on PREEMPT_RT; and without tracepoints there is no exit tracking.
ifdef CONFIG_PREEMPT_RT
$(error pidfd-dkms does not support PREEMPT_RT kernels)
endif
ifndef CONFIG_TRACEPOINTS
$(error pidfd-dkms needs a kernel with CONFIG_TRACEPOINTS)
endif
