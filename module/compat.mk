# SPDX-License-Identifier: GPL-2.0
# Build-time probes of the kernel we build against. Each one turns into a
# -DPIDFD_HAVE_* define that module/compat.h uses; nothing in module/*.c
# looks at version numbers.

pidfd_symvers := $(firstword $(wildcard $(objtree)/Module.symvers) /dev/null)
pidfd_has_sym = $(shell grep -qw '$(1)' $(pidfd_symvers) && echo y)
pidfd_hdr_has = $(shell grep -qsE '$(2)' $(srctree)/include/$(1) \
		  $(objtree)/include/$(1) && echo y)

ccflags-$(call pidfd_has_sym,lookup_one_len_unlocked) += -DPIDFD_HAVE_LOOKUP_ONE_LEN_UNLOCKED
ccflags-$(call pidfd_has_sym,lookup_noperm_unlocked) += -DPIDFD_HAVE_LOOKUP_NOPERM_UNLOCKED
