"""`tf.io.gfile`: TensorFlow's file API over the local file system, with
TensorFlow's errors (NotFoundError, AlreadyExistsError, ...).

    with gfile.GFile("out/a.txt", "w") as f:
        f.write("hello\\n")
    gfile.GFile("out/a.txt").read()          # 'hello\\n' ('rb' gives bytes)
    gfile.glob("out/*.txt"), gfile.listdir("out"), gfile.walk("out")

Text modes read UTF-8 and count `read(n)` in bytes, as TensorFlow does.
Only local paths: URL schemes (gs://, s3://) are not registered.
"""

import collections
import glob as _glob
import os
import shutil

from runtime._src.core.errors import (AlreadyExistsError, FailedPreconditionError,
                                      InvalidArgumentError, NotFoundError,
                                      PermissionDeniedError)

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join",
           "listdir", "makedirs", "mkdir", "remove", "rename", "rmtree", "stat", "walk"]

_MODES = ("r", "w", "a", "r+", "w+", "a+")


def _path(path):
    if hasattr(path, "__fspath__"):
        path = path.__fspath__()
    return path.decode("utf-8") if isinstance(path, bytes) else str(path)


def _not_found(path):
    return NotFoundError(f"{path}; No such file or directory")


class GFile:
    """`tf.io.gfile.GFile(name, mode='r')`: a file object. The file opens on
    first use, so a missing file raises NotFoundError when read."""

    def __init__(self, name, mode="r"):
        self.name = _path(name)
        self._binary = "b" in mode
        self.mode = mode
        if mode.replace("b", "") not in _MODES:
            raise InvalidArgumentError("mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._file = None

    def _open(self):
        if self._file is None:
            plain = self.mode.replace("b", "")
            try:
                self._file = open(self.name, plain + "b")
            except FileNotFoundError:
                raise _not_found(self.name) from None
            except IsADirectoryError:
                raise FailedPreconditionError(f"{self.name}; Is a directory") from None
        return self._file

    def _text(self, data):
        return data if self._binary else data.decode("utf-8")

    def _check(self, writing):
        wants = self.mode.replace("b", "")
        if writing and wants == "r":
            raise PermissionDeniedError("File isn't open for writing")
        if not writing and wants in ("w", "a"):
            raise PermissionDeniedError("File isn't open for reading")
        return self._open()

    def read(self, n=-1):
        """The next `n` bytes (all when n < 0), str in text modes."""
        f = self._check(False)
        return self._text(f.read() if n is None or n < 0 else f.read(n))

    def readline(self):
        return self._text(self._check(False).readline())

    def readlines(self):
        return [self._text(line) for line in self._check(False).readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def write(self, file_content):
        """Write str (as UTF-8) or bytes."""
        f = self._check(True)
        f.write(file_content.encode("utf-8") if isinstance(file_content, str)
                else bytes(file_content))

    def seek(self, offset=None, whence=0, position=None):
        if position is not None:
            offset = position
        self._open().seek(offset, whence)

    def tell(self):
        return self._open().tell()

    def size(self):
        if self._file is not None:
            self._file.flush()
        return stat(self.name).length

    def seekable(self):
        return True

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


FileStatistics = collections.namedtuple("FileStatistics",
                                        ["length", "mtime_nsec", "is_directory"])


def exists(path):
    """True when the file or folder exists."""
    return os.path.exists(_path(path))


def isdir(path):
    return os.path.isdir(_path(path))


def stat(path):
    """FileStatistics(length, mtime_nsec, is_directory) of a path."""
    path = _path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _not_found(path) from None
    is_dir = os.path.isdir(path)
    return FileStatistics(0 if is_dir else st.st_size, st.st_mtime_ns, is_dir)


def listdir(path):
    """The names in a folder (NotFoundError if it is not one)."""
    path = _path(path)
    if not os.path.isdir(path):
        raise NotFoundError(f"Could not find directory {path}")
    return os.listdir(path)


def glob(pattern):
    """The paths matching a pattern (or any of a list of patterns)."""
    patterns = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    out = []
    for p in patterns:
        out.extend(sorted(_glob.glob(_path(p))))
    return out


def makedirs(path):
    """Make a folder and its parents; an existing folder is fine."""
    os.makedirs(_path(path), exist_ok=True)


def mkdir(path):
    """Make one folder (its parent must exist); an existing folder is fine."""
    path = _path(path)
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise AlreadyExistsError(f"{path}; File exists") from None
    except FileNotFoundError:
        raise _not_found(path) from None


def remove(path):
    """Delete a file."""
    path = _path(path)
    if os.path.isdir(path):
        raise FailedPreconditionError(f"{path}; Is a directory")
    try:
        os.remove(path)
    except FileNotFoundError:
        raise _not_found(path) from None


def rmtree(path):
    """Delete a folder and everything in it."""
    path = _path(path)
    if not os.path.exists(path):
        raise NotFoundError(f"{path} not found")
    shutil.rmtree(path)


def _check_target(src, dst, overwrite):
    if not os.path.exists(src):
        raise _not_found(src)
    if not overwrite and os.path.exists(dst):
        raise AlreadyExistsError("file already exists")


def copy(src, dst, overwrite=False):
    """Copy a file; AlreadyExistsError if `dst` exists unless `overwrite`."""
    src, dst = _path(src), _path(dst)
    _check_target(src, dst, overwrite)
    shutil.copyfile(src, dst)


def rename(src, dst, overwrite=False):
    """Move a file or folder; AlreadyExistsError if `dst` exists unless `overwrite`."""
    src, dst = _path(src), _path(dst)
    _check_target(src, dst, overwrite)
    os.replace(src, dst)


def walk(top, topdown=True, onerror=None):
    """(folder, subfolder names, file names) of each folder under `top`; no
    entries when `top` does not exist."""
    top = _path(top)
    try:
        names = os.listdir(top)
    except OSError:
        if onerror is not None:
            onerror(NotFoundError(f"Could not find directory {top}"))
        return
    dirs = [n for n in names if os.path.isdir(os.path.join(top, n))]
    files = [n for n in names if n not in dirs]
    if topdown:
        yield top, dirs, files
    for d in dirs:
        yield from walk(os.path.join(top, d), topdown, onerror)
    if not topdown:
        yield top, dirs, files


def join(path, *paths):
    """Paths joined with '/' (TensorFlow's os.path.join for local and URL paths)."""
    return os.path.join(_path(path), *(_path(p) for p in paths))


def get_registered_schemes():
    """The URL schemes paths may use: only local files here."""
    return ["file", ""]
