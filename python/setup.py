"""Builds npusim's C++ extension with CMake from the repository this folder is in
(pip builds a local folder in place, so ../src is there). Metadata: pyproject.toml.

NPUSIM_PIP_BUILD_DIR picks the CMake build folder (default: build-pip at the
repository root, kept between installs so that a second install only relinks).
"""

import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if not os.path.exists(os.path.join(REPO, "CMakeLists.txt")):
            sys.exit(f"npusim: {REPO} has no CMakeLists.txt; install from a checkout: pip install ./python")
        build = os.environ.get("NPUSIM_PIP_BUILD_DIR") or os.path.join(REPO, "build-pip")
        configure = ["cmake", "-S", REPO, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DNPUSIM_PYTHON=ON",
                     "-DNPUSIM_TESTS=OFF", "-DNPUSIM_BENCH=OFF", f"-DPython_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", build, "--target", "npusim_python", "-j", jobs])
        built = glob.glob(os.path.join(build, "python", "npusim", "_native*.so"))
        if len(built) != 1:
            sys.exit(f"npusim: expected one extension under {build}/python/npusim, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(ext_modules=[Extension("npusim._native", sources=[])], cmdclass={"build_ext": CMakeBuild})
