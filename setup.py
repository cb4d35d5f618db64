"""pip install . (from the repository root): the gk Python module with its
own libgk inside it.

libgk is built by the project's own build, in a temporary directory: the
source tree is copied there (a git checkout: the files git knows, then
./autogen.sh, which needs autoconf, automake and libtool; a release tarball:
the whole tree), configured and built with make.  configure finds the CUDA
toolkit as it always does (nvcc on PATH, $CUDA_HOME or /usr/local/cuda) and
builds CPU-only without it.  Environment:

    GK_CONFIGURE_ARGS  extra configure arguments, e.g. "--without-cuda" or
                       "--with-cuda-arch=90" (one architecture builds faster)
    MAKEFLAGS          as for make (default: -j with every CPU)

The wheel holds python/gk, the built libgk.so.1 and the shipped tuning
tables (data/tuned); the module opens the libgk next to its own file
(python/gk/_lib.py), so nothing needs LD_LIBRARY_PATH or PYTHONPATH.
libgk still links the system's libgomp and libhwloc (Debian: libgomp1,
libhwloc15), so the wheel is for the machine (or distribution) that built it.

Debian's python3-setuptools and python3-wheel build it without the package
index: pip install --no-build-isolation .
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:                     # setuptools < 70: the wheel package's
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:
        bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
SONAME = "libgk.so.1"                   # python/gk/_lib.py opens this name


def version():
    """MAJOR.MINOR.PATCH from configure.ac's m4 definitions."""
    with open(os.path.join(HERE, "configure.ac")) as f:
        text = f.read()
    parts = [re.search(r"m4_define\(\[gk_%s\], \[(\d+)\]\)" % p, text) for p in ("major", "minor", "patch")]
    if not all(parts):
        sys.exit("setup.py: configure.ac has no gk_major/gk_minor/gk_patch definitions")
    return ".".join(m.group(1) for m in parts)


def run(cmd, cwd, env=None):
    print("gk setup.py: (cd %s && %s)" % (cwd, " ".join(shlex.quote(c) for c in cmd)), flush=True)
    try:
        subprocess.check_call(cmd, cwd=cwd, env=env)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("gk setup.py: %s failed in %s: %s" % (cmd[0], cwd, e))


def source_files():
    """The files of the source tree: git's (tracked, and untracked but not
    ignored) in a git checkout, else None (a tarball: copy it all)."""
    if not os.path.exists(os.path.join(HERE, ".git")) or not shutil.which("git"):
        return None
    try:
        out = subprocess.check_output(["git", "-C", HERE, "ls-files", "-z", "--cached", "--others",
                                       "--exclude-standard"])
    except (OSError, subprocess.CalledProcessError):
        return None
    return [p for p in out.decode().split("\0") if p]


def copy_source(to):
    """A clean copy of the source tree in `to` (the checkout is never
    configured or built in: it may be configured in place already, and
    automake refuses a VPATH build from such a tree)."""
    files = source_files()
    if files is None:
        skip = shutil.ignore_patterns(".git", "_san", "_b*", "build", "dist", "*.egg-info", "venv", ".venv",
                                      "__pycache__")
        shutil.copytree(HERE, to, ignore=skip, symlinks=True)
        if os.path.exists(os.path.join(to, "config.status")):   # a tarball configured in place
            run(["make", "distclean"], to)
        return
    for rel in files:
        src = os.path.join(HERE, rel)
        if not os.path.lexists(src):    # deleted in the work tree
            continue
        dst = os.path.join(to, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)


def build_libgk(tmp):
    """configure + make in tmp; the path of the built libgk.so.1."""
    src = os.path.join(tmp, "src")
    copy_source(src)
    if not os.path.exists(os.path.join(src, "configure")):
        missing = [t for t in ("autoreconf", "automake", "libtoolize") if not shutil.which(t)]
        if missing:
            sys.exit("gk setup.py: a git checkout needs ./autogen.sh, which needs autoconf, automake and libtool "
                     "(missing: %s; Debian: tools/install-deps.sh), or build from a release tarball"
                     % ", ".join(missing))
        run(["sh", "./autogen.sh"], src)
    args = ["--without-python", "--without-mpi", "--disable-dependency-tracking"]
    args += shlex.split(os.environ.get("GK_CONFIGURE_ARGS", ""))
    run(["sh", "./configure"] + args, src)
    env = dict(os.environ)
    if "-j" not in env.get("MAKEFLAGS", ""):
        env["MAKEFLAGS"] = (env.get("MAKEFLAGS", "") + " -j%d" % (os.cpu_count() or 1)).strip()
    run(["make", "libgk.la"], src, env)
    lib = os.path.join(src, ".libs", SONAME)
    if not os.path.exists(lib):
        sys.exit("gk setup.py: the build made no %s (look at .libs in %s)" % (SONAME, src))
    return lib


class BuildPyWithLibgk(build_py):
    """build_py, then libgk and the tuning tables into the package."""

    def run(self):
        super().run()
        pkg = os.path.join(self.build_lib, "gk")
        tmp = tempfile.mkdtemp(prefix="gk-pip-build.")
        try:
            lib = build_libgk(tmp)
            shutil.copyfile(lib, os.path.join(pkg, SONAME))    # the file, not libtool's symlink
            os.chmod(os.path.join(pkg, SONAME), 0o755)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        tuned = os.path.join(pkg, "data", "tuned")
        os.makedirs(tuned, exist_ok=True)
        for t in glob.glob(os.path.join(HERE, "data", "tuned", "*.txt")):
            shutil.copy2(t, tuned)


class BinaryDistribution(Distribution):
    """The package holds a binary (libgk): platform-specific, installed in
    platlib, though it has no extension module."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildPyWithLibgk}
if bdist_wheel is not None:
    class BdistWheelPlatform(bdist_wheel):
        """A wheel for this platform (it holds libgk), for any Python 3
        (the module is ctypes: no extension module, no ABI of Python's)."""

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = BdistWheelPlatform

setup(
    name="gk",
    version=version(),
    description="All-pairs shortest paths, a 27-point stencil, SGEMM on GPUs and CPUs (libgk through ctypes)",
    long_description=open(os.path.join(HERE, "README.md"), encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="see the source tree",
    python_requires=">=3.6",
    install_requires=["numpy"],
    package_dir={"": "python"},
    packages=["gk"],
    cmdclass=cmdclass,
    distclass=BinaryDistribution,
    zip_safe=False,
)
