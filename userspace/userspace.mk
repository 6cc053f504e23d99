# libpidfd (shared and static), pidfdctl, their man pages, pkg-config file,
# install and uninstall. Included by the top Makefile after its variables.
#
#   make install [DESTDIR=/staging] [PREFIX=/usr/local]
#   make uninstall [DESTDIR=...] [PREFIX=...]

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install

LIBPIDFD_SONAME := libpidfd.so.1
LIBPIDFD_REAL := libpidfd.so.$(VERSION)
LIBPIDFD_MAP := userspace/lib/libpidfd.map
LIBPIDFD_OBJS := $(patsubst userspace/lib/%.c,$(BUILD)/host/lib/%.o,$(LIB_SRCS))
# The functions libpidfd.3 documents; each gets a man page link.
LIBPIDFD_FUNCS := $(shell sed -n 's/^[[:space:]]*\(libpidfd_[a-z_]*\);$$/\1/p' $(LIBPIDFD_MAP))
TOOL_OBJS_NOMAIN := $(patsubst userspace/pidfdctl/%.c,$(BUILD)/host/pidfdctl/%.o,\
	$(filter-out userspace/pidfdctl/main.c,$(TOOL_SRCS)))

# libpidfd-preload.so (docs/interposer.md): the interposer, with a copy of
# the library inside, hidden. That copy's calls to the functions the
# interposer defines are renamed to its calls of the next definition
# (userspace/preload/next.c), so that the library never re-enters the
# interposer; the interposer's own files must not call them at all, which
# the link checks.
PRELOAD_NAME := libpidfd-preload.so
PRELOAD_DIR = $(LIBDIR)/libpidfd
PRELOAD_PATH = $(PRELOAD_DIR)/$(PRELOAD_NAME)
PRELOAD_SRCS := $(wildcard userspace/preload/*.c)
PRELOAD_OBJS := $(patsubst userspace/preload/%.c,$(BUILD)/preload/%.o,$(PRELOAD_SRCS))
PRELOAD_LIB_OBJS := $(patsubst userspace/lib/%.c,$(BUILD)/preload/lib/%.o,$(LIB_SRCS))
PRELOAD_MAP := userspace/preload/preload.map
PRELOAD_INTERPOSED := $(shell sed -n 's/^[[:space:]]*\([a-z_]*\);$$/\1/p' $(PRELOAD_MAP))
PRELOAD_RENAMED := ioctl syscall waitid getsockopt
PRELOAD_CFLAGS = $(USER_CFLAGS) -fvisibility=hidden -Iuserspace/lib
# The binutils of CC's target (the arm64 guest's interposer is cross-built).
OBJCOPY ?= objcopy
NM ?= nm

.PHONY: install uninstall install-userspace uninstall-userspace check-install
userspace: $(BUILD)/libpidfd.so $(BUILD)/$(PRELOAD_NAME)

$(BUILD)/$(LIBPIDFD_REAL): $(LIBPIDFD_OBJS) $(LIBPIDFD_MAP)
	$(CC) -shared -Wl,-soname,$(LIBPIDFD_SONAME) \
		-Wl,--version-script=$(LIBPIDFD_MAP) -Wl,-z,defs -Wl,-z,relro \
		-Wl,-z,now $(LDFLAGS) -o $@ $(LIBPIDFD_OBJS) $(LIBPIDFD_LIBS)

$(BUILD)/libpidfd.so: $(BUILD)/$(LIBPIDFD_REAL)
	ln -sf $(LIBPIDFD_REAL) $(BUILD)/$(LIBPIDFD_SONAME)
	ln -sf $(LIBPIDFD_SONAME) $@


$(BUILD)/preload/lib/%.o: userspace/lib/%.c $(LIB_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(PRELOAD_CFLAGS) -c -o $@.tmp $<
	$(OBJCOPY) $(foreach f,$(PRELOAD_RENAMED),--redefine-sym $(f)=preload_next_$(f)) $@.tmp $@
	rm -f $@.tmp

$(BUILD)/preload/%.o: userspace/preload/%.c userspace/preload/preload.h $(LIB_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(PRELOAD_CFLAGS) -c -o $@ $<

$(BUILD)/$(PRELOAD_NAME): $(PRELOAD_OBJS) $(PRELOAD_LIB_OBJS) $(PRELOAD_MAP)
	@if $(NM) -uA $(PRELOAD_OBJS) $(PRELOAD_LIB_OBJS) | grep -E ' U ($(subst $() ,|,$(PRELOAD_INTERPOSED)))$$'; then \
		echo "$@: an interposed function is called from inside the interposer (above)" >&2; exit 1; fi
	$(CC) -shared -Wl,--version-script=$(PRELOAD_MAP) -Wl,-z,defs -Wl,-z,relro \
		-Wl,-z,now $(LDFLAGS) -o $@ $(PRELOAD_OBJS) $(PRELOAD_LIB_OBJS) -ldl $(LIBPIDFD_LIBS)

# The pidfdctl parser and helpers, for the host test of argument parsing.
$(BUILD)/host/pidfdctl/%.o: userspace/pidfdctl/%.c $(TOOL_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(PIDFDCTL_DEFS) -c -o $@ $<

$(BUILD)/host/check_pidfdctl_args: tests/unit/check_pidfdctl_args.c $(TOOL_OBJS_NOMAIN) $(BUILD)/libpidfd.a $(BUILD)/pidfdctl $(BUILD)/$(PRELOAD_NAME)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Werror -Iuserspace/pidfdctl \
		-DPIDFDCTL_BINARY='"$(abspath $(BUILD))/pidfdctl"' -o $@ $< \
		$(TOOL_OBJS_NOMAIN) $(BUILD)/libpidfd.a $(CHECK_LIBS)

# Guest suites that run pidfdctl find it through $$PIDFDCTL (default
# /bin/pidfdctl); the harness puts $(BUILD)/guest/pidfdctl there.

install: install-userspace
uninstall: uninstall-userspace

install-userspace: $(BUILD)/dist/pidfdctl $(BUILD)/libpidfd.a $(BUILD)/libpidfd.so $(BUILD)/$(PRELOAD_NAME)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PRELOAD_DIR) \
		$(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	$(INSTALL) -m 0755 $(BUILD)/dist/pidfdctl $(DESTDIR)$(BINDIR)/pidfdctl
	$(INSTALL) -m 0644 $(BUILD)/libpidfd.a $(DESTDIR)$(LIBDIR)/libpidfd.a
	$(INSTALL) -m 0755 $(BUILD)/$(LIBPIDFD_REAL) $(DESTDIR)$(LIBDIR)/$(LIBPIDFD_REAL)
	ln -sf $(LIBPIDFD_REAL) $(DESTDIR)$(LIBDIR)/$(LIBPIDFD_SONAME)
	ln -sf $(LIBPIDFD_SONAME) $(DESTDIR)$(LIBDIR)/libpidfd.so
	$(INSTALL) -m 0644 $(BUILD)/$(PRELOAD_NAME) $(DESTDIR)$(PRELOAD_PATH)
	$(INSTALL) -m 0644 userspace/include/libpidfd.h $(DESTDIR)$(INCLUDEDIR)/libpidfd.h
	$(INSTALL) -m 0644 uapi/linux/pidfd_dev.h $(DESTDIR)$(INCLUDEDIR)/linux/pidfd_dev.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		userspace/libpidfd.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libpidfd.pc
	$(INSTALL) -m 0644 docs/man/pidfdctl.1 $(DESTDIR)$(MANDIR)/man1/pidfdctl.1
	$(INSTALL) -D -m 0644 completion/pidfdctl.bash $(DESTDIR)$(BASHCOMPDIR)/pidfdctl
	$(INSTALL) -m 0644 docs/man/libpidfd.3 $(DESTDIR)$(MANDIR)/man3/libpidfd.3
	for f in $(LIBPIDFD_FUNCS); do \
		echo '.so man3/libpidfd.3' > $(DESTDIR)$(MANDIR)/man3/$$f.3; \
	done
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall-userspace:
	rm -f $(DESTDIR)$(BINDIR)/pidfdctl \
		$(DESTDIR)$(LIBDIR)/libpidfd.a $(DESTDIR)$(LIBDIR)/libpidfd.so \
		$(DESTDIR)$(LIBDIR)/$(LIBPIDFD_SONAME) \
		$(DESTDIR)$(LIBDIR)/$(LIBPIDFD_REAL) \
		$(DESTDIR)$(PRELOAD_PATH) \
		$(DESTDIR)$(INCLUDEDIR)/libpidfd.h \
		$(DESTDIR)$(INCLUDEDIR)/linux/pidfd_dev.h \
		$(DESTDIR)$(PKGCONFIGDIR)/libpidfd.pc \
		$(DESTDIR)$(MANDIR)/man1/pidfdctl.1 \
		$(DESTDIR)$(BASHCOMPDIR)/pidfdctl \
		$(DESTDIR)$(MANDIR)/man3/libpidfd.3 \
		$(patsubst %,$(DESTDIR)$(MANDIR)/man3/%.3,$(LIBPIDFD_FUNCS))
	rmdir $(DESTDIR)$(PRELOAD_DIR) 2>/dev/null || true
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null; then ldconfig; fi

# Install into a staging directory, build a program against the installed
# library through pkg-config (shared and static), check the symbol
# versions, the man pages, and that uninstall leaves nothing behind.
check-install: $(BUILD)/pidfdctl $(BUILD)/libpidfd.a $(BUILD)/libpidfd.so
	tests/unit/install-test.sh "$(abspath $(BUILD))/install-test"

check-unit: check-install
