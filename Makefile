# pidfd-dkms: module, userspace and tests.
#
#   make                 module (for the running kernel) and userspace
#   make module          the module; KERNELRELEASE= or KDIR= choose the kernel
#   make userspace       libpidfd, pidfdctl
#   make check           host unit tests, the header matrix, then the VM
#                        suites (KERNELS="6.1")
#   make check-headers   <libpidfd.h> and <linux/pidfd_dev.h> in C and C++,
#                        with every <linux/pidfd.h> and <sys/pidfd.h> here
#   make check-matrix    the VM suites on Debian 13's kernels (vm/matrix debian13)
#   make check-upstream  upstream's pidfd selftests, bare and under the
#                        interposer (UPSTREAM_KERNELS)
#   make check-harness   self-test of the VM harness (it must catch failures)
#   make demo            boot a VM with the module and run the demo
#   make guest           the static programs that run inside the test VM
#   make lint            shellcheck the harness scripts
#
# ARCH=arm64 (or PIDFD_ARCH=arm64) with check, guest, bench or demo: arm64
# kernels, the guest programs cross-built, the VM emulated by
# qemu-system-aarch64.

VERSION := $(shell cat VERSION)
# Debian installs administrators' tools (apparmor_parser, depmod, chroot,
# debootstrap) in /usr/sbin and /sbin, which a user's default PATH lacks:
# look there too, after everything the caller put first.
SBIN_MISSING := $(filter-out $(subst :, ,$(PATH)),/usr/sbin /sbin)
export PATH := $(PATH)$(subst $() ,,$(addprefix :,$(SBIN_MISSING)))
# Kernel series for the VM runs, each SERIES or SERIES:SET (vm/check: all,
# smoke or native suites).
KERNELS ?= 6.1
# The first kernel's series, for the runs that take one.
FIRST_KERNEL = $(firstword $(subst :, ,$(firstword $(KERNELS))))
KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

BUILD := build
CC ?= cc

# The architecture of the kernels and the guest programs under test: amd64
# (the host's) or arm64; vm/ reads PIDFD_ARCH. ARCH=arm64 on the command
# line, the kernel's spelling, sets it too (and reaches a "make module"
# sub-make as usual); an ARCH in the environment, meant for kernel builds,
# does not.
ifeq ($(origin ARCH),command line)
PIDFD_ARCH ?= $(ARCH)
endif
PIDFD_ARCH ?= amd64
override PIDFD_ARCH := $(patsubst x86_64,amd64,$(patsubst x86,amd64,$(patsubst aarch64,arm64,$(PIDFD_ARCH))))
ifeq ($(filter amd64 arm64,$(PIDFD_ARCH)),)
$(error ARCH (PIDFD_ARCH) must be amd64 (x86_64) or arm64 (aarch64), not '$(PIDFD_ARCH)')
endif
export PIDFD_ARCH
# Warnings fail our own builds (PIDFD_WERROR=y: CI, and every test
# program), never a user's, whose compiler may warn of what ours does not.
WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-missing-field-initializers \
	$(if $(filter y,$(PIDFD_WERROR)),-Werror)
USER_CFLAGS := -std=gnu11 -O2 -g $(WARN) -D_GNU_SOURCE -fPIC \
	-Iuapi -Iuserspace/include -DPIDFD_DKMS_VERSION='"$(VERSION)"' \
	$(CPPFLAGS) $(CFLAGS)
CHECK_LIBS := -lcheck -lsubunit -lrt -lm -pthread
# What libpidfd links: pthread_sigmask() is in libpthread before glibc 2.34.
LIBPIDFD_LIBS := -pthread

