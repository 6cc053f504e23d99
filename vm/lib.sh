# Shared helpers for the vm/ scripts.
CACHE=${PIDFD_DKMS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pidfd-dkms}
log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }
