"""Whether an optional extra's package is installed, asked without importing it:
a test module skips at collection when it is missing and imports the package
only in the tests that use it, so a test process that runs none of them never
pays for the import (TensorBoard's event reader pulls in boto3 and its
TensorFlow stub: about 0.5 s)."""

import importlib.util

import pytest


def skip_module_without(package, install):
    """Skip the calling test module when `package` cannot be imported (also when
    tests/test_optional_extras.py hides it), saying what to `pip install`."""
    try:
        found = importlib.util.find_spec(package) is not None
    except ImportError:
        found = False
    if not found:
        pytest.skip(f"{package} is not installed (pip install {install})",
                    allow_module_level=True)
