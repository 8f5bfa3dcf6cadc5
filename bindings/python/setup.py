"""setup.py - the extension nqueens._nqueens for pip (pyproject.toml).

It is built in the repository, the library first: `make` builds
build/libnqueens.a (its objects position-independent), which the
extension links whole, its symbols hidden; web/lesson.html, the built
lesson page kept in the repository, goes into the package beside the
module (nqueens.lesson() shows it).  make python does the same without
pip (mk/python.mk).
"""
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LIB = os.path.join(ROOT, "build", "libnqueens.a")


def version():
    text = open(os.path.join(ROOT, "include", "nqueens.h")).read()
    parts = [re.search(r"#define NQ_VERSION_%s (\d+)" % k, text).group(1)
             for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


class BuildExt(build_ext):
    """libnqueens.a by the project's make, then the extension."""

    def run(self):
        subprocess.check_call(["make", "-C", ROOT, "build/libnqueens.a"])
        super().run()


class BuildPy(build_py):
    """The package, and the lesson page beside it."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "nqueens")
        os.makedirs(target, exist_ok=True)
        shutil.copy(os.path.join(ROOT, "web", "lesson.html"), target)


setup(
    version=version(),
    ext_modules=[Extension(
        "nqueens._nqueens", [os.path.relpath(os.path.join(HERE, "src",
                                                          "_nqueens.c"))],
        include_dirs=[os.path.join(ROOT, "include")],
        define_macros=[("NQ_ADVANCED_API", None)],
        extra_compile_args=["-std=gnu11", "-Wall", "-Wextra"],
        extra_objects=[LIB],
        extra_link_args=["-Wl,--exclude-libs,ALL", "-lpthread"])],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy},
)
