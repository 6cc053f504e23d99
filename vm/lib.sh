# Shared helpers for the vm/ scripts (sourced, not executed).
# shellcheck shell=bash disable=SC2034 # the variables are for the sourcing scripts

CACHE=${PIDFD_DKMS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pidfd-dkms}
# The top of the source tree: vm/ lives directly below it.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${PIDFD_BUILD_DIR:-$TOP/build}

log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# kernel_dir SERIES: the cache directory of that kernel, fetching it first
# if needed. A path to an already fetched directory is accepted as is.
kernel_dir() {
	if [ -f "$1/release" ] && [ -e "$1/vmlinuz" ]; then
		(cd "$1" && pwd)
	else
		"$TOP/vm/fetch-kernel" "$1" || die "could not fetch kernel $1"
	fi
}
