# Installing the module without DKMS, included by the top Makefile.
#
#   make install-module [KERNELRELEASE=...] [DESTDIR=...]
#   make install-module MODULES_LOAD=1   also load it at boot
#                                       (/etc/modules-load.d/pidfd.conf)
#   make install-udev                   the udev rule for /dev/pidfd's mode
#
# `make install` installs the module this way, with the userspace. With
# DKMS, use `make dkms-install` and `make install-userspace` instead.

MODULE_DIR := $(DESTDIR)/lib/modules/$(KERNELRELEASE)/updates
UDEV_RULES_DIR ?= /lib/udev/rules.d

.PHONY: install-module uninstall-module install-udev uninstall-udev install uninstall
install: $(if $(HAVE_KDIR),install-module,module-skipped)
uninstall: uninstall-module

install-module: module install-udev
	install -D -m 0644 pidfd.ko $(MODULE_DIR)/pidfd.ko
	if [ -n "$(MODULES_LOAD)" ]; then \
		install -D -m 0644 udev/modules-load.conf \
			$(DESTDIR)/etc/modules-load.d/pidfd.conf; \
	fi
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KERNELRELEASE); fi

uninstall-module: uninstall-udev
	rm -f $(MODULE_DIR)/pidfd.ko $(DESTDIR)/etc/modules-load.d/pidfd.conf
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KERNELRELEASE); fi

install-udev:
	install -D -m 0644 udev/60-pidfd.rules $(DESTDIR)$(UDEV_RULES_DIR)/60-pidfd.rules

uninstall-udev:
	rm -f $(DESTDIR)$(UDEV_RULES_DIR)/60-pidfd.rules
