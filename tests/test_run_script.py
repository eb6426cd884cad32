"""`./run` on a fresh machine (issue #13, set-up): it makes and uses a project virtual
environment when the Python it is given is not inside one (so Debian's externally-managed
system Python works), skips the install when nothing changed, and installs only the runtime
packages for `dashboard` and the test extras for `tests`.

A real install of this project takes minutes (hundreds of MB from PyPI), so these tests run the
real `run` script on a tiny fake project instead: its build backend and its two dependencies are
made here, offline. The fake `voila` and `pytest` modules print where they run and with which
arguments, so the tests see exactly what `./run dashboard` and `./run tests` execute.
`RULES_EXPLORER_REAL_SETUP=1` adds the full install of this project on a clone (slow).
"""

from __future__ import annotations

import base64
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = Path("/usr/bin/python3")

# The fake project's build backend: an editable wheel that is one .pth line (PEP 517/660).
BACKEND = '''
import base64, hashlib, os, zipfile

METADATA = """Metadata-Version: 2.1
Name: fakeproj
Version: 1
Provides-Extra: test
Requires-Dist: fake-runtime-dep
Requires-Dist: fake-test-dep ; extra == "test"
"""

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def _wheel(directory, files):
    name = "fakeproj-1-py3-none-any.whl"
    files = {**files, "fakeproj-1.dist-info/METADATA": METADATA.encode(),
             "fakeproj-1.dist-info/WHEEL":
                 b"Wheel-Version: 1.0\\nGenerator: fake\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
    record = "\\n".join(_record_line(n, d) for n, d in files.items())
    record += "\\nfakeproj-1.dist-info/RECORD,,\\n"
    with zipfile.ZipFile(os.path.join(directory, name), "w") as whl:
        for n, d in files.items():
            whl.writestr(n, d)
        whl.writestr("fakeproj-1.dist-info/RECORD", record)
    return name

def get_requires_for_build_wheel(config_settings=None):
    return []

get_requires_for_build_editable = get_requires_for_build_wheel

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {"fakeproj/__init__.py": b""})

def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {"fakeproj.pth": os.getcwd().encode() + b"\\n"})
'''

PYPROJECT = """[build-system]
requires = []
build-backend = "fake_backend"
backend-path = ["."]

[project]
name = "fakeproj"
version = "1"
"""

# Stand-ins for voila and pytest: report the interpreter's environment and the arguments.
REPORTER = (
    "import json, os, sys\nprint(json.dumps({'prefix': sys.prefix, 'argv': sys.argv[1:], "
    "'path': os.environ['PATH'].split(os.pathsep)}))\n"
)


