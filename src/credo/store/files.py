"""Files credo creates are private whatever the umask: a database file (and so the -wal
and -shm files SQLite makes beside it, which take the database file's mode) is 0600, and a
directory created to hold one is 0700. Files and directories that already exist keep
their mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TextIO

#: the modes of what credo creates: readable and writable by its owner only
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
#: the files SQLite keeps beside a database in WAL mode
SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


def make_private_dirs(path: str | Path) -> list[Path]:
    """Create the directory `path` and its missing parents, each 0700 whatever the umask.
    Directories that exist are left as they are. Returns those it created."""
    path = Path(path)
    missing: list[Path] = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    created = []
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:  # made by someone else meanwhile: theirs, left alone
            continue
        os.chmod(directory, PRIVATE_DIR)  # mkdir's mode passes through the umask
        created.append(directory)
    return created


def _tighten(fd: int) -> None:
    """0600 for a regular file this user owns (never a device, a pipe or another's file)."""
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid():
        os.fchmod(fd, PRIVATE_FILE)


def create_private_file(path: str | Path) -> bool:
    """Create `path` empty and 0600 (whatever the umask) unless it exists; True if made."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    try:
        _tighten(fd)
    finally:
        os.close(fd)
    return True


def open_private(path: str | Path) -> TextIO:
    """`path` opened for writing text (created or truncated), 0600 before anything is
    written: for exports, which hold everything a scope knows. A missing parent directory
    is created 0700."""
    make_private_dirs(Path(path).parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    try:
        _tighten(fd)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def private_sqlite(path: Path) -> bool:
    """Before SQLite opens `path`: its directory made (0700) and, if new, the database
    file created 0600, so that SQLite, which gives the -wal and -shm files the database
    file's mode, makes those 0600 too. True when the file was created here."""
    make_private_dirs(path.parent)
    created = create_private_file(path)
    if created:  # stale sidecars of a database deleted earlier: tightened too
        for suffix in SQLITE_SIDECARS:
            side = path.with_name(path.name + suffix)
            try:
                fd = os.open(side, os.O_RDONLY)
            except OSError:
                continue
            try:
                _tighten(fd)
            finally:
                os.close(fd)
    return created
