"""Reading a file the user named (a pan script, a CA): a regular file only, and a bounded one."""
import os
import stat


def read_limited(path, limit, what):
    """The bytes of the regular file at `path`, at most `limit` of them; OSError otherwise
    (a FIFO, a device or a directory is refused before it is read, so nothing blocks)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{what} is not a regular file")
        if info.st_size > limit:
            raise OSError(f"{what} is over {limit} bytes")
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
        if len(data) > limit:
            raise OSError(f"{what} is over {limit} bytes")
        return data
    finally:
        os.close(fd)
