# SPDX-License-Identifier: GPL-2.0
# A real program's pidfd calls, as Python makes them (os.pidfd_open() and
# signal.pidfd_send_signal() through syscall(), os.waitid() through
# waitid(), fcntl.ioctl() and socket.getsockopt() through libc), run
# unchanged by check_interpose with and without libpidfd-preload.so.
# Builtin modules only (posix, _signal, fcntl, _socket, _thread): the
# guest has Debian's python3 and its encodings, not the whole library.
# One line per case: "NAME ok VALUE" or "NAME errno N".
import _signal as signal
import _socket as socket
import _thread
import fcntl
import posix as os
import _struct as struct

PIDFD_THREAD = os.O_EXCL
PIDFD_INFO_EXIT = 1 << 3
# _IOWR(0xFF, 11, 64 bytes): upstream's first struct pidfd_info.
PIDFD_GET_INFO = (3 << 30) | (64 << 16) | (0xFF << 8) | 11
SO_PEERPIDFD = 77
SIGTERM = 15


def report(name, fn):
    try:
        print(name, "ok", fn(), flush=True)
    except OSError as e:
        print(name, "errno", e.errno, flush=True)


def get_info(fd, mask):
    """(mask, exit_code) from PIDFD_GET_INFO."""
    buf = bytearray(64)
    struct.pack_into("Q", buf, 0, mask)
    fcntl.ioctl(fd, PIDFD_GET_INFO, buf)
    got, = struct.unpack_from("Q", buf, 0)
    code, = struct.unpack_from("i", buf, 60)
    return got, code


def thread_open():
    """A pidfd for another thread (6.9's PIDFD_THREAD)."""
    tid_r, tid_w = os.pipe()
    go_r, go_w = os.pipe()
    _thread.start_new_thread(lambda: (os.write(tid_w, b"%d" % _thread.get_native_id()),
                                      os.read(go_r, 1)), ())
    tid = int(os.read(tid_r, 16))
    try:
        fd = os.pidfd_open(tid, PIDFD_THREAD)
        os.close(fd)
        return tid != os.getpid()
    finally:
        os.write(go_w, b"x")


def exit_status():
    """A grandchild's exit status after its parent reaped it (6.15)."""
    r, w = os.pipe()
    go_r, go_w = os.pipe()
    child = os.fork()
    if child == 0:
        g = os.fork()
        if g == 0:
            os.read(go_r, 1)
            os._exit(7)
        os.write(w, b"%d" % g)
        os.waitpid(g, 0)
        os._exit(0)
    g = int(os.read(r, 16))
    fd = os.pidfd_open(g)
    os.write(go_w, b"x")
    os.waitpid(child, 0)
    try:
        mask, code = get_info(fd, PIDFD_INFO_EXIT)
        return code if mask & PIDFD_INFO_EXIT else "none"
    finally:
        os.close(fd)


def waitid_pidfd():
    child = os.fork()
    if child == 0:
        os._exit(3)
    fd = os.pidfd_open(child)
    res = os.waitid(os.P_PIDFD, fd, os.WEXITED)
    os.close(fd)
    return res.si_status


def signal_child():
    child = os.fork()
    if child == 0:
        while True:
            signal.pause()
    fd = os.pidfd_open(child)
    signal.pidfd_send_signal(fd, SIGTERM)
    _, status = os.waitpid(child, 0)
    os.close(fd)
    return os.WTERMSIG(status)


def fdinfo_pid(fd):
    """The "Pid:" of a pidfd's fdinfo (either kind has it)."""
    f = os.open("/proc/self/fdinfo/%d" % fd, os.O_RDONLY)
    try:
        text = os.read(f, 4096).decode()
    finally:
        os.close(f)
    for line in text.splitlines():
        if line.startswith("Pid:"):
            return int(line[4:])
    return None


def peer():
    """SO_PEERPIDFD (6.5) of a socketpair: ourselves."""
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    fd, = struct.unpack("i", a.getsockopt(socket.SOL_SOCKET, SO_PEERPIDFD, 4))
    try:
        return fdinfo_pid(fd) == os.getpid()
    finally:
        os.close(fd)
        a.close()
        b.close()


report("thread_open", thread_open)
report("exit_status", exit_status)
report("waitid", waitid_pidfd)
report("signal", signal_child)
report("peer", peer)
