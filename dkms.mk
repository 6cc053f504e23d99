# DKMS targets, included by the top Makefile.
#
#   make dkms-install   copy the module sources to /usr/src/pidfd-VERSION,
#                       then dkms add, build and install (KERNELRELEASE=
#                       picks the kernel, default: the running one), and
#                       the udev rule for /dev/pidfd's mode
#   make dkms-remove    dkms remove, and delete /usr/src/pidfd-VERSION

DKMS ?= dkms
DKMS_SOURCES := Kbuild VERSION dkms.conf $(wildcard module/*.c module/*.h) \
		module/compat.mk uapi/linux/pidfd_dev.h
DKMS_SRCDIR := $(DESTDIR)/usr/src/pidfd-$(VERSION)

.PHONY: dkms-sources dkms-install dkms-remove

dkms-sources:
	rm -rf $(DKMS_SRCDIR)
	for f in $(DKMS_SOURCES); do \
		install -D -m 0644 $$f $(DKMS_SRCDIR)/$$f || exit 1; \
	done

dkms-install: dkms-sources install-udev
	$(DKMS) add -m pidfd -v $(VERSION)
	$(DKMS) build -m pidfd -v $(VERSION) -k $(KERNELRELEASE)
	$(DKMS) install -m pidfd -v $(VERSION) -k $(KERNELRELEASE)

dkms-remove: uninstall-udev
	-$(DKMS) remove -m pidfd -v $(VERSION) --all
	rm -rf $(DKMS_SRCDIR)
