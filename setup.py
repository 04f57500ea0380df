"""Build: the pure-Python package plus the optional Cython kernels in ext/.

`encodings` would clash with the standard library's module of that name, so the three code
folders solvers/, encodings/ and ext/ are mapped into the solodeck namespace here. The rules
pages in docs/rules/ are copied into the package so `solodeck rules GAME` works when installed, and
so are the hint viewer's page (viewer/) for `solodeck view HINTS.json` and the puzzles (puzzles/<game>/
*.toml, for `solodeck puzzles` and `puzzle:GAME/NAME`). An editable install reads all three from the
checkout instead. MANIFEST.in puts them in a source distribution.
A kernel that fails to compile is skipped with a warning: the package then runs on the
pure-Python reference (slower), exactly as with SOLODECK_NO_EXTENSIONS=1.
"""
import glob
import os
import platform
import shutil
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py


class BuildPyWithRules(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "solodeck", "rules")
        os.makedirs(target, exist_ok=True)
        for page in glob.glob(os.path.join("docs", "rules", "*.md")):
            shutil.copy(page, target)
        target = os.path.join(self.build_lib, "solodeck", "viewer")
        os.makedirs(target, exist_ok=True)
        for page in glob.glob(os.path.join("viewer", "*.*")):
            shutil.copy(page, target)
        for puzzle in glob.glob(os.path.join("puzzles", "*", "*.toml")):
            target = os.path.join(self.build_lib, "solodeck", "puzzles", os.path.basename(os.path.dirname(puzzle)))
            os.makedirs(target, exist_ok=True)
            shutil.copy(puzzle, target)


class OptionalBuildExt(build_ext):
    def run(self):
        if self.extensions:
            sys.stderr.write(f"solodeck: compiling {len(self.extensions)} Cython kernels with the C compiler "
                             "(about a minute the first time; without a compiler they are skipped and solodeck "
                             "runs on its pure-Python engines, slower)\n")
            sys.stderr.flush()
        try:
            super().run()
        except Exception as exc:  # no compiler: the pure-Python reference still works
            print(f"warning: Cython kernels not built ({exc}); solodeck will use the pure-Python engines")

    def build_extension(self, ext):
        target = self.get_ext_fullpath(ext.name)
        earlier = os.path.join("ext", os.path.basename(target))  # what an earlier (editable) install left here
        if (os.path.abspath(earlier) != os.path.abspath(target) and os.path.exists(earlier)
                and all(os.path.getmtime(earlier) >= os.path.getmtime(src) for src in ext.sources)):
            # the same kernel for this Python (the file name carries its ABI), built from these very
            # sources: a second `pip install` copies it instead of compiling every kernel again
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(earlier, target)
            return
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"warning: kernel {ext.name} not built ({exc})")


def compile_args():
    """-O3, and -mpopcnt on an x86-64 machine whose processor has the instruction (Linux: its
    /proc/cpuinfo says so): the kernels count the bits of card sets everywhere, and without it
    each count is a library call (Friends in High Places: 8-20% faster with it). The kernels are
    built on the machine that runs them (pip install), so the check is made there."""
    args = ["-O3"]
    try:
        with open("/proc/cpuinfo") as info:
            if platform.machine() in ("x86_64", "AMD64") and " popcnt" in info.read():
                args.append("-mpopcnt")
    except OSError:
        pass
    return args


def kernels():
    sources = sorted(glob.glob(os.path.join("ext", "*.pyx")))
    if not sources or os.environ.get("SOLODECK_SKIP_BUILD_EXT"):
        return []
    from Cython.Build import cythonize

    built, args = [], compile_args()
    headers = max((os.path.getmtime(p) for p in glob.glob(os.path.join("ext", "*.pxd"))), default=0.0)
    for source in sources:  # one at a time: a kernel that does not translate must not stop the others
        name = f"solodeck.ext.{os.path.splitext(os.path.basename(source))[0]}"
        translated = source[:-len(".pyx")] + ".c"
        if os.path.exists(translated) and os.path.getmtime(translated) >= max(os.path.getmtime(source), headers):
            # Already translated from these sources: build from the C file, so a second `pip install`
            # (whose fresh build environment makes Cython's own headers look new) compiles nothing
            # (setuptools skips a kernel whose .so is newer than its C file).
            built.append(Extension(name, [translated], extra_compile_args=args))
            continue
        try:
            # include_path: the kernels cimport their common inline code from ext/shared.pxd
            built += cythonize([Extension(name, [source], extra_compile_args=args)], language_level=3,
                               include_path=["ext"],
                               compiler_directives={"boundscheck": False, "wraparound": False,
                                                    "cdivision": True, "initializedcheck": False})
        except Exception as exc:
            print(f"warning: kernel {name} not translated ({exc}); its game uses the pure-Python engine")
    return built


GAME_PACKAGES = sorted(f"solodeck.games.{os.path.basename(os.path.dirname(p))}"
                       for p in glob.glob(os.path.join("solodeck", "games", "*", "__init__.py")))

setup(
    packages=["solodeck", "solodeck.games", *GAME_PACKAGES, "solodeck.solvers", "solodeck.encodings", "solodeck.ext"],
    package_dir={"solodeck": "solodeck", "solodeck.solvers": "solvers",
                 "solodeck.encodings": "encodings", "solodeck.ext": "ext"},
    package_data={"solodeck": ["schema/*.json"], "solodeck.ext": ["*.pyx", "*.pxd"]},
    ext_modules=kernels(),
    cmdclass={"build_py": BuildPyWithRules, "build_ext": OptionalBuildExt},
)