def write_wheel(directory: Path, name: str, files: dict[str, str]) -> None:
    dist = name.replace("-", "_")
    contents = {path: text.encode() for path, text in files.items()}
    contents[f"{dist}-1.dist-info/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1\n".encode()
    contents[f"{dist}-1.dist-info/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    lines = []
    for path, data in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{path},sha256={digest},{len(data)}")
    lines.append(f"{dist}-1.dist-info/RECORD,,")
    with zipfile.ZipFile(directory / f"{dist}-1-py3-none-any.whl", "w") as whl:
        for path, data in contents.items():
            whl.writestr(path, data)
        whl.writestr(f"{dist}-1.dist-info/RECORD", "\n".join(lines) + "\n")


@pytest.fixture
def fake_project(tmp_path: Path) -> Path:
    """A checkout with the real `run` script and a tiny project whose dependencies are wheels
    in a local folder (pip runs with --no-index)."""
    project, wheels = tmp_path / "checkout", tmp_path / "wheels"
    (project / "notebooks").mkdir(parents=True)
    wheels.mkdir()
    shutil.copy2(ROOT / "run", project / "run")
    (project / "fake_backend.py").write_text(BACKEND)
    (project / "pyproject.toml").write_text(PYPROJECT)
    (project / "notebooks" / "explorer.ipynb").write_text("{}")
    write_wheel(wheels, "fake-runtime-dep", {"voila/__init__.py": "", "voila/__main__.py": REPORTER})
    write_wheel(wheels, "fake-test-dep", {"pytest/__init__.py": "", "pytest/__main__.py": REPORTER})
    return project


def run(project: Path, *args: str, python: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHON": str(python),
        "CI": "true",
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(project.parent / "wheels"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for name in ("VIRTUAL_ENV", "RUN_NO_VENV", "PIP_CONSTRAINT", "PYTHONHOME"):
        env.pop(name, None)
    result = subprocess.run(
        ["./run", *args],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"./run {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def report(result: subprocess.CompletedProcess) -> dict:
    """What the fake voila/pytest printed: the environment it ran in and its arguments."""
    return json.loads(result.stdout.strip().splitlines()[-1])


def externally_managed_python() -> Path | None:
    if not SYSTEM_PYTHON.exists():
        return None
    where = "import sysconfig; print(sysconfig.get_path('stdlib'))"
    stdlib = subprocess.run([str(SYSTEM_PYTHON), "-c", where], capture_output=True, text=True).stdout.strip()
    marked = glob.glob("/usr/lib/python3*/EXTERNALLY-MANAGED")
    return SYSTEM_PYTHON if stdlib and Path(stdlib, "EXTERNALLY-MANAGED").exists() and marked else None


def installed(project: Path, module: str) -> bool:
    python = project / ".venv" / "bin" / "python"
    return subprocess.run([str(python), "-c", f"import {module}"], capture_output=True).returncode == 0


@pytest.mark.skipif(
    externally_managed_python() is None,
    reason="no externally-managed /usr/bin/python3 (Debian/Ubuntu system Python) here",
)
def test_externally_managed_system_python_gets_a_project_venv(fake_project):
    python = externally_managed_python()
    refused = subprocess.run(
        [str(python), "-m", "pip", "install", "--dry-run", "--no-index", "fakedep"],
        capture_output=True,
        text=True,
    )
    if "No module named pip" not in refused.stderr:  # the premise: pip refuses the system Python
        assert "externally-managed-environment" in refused.stderr + refused.stdout

    first = run(fake_project, "dashboard", "--port=1", python=python)
    venv = fake_project / ".venv"
    assert "creating the project environment .venv" in first.stderr
    assert Path(report(first)["prefix"]).resolve() == venv.resolve()
    assert report(first)["argv"] == [
        "notebooks/explorer.ipynb",
        "--template=rules-explorer",
        "--Voila.ip=127.0.0.1",
        "--VoilaExecutor.iopub_timeout=120",
        "--port=1",
    ]
    assert installed(fake_project, "voila") and not installed(fake_project, "pytest"), (
        "dashboard must install the runtime packages only"
    )

    again = run(fake_project, "dashboard", python=python)
    assert "up to date (runtime), nothing to install" in again.stderr
    assert "installing" not in again.stderr

    tests = run(fake_project, "tests", "tests/test_x.py", python=python)
    assert "installing the Python packages (test)" in tests.stderr
    assert Path(report(tests)["prefix"]).resolve() == venv.resolve()
    assert report(tests)["argv"] == ["-q", "-n", "2", "tests/test_x.py"]  # README's test command

    assert "nothing to install" in run(fake_project, "dashboard", python=python).stderr  # test covers runtime
    assert "nothing to install" in run(fake_project, "tests", python=python).stderr

    with open(fake_project / "pyproject.toml", "a") as changed:
        changed.write("# a changed dependency list\n")
    assert "installing the Python packages (runtime)" in run(fake_project, "dashboard", python=python).stderr


def test_inside_a_venv_the_script_uses_it(fake_project, tmp_path):
    """Already in a virtual environment (e.g. the user's own): no .venv is made."""
    own = tmp_path / "own-env"
    subprocess.run([sys.executable, "-m", "venv", str(own)], check=True, capture_output=True)
    result = run(fake_project, "dashboard", python=own / "bin" / "python")
    assert Path(report(result)["prefix"]).resolve() == own.resolve()
    assert not (fake_project / ".venv").exists()
    assert (own / "rules-explorer-install.stamp").read_text().split()[1] == "runtime"
    assert Path(report(result)["path"][0]).resolve() == (own / "bin").resolve(), (
        "the environment's commands come first on PATH"
    )


def test_a_broken_venv_is_made_again(fake_project):
    """A .venv left without pip (e.g. venv creation stopped half-way) is rebuilt, not used."""
    (fake_project / ".venv" / "bin").mkdir(parents=True)
    broken = fake_project / ".venv" / "bin" / "python"
    broken.write_text("#!/bin/sh\nexit 1\n")  # an interpreter that cannot run pip
    broken.chmod(0o755)
    result = run(fake_project, "dashboard", python=Path(sys.base_prefix) / "bin" / "python3")
    assert "creating the project environment .venv" in result.stderr
    assert Path(report(result)["prefix"]).resolve() == (fake_project / ".venv").resolve()


def test_the_project_environment_is_first_on_path(fake_project, tmp_path):
    """Issue #20: the tests found `rules-explorer` on a PATH an earlier install had left; a new
    machine's PATH has none, so ./run puts the project environment's bin first."""
    decoy = tmp_path / "decoy-bin"
    decoy.mkdir()
    (decoy / "rules-explorer").write_text("#!/bin/sh\necho decoy\n")
    (decoy / "rules-explorer").chmod(0o755)
    python = Path(sys.base_prefix) / "bin" / "python3"
    env_path = os.environ["PATH"]
    os.environ["PATH"] = f"{decoy}{os.pathsep}{env_path}"
    try:
        result = run(fake_project, "tests", python=python)
    finally:
        os.environ["PATH"] = env_path
    path = report(result)["path"]
    assert Path(path[0]).resolve() == (fake_project / ".venv" / "bin").resolve()
    assert path.index(str(decoy)) > 0


def test_unknown_command_prints_usage():
    result = subprocess.run(
        [str(ROOT / "run"), "nonsense"], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert result.returncode == 64
    assert "./run dashboard | ./run tests" in result.stderr


@pytest.mark.skipif(
    os.environ.get("RULES_EXPLORER_REAL_SETUP") != "1" or externally_managed_python() is None,
    reason="the full install takes minutes: set RULES_EXPLORER_REAL_SETUP=1 (needs an "
    "externally-managed /usr/bin/python3 and PyPI)",
)
def test_real_clone_installs_and_tests_with_the_system_python(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    for changed in ("run", "pyproject.toml"):  # the working tree's versions, committed or not
        shutil.copy2(ROOT / changed, clone / changed)
    env = {**os.environ, "PYTHON": str(SYSTEM_PYTHON), "CI": "true"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run(
        ["./run", "tests", "-n", "0", "tests/test_cli.py"],
        cwd=clone,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (clone / ".venv" / "rules-explorer-install.stamp").read_text().split()[1] == "test"
