"""Traceback filtering (autograph.tracebacks): library frames are dropped,
user frames and chained exceptions kept, and the switch turns it off."""

import os
import sys
import traceback

import pytest

from autograph import tracebacks


def files_of(error):
    tb, files = error.__traceback__, []
    while tb is not None:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return files


def write_module(tmp_path, name, text):
    path = tmp_path / name / "__init__.py"
    path.parent.mkdir()
    path.write_text(text)
    return path.parent


@pytest.fixture
def fake_library(tmp_path, monkeypatch):
    """A package `fakelib` registered as internal, calling back into user code."""
    directory = write_module(tmp_path, "fakelib", "def call(fn):\n    return inner(fn)\n\n"
                                                  "def inner(fn):\n    return fn()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(tracebacks, "_INTERNAL_DIRS", list(tracebacks._INTERNAL_DIRS))
    tracebacks.register_internal_path(str(directory))
    import fakelib
    yield fakelib, str(directory)
    sys.modules.pop("fakelib", None)
    tracebacks.enable_traceback_filtering()


def user_fails():
    raise ValueError("bad value")


def test_library_frames_are_dropped_user_frames_kept(fake_library):
    fakelib, directory = fake_library
    with pytest.raises(ValueError) as info:
        fakelib.call(user_fails)
    assert any(f.startswith(directory) for f in files_of(info.value))
    error = tracebacks.filtered(info.value)
    assert error is info.value
    files = files_of(error)
    assert not any(f.startswith(directory) for f in files)
    assert files[-1] == __file__           # the raising frame is still last
    text = "".join(traceback.format_exception(error))
    assert 'raise ValueError("bad value")' in text
    assert directory not in text


def test_disabled_filter_keeps_every_frame(fake_library):
    fakelib, directory = fake_library
    tracebacks.disable_traceback_filtering()
    assert not tracebacks.is_traceback_filtering_enabled()
    with pytest.raises(ValueError) as info:
        fakelib.call(user_fails)
    before = files_of(info.value)
    assert files_of(tracebacks.filtered(info.value)) == before
    tracebacks.enable_traceback_filtering()
    assert tracebacks.is_traceback_filtering_enabled()


def test_all_internal_traceback_keeps_entry_and_raising_frames(fake_library):
    fakelib, directory = fake_library
    with pytest.raises(TypeError) as info:
        fakelib.call(None)                 # fails inside fakelib itself
    error = info.value
    error.with_traceback(error.__traceback__.tb_next)    # drop this test's frame
    before = files_of(error)
    assert len(before) == 2 and all(f.startswith(directory) for f in before)
    tb = error.__traceback__
    entry, raising = tb.tb_frame.f_code.co_name, tb.tb_next.tb_frame.f_code.co_name
    assert files_of(tracebacks.filtered(error)) == before
    assert (entry, raising) == ("call", "inner")


def test_all_internal_traceback_of_three_frames_drops_the_middle(fake_library, tmp_path):
    fakelib, directory = fake_library
    (tmp_path / "fakelib" / "deep.py").write_text(
        "def a():\n    return b()\n\ndef b():\n    return c()\n\ndef c():\n    raise KeyError('k')\n")
    from fakelib import deep
    with pytest.raises(KeyError) as info:
        deep.a()
    error = info.value
    error.with_traceback(error.__traceback__.tb_next)
    assert len(files_of(error)) == 3
    tracebacks.filtered(error)
    names = []
    tb = error.__traceback__
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert names == ["a", "c"]
    sys.modules.pop("fakelib.deep", None)


def test_chained_exceptions_are_filtered_too(fake_library):
    fakelib, directory = fake_library

    def wraps():
        try:
            fakelib.call(user_fails)
        except ValueError as e:
            raise RuntimeError("while calling") from e

    with pytest.raises(RuntimeError) as info:
        fakelib.call(wraps)
    error = tracebacks.filtered(info.value)
    assert isinstance(error.__cause__, ValueError)
    for e in (error, error.__cause__):
        assert not any(f.startswith(directory) for f in files_of(e))


def test_register_internal_path_is_idempotent(monkeypatch, tmp_path):
    monkeypatch.setattr(tracebacks, "_INTERNAL_DIRS", [])
    tracebacks.register_internal_path(str(tmp_path))
    tracebacks.register_internal_path(str(tmp_path) + os.sep)
    assert tracebacks._INTERNAL_DIRS == [str(tmp_path) + os.sep]
