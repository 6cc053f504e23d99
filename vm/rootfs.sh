# Clean Debian roots for the package build and the package test
# (packaging/build-debs, packaging/test-debs). Sourced after vm/lib.sh.
# shellcheck shell=bash disable=SC2034 # rootfs_path is for the sourcing scripts
#
# A root is a stack of overlayfs layers in $ROOTFS/SUITE/:
#   base     debootstrap --variant=minbase of the release, made once and
#            never changed afterwards
#   LAYER    what every use of one kind needs (the build dependencies, a
#            kernel's headers), installed once on top of base and kept;
#            made again when its key (what went into it) changes
#   run.*    a throwaway layer for one use: what the use installs or
#            builds is gone afterwards
# so that every build and every install starts from the same clean state
# without a debootstrap each time. apt's package lists and downloads are
# kept beside the layers (lists/, archives/, bind-mounted), and the lists
# are fetched again from the host's mirrors (vm/lib.sh) for every layer and
# every use that installs. One user of a SUITE at a time (rootfs_lock).
# Needs root (mount, chroot).

ROOTFS=$CACHE/rootfs

# rootfs_suites SUITE: the suites a user of that release has (the security
# archive too: the kernels come from there).
rootfs_suites() {
	case $1 in
	bullseye | bookworm | trixie) echo "$1 $1-security" ;;
	*) die "no clean root for '$1' (bullseye, bookworm or trixie)" ;;
	esac
}

