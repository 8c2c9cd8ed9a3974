"""Finds npusim's C++ extension, ``npusim._native``.

An installed package (``pip install ./python``) holds it next to this file. In a
source checkout CMake builds it into ``BUILD/python/npusim/`` (``-DNPUSIM_PYTHON=ON``);
it is looked up there, in ``$NPUSIM_BUILD_DIR`` (default: ``build`` at the repository
root). The pure-Python modules (generator, bundle, capture) work without it.
"""

import importlib.machinery
import importlib.util
import os
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build_dir():
    return os.environ.get("NPUSIM_BUILD_DIR") or os.path.join(_REPO, "build")


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    for folder in (here, os.path.join(build_dir(), "python", "npusim")):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            yield os.path.join(folder, "_native" + suffix)


def load():
    """The extension module, or raises ImportError saying how to build it."""
    if "npusim._native" in sys.modules:
        return sys.modules["npusim._native"]
    for path in _candidates():
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location("npusim._native", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules["npusim._native"] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules["npusim._native"]
                raise
            setattr(sys.modules["npusim"], "_native", module)
            return module
    raise ImportError(
        "npusim's C++ extension (npusim._native) is not built: run `pip install --no-build-isolation ./python`, "
        "or build it in the checkout with `cmake -S . -B build -DNPUSIM_PYTHON=ON && cmake --build build "
        f"--target npusim_python` (looked in {os.path.join(build_dir(), 'python', 'npusim')}; "
        "set NPUSIM_BUILD_DIR for another build folder)")
