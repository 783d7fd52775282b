"""Copies libgateau.so into the package when pip builds it, so that the
installed package carries its engine: from GATEAU_LIBRARY, else from the
source tree's build folder (../build).  The rest is in pyproject.toml."""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class build_py_with_library(build_py):
    def run(self):
        library = os.environ.get("GATEAU_LIBRARY",
                                 os.path.join(HERE, "..", "build", "libgateau.so"))
        if not os.path.exists(library):
            raise SystemExit("gateau: %s not found: build the library first (cmake --build "
                             "build) or set GATEAU_LIBRARY" % library)
        super().run()
        target = os.path.join(self.build_lib, "gateau", "libgateau.so")
        shutil.copyfile(os.path.realpath(library), target)


setup(cmdclass={"build_py": build_py_with_library})