# The guest programs of each architecture, in a directory of their own
# (vm/lib.sh: GUEST_DIR). 32-bit callers go through the kernel's
# compat_ioctl: i386 programs on amd64, armhf (AArch32) ones on arm64. The
# cross compilers are Debian's gcc-i686-linux-gnu and
# gcc-arm-linux-gnueabihf, not gcc -m32: gcc-multilib conflicts with every
# cross compiler.
ifeq ($(PIDFD_ARCH),arm64)
GUEST := $(BUILD)/guest-arm64
GUEST_CC := aarch64-linux-gnu-gcc
COMPAT32_CC := arm-linux-gnueabihf-gcc
# Check's static libraries and headers for arm64, from Debian's packages,
# extracted into the cache (vm/fetch-guest-packages), not installed.
GUEST_PACKAGES := $(BUILD)/guest-packages-arm64
GUEST_LIB_FLAGS := -I$(GUEST_PACKAGES)/usr/include -L$(GUEST_PACKAGES)/usr/lib/aarch64-linux-gnu
else
GUEST := $(BUILD)/guest
GUEST_CC := $(CC)
COMPAT32_CC := i686-linux-gnu-gcc
GUEST_PACKAGES :=
GUEST_LIB_FLAGS :=
endif

LIB_SRCS := $(wildcard userspace/lib/*.c)
LIB_HEADERS := userspace/lib/internal.h $(wildcard userspace/include/*.h) uapi/linux/pidfd_dev.h
TOOL_SRCS := $(wildcard userspace/pidfdctl/*.c)
# pidfdctl's own headers and the public ones it includes, not internal.h.
TOOL_HEADERS := $(wildcard userspace/pidfdctl/*.h userspace/include/*.h) uapi/linux/pidfd_dev.h
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/host/%,$(wildcard tests/unit/check_*.c))
# tests/stress/: the concurrency stress, a guest suite like the others.
GUEST_TESTS := $(patsubst tests/guest/%.c,$(GUEST)/%,$(wildcard tests/guest/check_*.c)) \
	       $(patsubst tests/stress/%.c,$(GUEST)/%,$(wildcard tests/stress/check_*.c)) \
	       $(GUEST)/check_compat32 $(GUEST)/check_fuzz $(GUEST)/check_fuzz32
# tests/lib: the helpers without Check, which every test program links;
# tests/guest/lib: what the Check suites add on top.
TEST_LIB := $(wildcard tests/lib/*.c)
TEST_LIB_DEPS := $(TEST_LIB) $(wildcard tests/lib/*.h) uapi/linux/pidfd_dev.h
GUEST_HELPERS := $(TEST_LIB) $(wildcard tests/guest/lib/*.c)
# Only what has sources yet: the suites must run before every program exists.
GUEST_PROGS := $(if $(wildcard examples/demo.c),$(GUEST)/pidfd-demo) \
	$(if $(TOOL_SRCS),$(GUEST)/pidfdctl)
# The interposer's suite is a dynamically linked program, as the programs
# the interposer is for (vm/mkinitramfs puts its libraries into the
# guest: the host's C library, or the cross compiler's for arm64), run
# once before the module is loaded (as check_native_interpose) and once
# after; with libpidfd-preload.so beside the guest's pidfdctl.
# check_interpose_trixie_libc is the same suite on trixie's glibc (2.41,
# with pidfd_spawn and pidfd_getpid), which vm/check puts into the guest
# (amd64 only).
INTERPOSE_TESTS := $(GUEST)/check_interpose $(GUEST)/check_native_interpose
ifeq ($(PIDFD_ARCH),amd64)
INTERPOSE_TESTS += $(GUEST)/check_interpose_trixie_libc
endif
GUEST_PROGS += $(GUEST)/libpidfd-preload.so
GUEST_TESTS := $(filter-out $(GUEST)/check_interpose,$(GUEST_TESTS)) $(INTERPOSE_TESTS)
# Suites only for the debug kernel (make check-debug): fault injection.
DEBUG_TESTS := $(patsubst tests/debug/%.c,$(BUILD)/debug/%,$(wildcard tests/debug/check_*.c))
# Their own helpers (fault injection), beside the guest suites'.
DEBUG_HELPERS := $(filter-out tests/debug/check_%,$(wildcard tests/debug/*.c))
HARNESS_PROGS := $(patsubst tests/harness/%.c,$(BUILD)/harness/%,$(wildcard tests/harness/check_*.c))

.PHONY: bench check-bench all module userspace programs unit-programs check check-releases check-unit check-util-linux check-headers check-vm check-matrix check-upstream check-debug check-dkms check-packages check-dist dist check-harness demo clean guest lint
# A machine without the kernel's headers still gets libpidfd and pidfdctl
# from `make` and `make install` (kernels with native pidfds need no
# module); `make module` and `make install-module` say what is missing.
HAVE_KDIR := $(wildcard $(KDIR)/Makefile)
NO_HEADERS := no headers of kernel $(KERNELRELEASE) in $(KDIR): install \
	linux-headers-$(KERNELRELEASE) (Debian, Ubuntu), or name them with KDIR=

all: userspace $(if $(HAVE_KDIR),module,module-skipped)

module:
ifeq ($(HAVE_KDIR),)
	@echo "make module: $(NO_HEADERS)" >&2; exit 2
endif
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

.PHONY: module-skipped
module-skipped:
	@echo "note: the module is not built ($(NO_HEADERS)); libpidfd and pidfdctl are built without it" >&2

userspace: $(BUILD)/libpidfd.a $(BUILD)/pidfdctl
include userspace/userspace.mk

$(BUILD)/host/lib/%.o: userspace/lib/%.c $(LIB_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

# PIDFD_DKMS_VERSION is compiled in.
$(BUILD)/host/lib/misc.o $(BUILD)/host/pidfdctl/args.o $(BUILD)/pidfdctl \
	$(BUILD)/dist/pidfdctl $(GUEST)/pidfdctl: VERSION

$(BUILD)/libpidfd.a: $(patsubst userspace/lib/%.c,$(BUILD)/host/lib/%.o,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# pidfdctl is a client of libpidfd.so.1's public API. The one in $(BUILD)
# finds the library beside it (RUNPATH $$ORIGIN); the one installed is
# linked without a RUNPATH.
# pidfdctl exec looks for libpidfd-preload.so where make install puts it.
PIDFDCTL_DEFS = -DPIDFDCTL_PRELOAD_PATH='"$(PRELOAD_PATH)"'
PIDFDCTL_LINK = $(CC) $(USER_CFLAGS) $(PIDFDCTL_DEFS) $(LDFLAGS) -o $@ $(TOOL_SRCS) -L$(BUILD) -lpidfd
$(BUILD)/pidfdctl: $(TOOL_SRCS) $(TOOL_HEADERS) $(BUILD)/libpidfd.so
	$(PIDFDCTL_LINK) -Wl,-rpath,'$$ORIGIN'
$(BUILD)/dist/pidfdctl: $(TOOL_SRCS) $(TOOL_HEADERS) $(BUILD)/libpidfd.so
	@mkdir -p $(dir $@)
	$(PIDFDCTL_LINK)

# Host unit tests: no module needed.
$(BUILD)/host/check_%: tests/unit/check_%.c $(BUILD)/libpidfd.a $(TEST_LIB_DEPS) $(LIB_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Werror -Itests/lib -o $@ $< $(TEST_LIB) $(BUILD)/libpidfd.a $(CHECK_LIBS)

# Runs the built pidfdctl beside timeout(1) and kill(1).
$(BUILD)/host/check_pidfdctl_compat: $(BUILD)/pidfdctl
$(BUILD)/host/check_pidfdctl_compat: USER_CFLAGS += -DPIDFDCTL_BINARY='"$(abspath $(BUILD))/pidfdctl"'

# Guest programs are static: the initramfs has no libc.
GUEST_CFLAGS := $(USER_CFLAGS) -Werror -Itests/guest/lib -static $(GUEST_LIB_FLAGS)
$(GUEST)/check_%: tests/guest/check_%.c $(GUEST_HELPERS) $(wildcard tests/guest/lib/*.h tests/lib/*.h) $(LIB_SRCS) $(LIB_HEADERS) | $(GUEST_PACKAGES)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $< $(GUEST_HELPERS) $(LIB_SRCS) $(CHECK_LIBS)
$(GUEST)/check_%: tests/stress/check_%.c $(GUEST_HELPERS) $(wildcard tests/guest/lib/*.h tests/lib/*.h) $(LIB_SRCS) $(LIB_HEADERS) | $(GUEST_PACKAGES)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $< $(GUEST_HELPERS) $(LIB_SRCS) $(CHECK_LIBS)

ifneq ($(GUEST_PACKAGES),)
# A link to the extracted packages in the cache; remade by "make clean".
$(GUEST_PACKAGES):
	@mkdir -p $(dir $@)
	ln -sfn "$$(vm/fetch-guest-packages $(PIDFD_ARCH))" $@
endif

# Check's libraries linked in (arm64's come as static ones only), the
# C library dynamically.
INTERPOSE_CFLAGS := $(USER_CFLAGS) -Werror -Itests/lib $(GUEST_LIB_FLAGS)
INTERPOSE_LIBS := -Wl,-Bstatic -lcheck -lsubunit -Wl,-Bdynamic -lrt -lm -pthread -ldl
$(GUEST)/check_interpose: tests/guest/check_interpose.c $(TEST_LIB_DEPS) | $(GUEST_PACKAGES)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(INTERPOSE_CFLAGS) -o $@ $< $(TEST_LIB) $(INTERPOSE_LIBS)

$(GUEST)/check_native_interpose: $(GUEST)/check_interpose
	cp $< $@

# Linked against this system's glibc, which runs on any newer one, to load
# trixie's from TRIXIE_LIBC: its loader, and a DT_RPATH, which (unlike
# DT_RUNPATH) every library the program loads is searched in too.
TRIXIE_LIBC := /lib/pidfd-test/libc
$(GUEST)/check_interpose_trixie_libc: tests/guest/check_interpose.c $(TEST_LIB_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(INTERPOSE_CFLAGS) -DPT_LIBC_TRIXIE -o $@ $< $(TEST_LIB) \
		$(INTERPOSE_LIBS) -Wl,--dynamic-linker=$(TRIXIE_LIBC)/ld-linux-x86-64.so.2 \
		-Wl,--disable-new-dtags,-rpath,$(TRIXIE_LIBC)

ifeq ($(PIDFD_ARCH),arm64)
# Cross-built, in a build directory of its own.
$(GUEST)/libpidfd-preload.so: $(PRELOAD_SRCS) userspace/preload/preload.h $(PRELOAD_MAP) \
		$(LIB_SRCS) $(LIB_HEADERS)
	$(MAKE) --no-print-directory BUILD=$(GUEST)/userspace CC=$(GUEST_CC) \
		OBJCOPY=aarch64-linux-gnu-objcopy NM=aarch64-linux-gnu-nm \
		$(GUEST)/userspace/libpidfd-preload.so
	cp $(GUEST)/userspace/libpidfd-preload.so $@
else
$(GUEST)/libpidfd-preload.so: $(BUILD)/libpidfd-preload.so
	@mkdir -p $(dir $@)
	cp $< $@
endif

$(GUEST)/bench_pidfd: bench/bench_pidfd.c $(TEST_LIB_DEPS)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -Itests/lib -o $@ $< $(TEST_LIB) -pthread

# The interposer's passed-through calls, bare and under it (dynamically
# linked: amd64 only). bench/run --interposer [--icount] SERIES.
$(GUEST)/bench_interpose: bench/bench_interpose.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Werror -o $@ $<

.PHONY: bench-interposer
bench-interposer: $(GUEST)/bench_interpose $(GUEST)/pidfdctl $(GUEST)/libpidfd-preload.so
	bench/run --interposer $(if $(filter 1,$(ICOUNT)),--icount) $(BENCH_KERNELS)

# The module against the native system calls, in the VM of each kernel
# (docs/performance.md); make check runs the short mode on one kernel.
BENCH_KERNELS ?= 6.1 7.2
bench: $(GUEST)/bench_pidfd $(GUEST)/check_libpidfd_cost
	bench/run $(if $(filter 1,$(ICOUNT)),--icount) $(BENCH_KERNELS)

check-bench: $(GUEST)/bench_pidfd $(GUEST)/check_libpidfd_cost
	bench/run --short $(FIRST_KERNEL)

# 32-bit callers go through compat_ioctl. Check has no i386 or armhf build
# here, so this suite has its own small runner.
$(GUEST)/check_compat32: tests/compat32/check_compat32.c $(TEST_LIB_DEPS)
	@mkdir -p $(dir $@)
	$(COMPAT32_CC) -static -std=gnu11 -O2 $(WARN) -Werror -D_GNU_SOURCE -Iuapi -Itests/lib -o $@ $< $(TEST_LIB) -pthread

# The ioctl fuzzer, 64-bit and through compat_ioctl: its own runner (no
# Check for 32 bits here), one source.
$(GUEST)/check_fuzz: tests/fuzz/fuzz.c tests/guest/lib/pt_rand.h $(TEST_LIB_DEPS)
	@mkdir -p $(dir $@)
	$(GUEST_CC) -static -std=gnu11 -O2 -g $(WARN) -Werror -D_GNU_SOURCE -Iuapi -Itests/lib -Itests/guest/lib -o $@ $< $(TEST_LIB) -pthread

$(GUEST)/check_fuzz32: tests/fuzz/fuzz.c tests/guest/lib/pt_rand.h $(TEST_LIB_DEPS)
	@mkdir -p $(dir $@)
	$(COMPAT32_CC) -static -std=gnu11 -O2 $(WARN) -Werror -D_GNU_SOURCE -Iuapi -Itests/lib -Itests/guest/lib -o $@ $< $(TEST_LIB) -pthread

$(GUEST)/pidfd-demo: examples/demo.c $(LIB_SRCS) $(LIB_HEADERS)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $< $(LIB_SRCS) $(LIBPIDFD_LIBS)

$(GUEST)/pidfdctl: $(TOOL_SRCS) $(TOOL_HEADERS) $(LIB_SRCS) $(LIB_HEADERS)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) $(PIDFDCTL_DEFS) -o $@ $(TOOL_SRCS) $(LIB_SRCS) $(LIBPIDFD_LIBS)

# check_lsm's AppArmor profiles, compiled here (the guest has no parser)
# for the feature set of Debian 12's apparmor package. Binary policy does
# not depend on the CPU beyond its byte order: arm64 takes the same.
$(GUEST)/signal-profiles.bin: tests/guest/apparmor/signal-profiles.apparmor
	@mkdir -p $(dir $@)
	apparmor_parser -K -Q -M /usr/share/apparmor-features/features -o $@ $<

guest: $(GUEST_TESTS) $(GUEST_PROGS) $(GUEST)/signal-profiles.bin

# Every program the checks run, for one parallel build before them (CI:
# make -j$$(nproc) programs; the checks themselves run one VM at a time).
programs: userspace guest unit-programs $(DEBUG_TESTS) $(HARNESS_PROGS)

$(BUILD)/debug/check_%: tests/debug/check_%.c $(DEBUG_HELPERS) $(GUEST_HELPERS) $(wildcard tests/debug/*.h tests/guest/lib/*.h tests/lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(DEBUG_HELPERS) $(GUEST_HELPERS) $(LIB_SRCS) $(CHECK_LIBS)

# Programs of the harness self-test: never part of the real suites.
$(BUILD)/harness/check_%: tests/harness/check_%.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -Itests/lib -o $@ $< $(CHECK_LIBS)

# The debug kernel is an x86 build, and the DKMS, package and harness tests
# use amd64 chroots and programs: amd64 only.
AMD64_ONLY_GOALS := check-debug check-dkms check-packages check-dist check-harness
ifeq ($(PIDFD_ARCH),arm64)
ifneq ($(filter $(AMD64_ONLY_GOALS),$(MAKECMDGOALS)),)
$(error $(filter $(AMD64_ONLY_GOALS),$(MAKECMDGOALS)) run on amd64 only, not with ARCH=arm64)
endif
endif

# The userspace as each Debian release we serve builds it: in a chroot of
# that release (vm/chroot userspace: its gcc, glibc and Check; as root),
# with the host unit tests and the header matrix (its gcc's standards:
# C23 from gcc 14) run there. Bullseye's also builds the programs
# that test 5.10 with the userspace a 5.10 user has (vm/check takes them
# from $(BUILD)/release-bullseye/guest for that kernel, while its
# source-stamp is this tree's). The programs are built first, in parallel.
RELEASES ?= bullseye bookworm trixie sid
JOBS ?= $(shell nproc)
RELEASE_GUEST_PROGS := pidfdctl check_libpidfd check_native_libpidfd check_pidfdctl \
	check_native_pidfdctl check_backends check_seed_example \
	check_differential_open check_differential_signal check_differential_exit \
	check_differential_matrix
check-releases:
	@set -e; for r in $(RELEASES); do \
		progs=; [ $$r != bullseye ] || progs=release-guest; \
		echo "== the userspace on $$r"; \
		rm -f $(BUILD)/release-$$r/source-stamp; \
		vm/chroot userspace $$r $(CURDIR) $(abspath $(BUILD))/release-$$r \
			-j$(JOBS) unit-programs $$progs; \
		vm/chroot userspace $$r $(CURDIR) $(abspath $(BUILD))/release-$$r check-unit \
			check-headers; \
		vm/source-stamp >$(BUILD)/release-$$r/source-stamp; \
	done
.PHONY: release-guest
release-guest: $(addprefix $(GUEST)/,$(RELEASE_GUEST_PROGS))

# What check-unit runs, for a parallel build first (check-releases).
unit-programs: $(UNIT_TESTS) $(BUILD)/libpidfd.so $(BUILD)/$(PRELOAD_NAME)

check-unit: unit-programs
	@set -e; for t in $(UNIT_TESTS) tests/unit/mirror-test.sh; do echo "== $$t"; $$t; done
	tests/unit/man-examples.sh $(BUILD)
	tests/unit/completion-test.sh $(BUILD)

check-vm: guest
	vm/check $(KERNELS)

# The headers alone and with the system's <linux/pidfd.h> and <sys/pidfd.h>,
# before and after, in every C and C++ standard: this system's, the release
# chroots' and the cached kernels' (tests/headers/check-headers; seconds).
# HEADERS_ALL=1 (CI): fetch the kernels of the matrix, need every chroot.
check-headers:
	tests/headers/check-headers $(if $(filter 1,$(HEADERS_ALL)),--all)

check: check-unit check-util-linux check-headers check-vm check-bench

# pidfdctl's kill and wait beside util-linux's own kill and waitpid, built
# from Debian's newest util-linux source (tests/unit/util-linux-tools).
check-util-linux: $(BUILD)/host/check_pidfdctl_compat
	@set -e; bin=$$(tests/unit/util-linux-tools); \
		UTIL_LINUX_BIN=$$bin CK_RUN_CASE=util_linux $(BUILD)/host/check_pidfdctl_compat

# Debian 13's kernels, resolved now (vm/matrix debian13; docs/testing.md):
# trixie's 6.12 and the newest trixie-backports series with headers with
# every suite, the other series with headers the smoke set, the images
# only the native suites. MATRIX_KERNELS="..." names others.
# The identity's processes and the stress shorter there than in make check
# (10 000 and 10 s against 100 000 and 20 s): make check's 6.1 and 7.2 run
# both identity paths (the module's numbers, pidfs's) in full.
MATRIX_KERNELS ?=
MATRIX_IDENTITY_PROCESSES ?= 10000
MATRIX_STRESS_SECONDS ?= 10
check-matrix: guest
	@set -e; k="$(MATRIX_KERNELS)"; [ -n "$$k" ] || k=$$(vm/matrix debian13); \
	echo "vm/check $$k"; \
	PIDFD_IDENTITY_PROCESSES=$${PIDFD_IDENTITY_PROCESSES:-$(MATRIX_IDENTITY_PROCESSES)} \
		PIDFD_STRESS_SECONDS=$${PIDFD_STRESS_SECONDS:-$(MATRIX_STRESS_SECONDS)} vm/check $$k

# Upstream's own pidfd selftests (tools/testing/selftests/pidfd of Debian's
# linux-source-7.3), built here unmodified against this system's glibc, run
# in each kernel's VM as they are and under the interposer with the module
# loaded, each test's result compared with tests/upstream/expected (the
# reference kernel's results and the documented differences: docs/
# differences.md). SERIES:bare runs them as they are only (the reference).
UPSTREAM_KERNELS ?= 7.3+deb13 5.10 6.1 6.12 6.12+deb13
check-upstream: $(GUEST)/pidfdctl $(GUEST)/libpidfd-preload.so
	tests/upstream/check $(UPSTREAM_KERNELS)

# The module's suites, the fuzzer and the fault injection under the debug
# kernel (KASAN, lockdep, kmemleak...: vm/build-debug-kernel, built once);
# the concurrency stress runs its long version there.
# No 5-level paging for it: with LA57 on, 6.1 under KASAN reports a
# wild-memory-access in rcu_is_watching() before any module is loaded,
# from an interrupt taken inside identify_cpu() on the boot CPU (about one
# boot in five under TCG's -cpu max; none in 20 boots without la57).
# The fuzzer and the identity's processes shorter than the generic
# kernels' 1 000 000 calls and 100 000 processes there, and the stress as
# long (20 s, at a tenth of the pace): under KASAN they cost 2-4 times
# as much (a process 10 times: 20 000 took 578 s beside other VMs), and
# the generic kernels run them in full (CI's budget, docs/testing.md).
# Not there: the native suites, which the generic 6.1 runs, and, for CI's
# budget, the suites of what is built on the module's calls, which the
# module's own suites make too: the interposer (on either C library),
# pidfdctl, libpidfd's backends and the differential permission matrix
# (vm/coverage's figure is taken without them). PIDFD_DEBUG_BACKENDS is
# for a check_backends run there by hand: the module's backend alone.
PIDFD_DEBUG_STRESS_SECONDS ?= 20
PIDFD_DEBUG_FUZZ_ITERATIONS ?= 50000
PIDFD_DEBUG_IDENTITY_PROCESSES ?= 1000
PIDFD_DEBUG_BACKENDS ?= module
PIDFD_DEBUG_EXCLUDE_SUITES ?= check_native_libpidfd check_native_pidfdctl check_native_interpose \
	check_interpose_trixie_libc check_interpose check_pidfdctl check_backends \
	check_differential_matrix
PIDFD_DEBUG_VM_CPU ?= max,cx16=off,la57=off
# The module is built with coverage there (vm/build-module): vm/coverage
# prints its table last, also after a failed run that sent its counters.
check-debug: guest $(DEBUG_TESTS)
	status=0; PIDFD_STRESS_SECONDS=$(PIDFD_DEBUG_STRESS_SECONDS) \
		PIDFD_FUZZ_ITERATIONS=$(PIDFD_DEBUG_FUZZ_ITERATIONS) \
		PIDFD_IDENTITY_PROCESSES=$(PIDFD_DEBUG_IDENTITY_PROCESSES) \
		PIDFD_BACKENDS="$(PIDFD_DEBUG_BACKENDS)" \
		PIDFD_VM_EXCLUDE_SUITES="$(PIDFD_DEBUG_EXCLUDE_SUITES)" \
		PIDFD_VM_CPU=$${PIDFD_VM_CPU:-$(PIDFD_DEBUG_VM_CPU)} \
		PIDFD_VM_MEMORY=2048 PIDFD_VM_BOOT_TIMEOUT=180 \
		PIDFD_VM_EXTRA_SUITES="$(DEBUG_TESTS)" vm/check 6.1-debug || status=1; \
	vm/coverage 6.1-debug || status=1; \
	exit $$status

# The module as users get it: through DKMS (make dkms-install, then
# modprobe in the VM), and from the Debian packages (dpkg -i in a chroot,
# then modprobe in the VM).
check-dkms: guest
	PIDFD_VM_MODULE_SOURCE=dkms vm/check $(KERNELS)

# The Debian packages of each release, built in a clean root of that
# release (packaging/build-debs), installed there with apt from a local
# repository, DKMS building the module for the release's kernel, and the
# autopkgtest (packaging/test-debs); then that kernel boots with that
# module: the smoke set, as for check-dkms (make check runs every suite
# with a module built from the same sources by the same compiler; what is
# new here is the packages' build, apt, DKMS and modprobe).
PACKAGE_KERNELS ?= 5.10:smoke 6.1:smoke 6.12+deb13:smoke
# The release whose kernel a series is.
package_release = $(or $(if $(filter 5.10,$1),bullseye)$(if $(filter 6.1,$1),bookworm)$(if \
	$(filter 6.12+deb13,$1),trixie),$(error check-packages: no Debian release whose kernel is $1))
PACKAGE_RELEASES = $(foreach k,$(PACKAGE_KERNELS),$(call package_release,$(firstword $(subst :, ,$(k)))))
# The first release's build runs the unit tests (dh_auto_test: the
# Build-Depends suffice for them, as nobody); the others' are built with
# nocheck, as check-releases runs the same tests in each release (20 s a
# release).
check-packages: guest
	packaging/build-debs $(BUILD)/debs $(firstword $(PACKAGE_RELEASES))
	$(if $(word 2,$(PACKAGE_RELEASES)),DEB_BUILD_OPTIONS=nocheck packaging/build-debs \
		$(BUILD)/debs $(wordlist 2,$(words $(PACKAGE_RELEASES)),$(PACKAGE_RELEASES)))
	PIDFD_VM_MODULE_SOURCE=deb vm/check $(PACKAGE_KERNELS)

# The release tarball (tools/make-dist), and its test: the same bytes from
# two runs, and the module, the userspace and the packages built from it.
dist:
	tools/make-dist $(BUILD)/pidfd-dkms-$(VERSION).tar.gz

check-dist:
	tests/unit/dist-test.sh $(FIRST_KERNEL)

check-harness: $(HARNESS_PROGS)
	tests/harness/selftest $(FIRST_KERNEL)

SCRIPTS := $(filter-out vm/lib.sh vm/%.config,$(wildcard vm/*)) vm/lib.sh $(wildcard .ci/*) bench/run \
	tests/harness/selftest $(wildcard tests/harness/init-*)
lint:
	shellcheck -x $(SCRIPTS) tools/checkpatch tests/headers/check-headers \
		tools/make-dist packaging/build-debs \
		packaging/test-debs tests/dkms/lifecycle tests/unit/mirror-test.sh \
		tests/unit/man-examples.sh tests/unit/completion-test.sh \
		tests/unit/dist-test.sh completion/pidfdctl.bash \
		tests/upstream/check tests/upstream/build-selftests tests/upstream/run-selftests \
		debian/tests/library-and-tool
	tools/checkpatch

# Only what the demo runs: the demo program and pidfdctl.
demo: $(GUEST_PROGS)
	@test -f examples/demo.c || { echo "make demo: examples/demo.c does not exist yet" >&2; exit 1; }
	vm/demo $(FIRST_KERNEL)

clean:
	rm -rf $(BUILD)
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
include dkms.mk
include module.mk
