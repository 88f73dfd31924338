"""`keras.utils.get_file`: a file in Keras's cache folder (`~/.keras/datasets`
by default), copied there from `origin` when missing, checked against
`file_hash`, and unpacked (tar or zip) when `extract`.

    path = get_file("data.csv", origin="file:///srv/data.csv")
    path = get_file("data.csv", origin="https://...")   # already cached: returned

runtime never goes to the network: an origin other than `file://` (or a
plain local path) is only accepted when the file is already in the cache.
A copy prints "Downloading data from ..." and a Progbar of the bytes from 0
to the file's size, as Keras's download does for a small file.
"""

import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.parse
import urllib.request
import warnings
import zipfile

from runtime._src.keras.utils import io_utils, progbar

__all__ = ["get_file"]

_BLOCK = 8192


def _hasher(algorithm, file_hash=None):
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None and
                                 len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def _valid(path, file_hash, algorithm):
    hasher = _hasher(algorithm, file_hash)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65535), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash)


def _local_source(origin):
    """The local path `origin` names (file:// URL or plain path), or None."""
    parts = urllib.parse.urlsplit(origin)
    if parts.scheme == "file":
        return urllib.request.url2pathname(parts.path)
    if parts.scheme == "" and os.path.exists(origin):
        return origin
    return None


def _targets(datadir, fname, provided, origin, unpack):
    """(where the download goes, where it is unpacked) as Keras names them."""
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: "
                             f"'{origin}'.Please specify the `fname` argument.")
    elif os.sep in fname:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify "
                         "the file's parent directory, use the `cache_dir` argument. "
                         f"Received: fname={fname}")
    if not unpack:
        return os.path.join(datadir, fname), None
    if provided and "." in fname:
        stem = fname[:fname.find(".")]
        return os.path.join(datadir, fname), os.path.join(datadir, f"{stem}_extracted")
    return os.path.join(datadir, f"{fname}_archive"), os.path.join(datadir, fname)


def _fetch(origin, target):
    source = _local_source(origin)
    if source is None:
        raise ValueError(f"get_file: cannot download {origin!r}: runtime.keras does not use "
                         "the network. Put the file in the cache folder first (at "
                         f"{target!r}), or pass a file:// origin.")
    io_utils.print_msg(f"Downloading data from {origin}")
    total = os.path.getsize(source)
    bar = progbar.Progbar(total)
    bar.update(0)                           # urlretrieve's first report, as Keras shows it
    with open(source, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst, _BLOCK)
    bar.update(total)


def _extract(archive, folder, archive_format):
    formats = ["tar", "zip"] if archive_format == "auto" else (
        [archive_format] if isinstance(archive_format, str) else list(archive_format or []))
    for kind in formats:
        opener, check = ((tarfile.open, tarfile.is_tarfile) if kind == "tar" else
                         (zipfile.ZipFile, zipfile.is_zipfile))
        if check(archive):
            with opener(archive) as packed:
                if kind == "tar":
                    packed.extractall(folder, filter="data")
                else:
                    packed.extractall(folder)
            return True
    return False


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None, force_download=False):
    """The path of `fname` in the cache (see the module's docstring); with
    `extract` (or `untar`), the folder it was unpacked into."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if cache_dir is None:
        cache_dir = os.environ.get("KERAS_HOME", os.path.join("~", ".keras"))
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(cache_dir)
    if not os.access(base, os.W_OK):
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(),
                            ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    provided = fname
    target, folder = _targets(datadir, os.fspath(fname) if fname else fname, provided,
                              origin, extract or untar)
    download = force_download or not os.path.exists(target)
    if not download and file_hash is not None and not _valid(target, file_hash,
                                                              hash_algorithm):
        io_utils.print_msg("A local file was found, but it seems to be incomplete or outdated "
                           f"because the {hash_algorithm} file hash does not match the "
                           f"original value of {file_hash} so we will re-download the data.")
        download = True
    if download:
        _fetch(origin, target)
        if file_hash is not None and not _valid(target, file_hash, hash_algorithm):
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} "
                             f"file hash does not match the provided value of {file_hash}.")
    if not (extract or untar):
        return target
    if not _extract(target, folder, "tar" if untar else archive_format):
        warnings.warn("Could not extract archive.", stacklevel=2)
    return folder