# rootfs_lock SUITE: hold that suite's lock (fd 8) until the script exits,
# and remove what an earlier use that was killed left behind.
rootfs_lock() {
	local d
	mkdir -p "$ROOTFS/$1"
	exec 8>"$ROOTFS/$1.lock"
	flock 8
	for d in "$ROOTFS/$1"/run.* "$ROOTFS/$1"/*.new; do
		[ -d "$d" ] || continue
		umount -R "$d/root" 2>/dev/null || true
		! grep -q " ${d}/" /proc/self/mountinfo ||
			die "$d is still mounted; unmount it and remove it"
		rm -rf "$d"
	done
}

rootfs_mounts=() rootfs_runs=() rootfs_log=/dev/null
# rootfs_cleanup: unmount everything rootfs_mount mounted and remove the
# throwaway layers. Call it from the sourcing script's EXIT trap.
rootfs_cleanup() {
	local d
	rootfs_unmount_to 0
	for d in "${rootfs_runs[@]}"; do
		if grep -q " ${d}/" /proc/self/mountinfo; then
			log "warning: $d is still mounted; left in place"
		else
			rm -rf "$d"
		fi
	done
	rootfs_runs=()
}
# rootfs_unmount_to N: unmount the mounts after the first N, newest first.
rootfs_unmount_to() {
	local i
	for ((i = ${#rootfs_mounts[@]} - 1; i >= $1; i--)); do
		umount "${rootfs_mounts[i]}" 2>/dev/null || umount -l "${rootfs_mounts[i]}" || true
		unset "rootfs_mounts[i]"
	done
}

rootfs_bind() { # SRC DEST
	mkdir -p "$2"
	mount --bind "$1" "$2"
	rootfs_mounts+=("$2")
}

# rootfs_in ROOT CMD...: run CMD as root in ROOT, in a clean environment.
rootfs_in() {
	local root=$1
	shift
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"
}
# rootfs_user ROOT CMD...: the same as nobody (what builds and tests that
# need no root run as).
rootfs_user() {
	local root=$1
	shift
	chroot --userspec=65534:65534 "$root" /usr/bin/env -i \
		PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C "$@"
}

# rootfs_apt ROOT [SOURCES-LINE...]: write the root's sources.list (the
# release's suites from the host's mirrors, then the lines given) and
# fetch the package lists.
rootfs_apt() {
	local root=$1 list suite
	shift
	suite=$(cat "$root/etc/pidfd-rootfs-suite")
	# shellcheck disable=SC2046 # one suite per word
	list=$(debian_sources_list $(rootfs_suites "$suite")) || exit 1
	printf '%s\n' "$list" "$@" >"$root/etc/apt/sources.list"
	rootfs_in "$root" apt-get -qq update >&2 || die "apt-get update in the $suite root failed"
}

# rootfs_install ROOT APT-GET-ARGS...: apt-get -y --no-install-recommends
# in ROOT, its output to $rootfs_log (shown if it fails).
rootfs_install() {
	local root=$1
	shift
	rootfs_in "$root" apt-get -q -y --no-install-recommends "$@" >>"$rootfs_log" 2>&1 ||
		{ tail -n 30 "$rootfs_log" >&2; die "apt-get $* failed (log: $rootfs_log)"; }
}

# rootfs_base SUITE: make the base of SUITE if it is not there (once).
rootfs_base() {
	local suite=$1 base=$ROOTFS/$1/base mirror include=()
	[ -f "$ROOTFS/$suite/base.complete" ] && return 0
	command -v debootstrap >/dev/null || die "debootstrap not found (apt-get install debootstrap)"
	log "creating a minimal $suite root in $base (once; 1-3 minutes)"
	rm -rf "$base"
	mirror=$(debian_mirror) || exit 1
	# apt needs the CA certificates for an https mirror.
	case $mirror in https:*) include=(--include=ca-certificates) ;; esac
	debootstrap --variant=minbase "${include[@]}" "$suite" "$base" "$mirror" \
		>"$ROOTFS/$suite/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$ROOTFS/$suite/debootstrap.log" >&2; die "debootstrap of $suite failed"; }
	echo "$suite" >"$base/etc/pidfd-rootfs-suite"
	# The layers of the old base, if any, lie on what is gone.
	rm -rf "${ROOTFS:?}/$suite"/*.key
	# What the layers and uses install comes from lists/ and archives/.
	rm -rf "$base"/var/lib/apt/lists/* "$base"/var/cache/apt/archives/*.deb
	touch "$ROOTFS/$suite/base.complete"
}

# rootfs_mount DIR SUITE [LAYER]: mount base (with LAYER on top) at
# DIR/root with DIR/upper as the writable layer, and /proc, /sys, /dev and
# apt's lists and downloads inside.
rootfs_mount() {
	local dir=$1 suite=$2 layer=${3:-} lower=$ROOTFS/$2/base
	[ -z "$layer" ] || lower=$ROOTFS/$suite/$layer:$lower
	mkdir -p "$dir/upper" "$dir/work" "$dir/root" \
		"$ROOTFS/$suite/lists/partial" "$ROOTFS/$suite/archives/partial"
	mount -t overlay overlay -o "lowerdir=$lower,upperdir=$dir/upper,workdir=$dir/work" "$dir/root" ||
		die "mounting the $suite root (overlayfs) failed"
	rootfs_mounts+=("$dir/root")
	# The host's name service as it is now.
	cp -L /etc/resolv.conf "$dir/root/etc/resolv.conf" 2>/dev/null || true
	# No fsync for every file dpkg unpacks (overlayfs makes each slow): a
	# throwaway root needs no durability, and a layer is synced once made.
	echo force-unsafe-io >"$dir/root/etc/dpkg/dpkg.cfg.d/pidfd-unsafe-io"
	rootfs_bind /proc "$dir/root/proc"
	rootfs_bind /sys "$dir/root/sys"
	rootfs_bind /dev "$dir/root/dev"
	rootfs_bind "$ROOTFS/$suite/lists" "$dir/root/var/lib/apt/lists"
	rootfs_bind "$ROOTFS/$suite/archives" "$dir/root/var/cache/apt/archives"
}

# rootfs_layer SUITE NAME KEY SETUP [ARGS...]: make the layer NAME of
# SUITE unless it exists with the same KEY: mount base, run
# "SETUP ROOT ARGS..." (as this shell's function), keep what it changed.
# SETUP may send what it installs to $rootfs_log (ROOTFS/SUITE/NAME.log).
rootfs_layer() {
	local suite=$1 name=$2 key=$3 setup=$4 new mounts=${#rootfs_mounts[@]} rootfs_log=$rootfs_log
	shift 4
	rootfs_base "$suite"
	if [ -f "$ROOTFS/$suite/$name.key" ] && [ "$(cat "$ROOTFS/$suite/$name.key")" = "$key" ]; then
		return 0
	fi
	log "making the $name layer of the $suite root"
	rootfs_log=$ROOTFS/$suite/$name.log
	: >"$rootfs_log"
	rm -rf "${ROOTFS:?}/$suite/$name" "$ROOTFS/$suite/$name.key"
	new=$ROOTFS/$suite/$name.new
	rootfs_runs+=("$new")
	rootfs_mount "$new" "$suite"
	"$setup" "$new/root" "$@"
	rootfs_unmount_to "$mounts"
	sync -f "$new/upper"
	mv "$new/upper" "$ROOTFS/$suite/$name"
	rm -rf "$new"
	printf '%s\n' "$key" >"$ROOTFS/$suite/$name.key"
}

# rootfs_run SUITE [LAYER]: mount a throwaway root of SUITE (with LAYER)
# and set rootfs_path to it; rootfs_cleanup removes it.
rootfs_run() {
	local dir
	rootfs_base "$1"
	dir=$(mktemp -d "$ROOTFS/$1/run.XXXXXX")
	rootfs_runs+=("$dir")
	rootfs_mount "$dir" "$@"
	rootfs_path=$dir/root
}
