"""`./run` on a fresh machine (issue #13, set-up): it makes and uses a project virtual
environment when the Python it is given is not inside one (so Debian's externally-managed
system Python works), skips the install when nothing changed, and installs only the runtime
packages for `dashboard` and the test extras for `tests`.

A real install of this project takes minutes (hundreds of MB from PyPI), so these tests run the
real `run` script on a tiny fake project instead: its build backend and its two dependencies are
made here, offline. The fake `voila` and `pytest` modules print where they run and with which
arguments, so the tests see exactly what `./run dashboard` and `./run tests` execute.
`RULES_EXPLORER_REAL_SETUP=1` adds the full install of this project on a clone (slow).

Issue #44: installs are reproducible. `./run` installs the hash-pinned locks requirements/*.txt
(`pip install --require-hashes`), then the project without dependencies; `./run lock` writes
them with uv. The fake project has its own locks (hashes of its wheels), and this project's
locks are checked against its pyproject.toml without installing anything.
"""

from __future__ import annotations

import base64
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest's own dependency
    import tomli as tomllib

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
requires-python = ">=3.10"
dependencies = ["fake-runtime-dep"]

[project.optional-dependencies]
test = ["fake-test-dep"]
"""

# Stand-ins for voila and pytest: report the interpreter's environment and the arguments.
REPORTER = (
    "import json, os, sys\nprint(json.dumps({'prefix': sys.prefix, 'argv': sys.argv[1:], "
    "'path': os.environ['PATH'].split(os.pathsep)}))\n"
)


def write_wheel(directory: Path, name: str, files: dict[str, str], version: str = "1") -> Path:
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    contents = {path: text.encode() for path, text in files.items()}
    contents[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    contents[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    lines = []
    for path, data in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{path},sha256={digest},{len(data)}")
    lines.append(f"{info}/RECORD,,")
    wheel = directory / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as whl:
        for path, data in contents.items():
            whl.writestr(path, data)
        whl.writestr(f"{info}/RECORD", "\n".join(lines) + "\n")
    return wheel


def pin(wheel: Path) -> str:
    """A lock line for one wheel: its name, version and hash (as uv and pip-compile write it)."""
    name, version = wheel.name.split("-")[:2]
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    return f"{name.replace('_', '-')}=={version} \\\n    --hash=sha256:{digest}\n"


def write_locks(project: Path, runtime: list[Path], test: list[Path]) -> None:
    requirements = project / "requirements"
    requirements.mkdir(exist_ok=True)
    (requirements / "build.txt").write_text("# the fake backend needs no package\n")
    (requirements / "runtime.txt").write_text("".join(pin(w) for w in runtime))
    (requirements / "test.txt").write_text("".join(pin(w) for w in [*runtime, *test]))


RUNTIME_FILES = {"voila/__init__.py": "", "voila/__main__.py": REPORTER}


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
    runtime = write_wheel(wheels, "fake-runtime-dep", RUNTIME_FILES)
    test = write_wheel(wheels, "fake-test-dep", {"pytest/__init__.py": "", "pytest/__main__.py": REPORTER})
    write_locks(project, [runtime], [test])
    return project


def run(
    project: Path, *args: str, python: Path, check: bool = True, extra_env: dict | None = None
) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHON": str(python),
        "CI": "true",
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(project.parent / "wheels"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for name in ("VIRTUAL_ENV", "RUN_NO_VENV", "PIP_CONSTRAINT", "PYTHONHOME", "UV"):
        env.pop(name, None)
    env.update(extra_env or {})
    result = subprocess.run(
        ["./run", *args],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check:
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


def installed_version(project: Path, distribution: str) -> str:
    python = project / ".venv" / "bin" / "python"
    code = f"from importlib import metadata; print(metadata.version({distribution!r}))"
    return subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


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
    assert "installing the Python packages (test, as pinned" in tests.stderr
    assert Path(report(tests)["prefix"]).resolve() == venv.resolve()
    # the README's test command
    assert report(tests)["argv"] == ["-q", "-n", "2", "--durations=25", "tests/test_x.py"]

    assert "nothing to install" in run(fake_project, "dashboard", python=python).stderr  # test covers runtime
    assert "nothing to install" in run(fake_project, "tests", python=python).stderr

    with open(fake_project / "pyproject.toml", "a") as changed:
        changed.write("# a changed dependency list\n")
    changed_install = run(fake_project, "dashboard", python=python)
    assert "installing the Python packages (runtime, as pinned" in changed_install.stderr


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
    shutil.copytree(ROOT / "requirements", clone / "requirements", dirs_exist_ok=True)
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


def test_the_lock_decides_the_versions_and_a_new_lock_installs_again(fake_project):
    """Issue #44: a new machine got whatever was newest that day. With version 2 on the index
    and version 1 in the lock, ./run installs 1; a lock that pins 2 installs again (the stamp
    covers the locks) and gets 2."""
    wheels = fake_project.parent / "wheels"
    old = wheels / "fake_runtime_dep-1-py3-none-any.whl"
    new = write_wheel(wheels, "fake-runtime-dep", RUNTIME_FILES, version="2")
    python = Path(sys.base_prefix) / "bin" / "python3"

    first = run(fake_project, "dashboard", python=python)
    assert "as pinned in requirements/runtime.txt" in first.stderr
    assert installed_version(fake_project, "fake-runtime-dep") == "1"
    assert "nothing to install" in run(fake_project, "dashboard", python=python).stderr

    (fake_project / "requirements" / "runtime.txt").write_text(pin(new))
    again = run(fake_project, "dashboard", python=python)
    assert "installing the Python packages (runtime" in again.stderr
    assert installed_version(fake_project, "fake-runtime-dep") == "2"
    assert old.exists()  # still on offer: the lock, not the index, chose


def test_a_file_whose_hash_differs_from_the_lock_is_refused(fake_project):
    wheels = fake_project.parent / "wheels"
    locked = wheels / "fake_runtime_dep-1-py3-none-any.whl"
    locked.unlink()
    write_wheel(wheels, "fake-runtime-dep", {**RUNTIME_FILES, "voila/extra.py": "tampered = True\n"})
    result = run(fake_project, "dashboard", python=Path(sys.base_prefix) / "bin" / "python3", check=False)
    assert result.returncode != 0
    assert "DO NOT MATCH THE HASHES" in result.stderr and "fake-runtime-dep" in result.stderr
    assert not installed(fake_project, "voila")
    assert not (fake_project / ".venv" / "rules-explorer-install.stamp").exists()


def test_a_dependency_the_lock_lacks_is_named(fake_project):
    """pyproject.toml asks for a package that no lock pins (a dependency added without
    ./run lock): ./run says which and what to run, instead of an ImportError later."""
    (fake_project / "requirements" / "runtime.txt").write_text("# nothing pinned\n")
    result = run(fake_project, "dashboard", python=Path(sys.base_prefix) / "bin" / "python3", check=False)
    assert result.returncode != 0
    assert "pyproject.toml asks for fake-runtime-dep (not installed)" in result.stderr
    assert "./run lock" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_locks_are_named(fake_project):
    (fake_project / "requirements" / "test.txt").unlink()
    result = run(fake_project, "setup", python=Path(sys.base_prefix) / "bin" / "python3", check=False)
    assert result.returncode == 66
    assert "requirements/test.txt is missing: the locks are written by ./run lock" in result.stderr


def uv_program() -> str | None:
    """The uv of the test environment (the test extra installs it), else one on PATH."""
    beside = Path(sys.executable).parent / "uv"
    return str(beside) if beside.exists() else shutil.which("uv")


@pytest.mark.skipif(uv_program() is None, reason="uv is not installed (the test extra has it)")
def test_run_lock_writes_hash_pinned_locks_that_run_installs(fake_project, tmp_path):
    """`./run lock`, the one command that updates the locks, with the real uv on the local
    wheel folder: every pin carries the wheel's sha256, the pins stay put when newer releases
    appear, and `--upgrade` takes them."""
    wheels = fake_project.parent / "wheels"
    shutil.rmtree(fake_project / "requirements")
    two = write_wheel(wheels, "fake-runtime-dep", RUNTIME_FILES, version="2")
    python = Path(sys.base_prefix) / "bin" / "python3"
    offline = {"UV": uv_program(), "UV_CACHE_DIR": str(tmp_path / "uv-cache")}
    index = ("--no-index", "--find-links", str(wheels))

    run(fake_project, "lock", *index, python=python, extra_env=offline)
    requirements = fake_project / "requirements"
    runtime = (requirements / "runtime.txt").read_text()
    digest = hashlib.sha256(two.read_bytes()).hexdigest()
    assert f"fake-runtime-dep==2 \\\n    --hash=sha256:{digest}" in runtime
    assert "fake-test-dep" not in runtime
    test = (requirements / "test.txt").read_text()
    assert "fake-runtime-dep==2" in test and "fake-test-dep==1" in test
    assert "./run lock" in runtime  # the command that writes it again, in its header
    assert "needs no package" in (requirements / "build.txt").read_text()

    tests = run(fake_project, "tests", python=python)
    assert "as pinned in requirements/test.txt" in tests.stderr
    assert installed_version(fake_project, "fake-runtime-dep") == "2"

    write_wheel(wheels, "fake-runtime-dep", RUNTIME_FILES, version="3")
    run(fake_project, "lock", *index, python=python, extra_env=offline)
    assert "fake-runtime-dep==2 " in (requirements / "runtime.txt").read_text(), "a pin that fits stays"
    run(fake_project, "lock", *index, "--upgrade", python=python, extra_env=offline)
    assert "fake-runtime-dep==3 " in (requirements / "runtime.txt").read_text()
    assert "fake-runtime-dep==3 " in (requirements / "test.txt").read_text()


# This project's own locks, read without installing anything.

LOCK_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(?:\s*;\s*(.+?))?\s*\\?$")


def read_lock(path: Path) -> tuple[list[dict], set[str]]:
    """The entries of a uv lock (name, version, marker, hashes) and the packages it says are
    there for pyproject.toml itself ("# via rules-explorer (pyproject.toml)")."""
    entries, direct = [], set()
    for line in path.read_text().splitlines():
        match = LOCK_ENTRY.match(line)
        if match:
            name, version, marker = match.groups()
            entries.append(
                {"name": canonicalize_name(name), "version": version, "marker": marker, "hashes": []}
            )
        elif line.strip().startswith("--hash=sha256:"):
            entries[-1]["hashes"].append(line.strip().removesuffix("\\").strip().split(":", 1)[1])
        elif line.strip().lstrip("#").strip().removeprefix("via ") == "rules-explorer (pyproject.toml)":
            direct.add(entries[-1]["name"])
    return entries, direct


def for_this_python(entries: list[dict]) -> dict[str, dict]:
    chosen = {}
    for entry in entries:
        if entry["marker"] is None or Marker(entry["marker"]).evaluate():
            assert entry["name"] not in chosen, f"{entry['name']} is pinned twice for this Python"
            chosen[entry["name"]] = entry
    return chosen


def test_the_locks_pin_exactly_what_pyproject_declares_with_hashes():
    """Every dependency pyproject.toml declares (the runtime packages, the test extra, the
    build backend) is in its lock, at a version it allows for this Python, with sha256 hashes;
    nothing else is there as a direct dependency; the test lock is the runtime lock plus the
    test tools (the same versions), so `./run tests` tests what `./run dashboard` runs."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = {
        "runtime": [Requirement(r) for r in project["project"]["dependencies"]],
        "test": [
            Requirement(r)
            for r in project["project"]["dependencies"] + project["project"]["optional-dependencies"]["test"]
        ],
        "build": [Requirement(r) for r in project["build-system"]["requires"]],
    }
    locks = {}
    for kind, requirements in declared.items():
        entries, direct = read_lock(ROOT / "requirements" / f"{kind}.txt")
        assert entries, f"requirements/{kind}.txt pins nothing"
        for entry in entries:
            assert entry["hashes"], f"requirements/{kind}.txt: {entry['name']} has no hash"
            assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in entry["hashes"]), entry["name"]
        pinned = for_this_python(entries)
        for requirement in requirements:
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"pyproject.toml's {requirement} is not in requirements/{kind}.txt"
            version = pinned[name]["version"]
            assert requirement.specifier.contains(version, prereleases=True), (
                f"requirements/{kind}.txt pins {name}=={version}, pyproject.toml asks {requirement}"
            )
        if kind != "build":  # uv names the packages there for pyproject.toml itself
            assert direct == {canonicalize_name(r.name) for r in requirements}, (
                f"requirements/{kind}.txt is not written from today's pyproject.toml: ./run lock"
            )
        locks[kind] = {(e["name"], e["version"], e["marker"]) for e in entries}
    assert locks["runtime"] <= locks["test"], "the test lock changes runtime versions"
    tested = {name: version for name, version, _ in locks["test"]}
    for name, version, _ in locks["build"]:
        assert tested.get(name, version) == version, f"{name} differs between the build and test locks"


def test_every_install_gets_the_solvers_compiler():
    """Issue #44: numba was an extra no ./run command installed, so a new machine built the
    table in pure Python (days). It is a runtime dependency now: in the runtime lock, which
    dashboard and publish install, and so in the test lock."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "numba" in {canonicalize_name(Requirement(r).name) for r in project["project"]["dependencies"]}
    for kind in ("runtime", "test"):
        pinned = for_this_python(read_lock(ROOT / "requirements" / f"{kind}.txt")[0])
        assert {"numba", "llvmlite"} <= set(pinned), f"requirements/{kind}.txt has no numba for this Python"


def test_run_installs_every_extra_from_the_locks_with_hashes():
    """The real script, read: the locks it installs are these files, hash-checked, and the
    project after them without dependencies of its own choosing."""
    script = (ROOT / "run").read_text()
    assert "LOCKS=(requirements/build.txt requirements/runtime.txt requirements/test.txt)" in script
    hashed = (
        r"pip install [^\n]*--require-hashes[^\n]*\\\n\s+"
        r'-r requirements/build\.txt -r "requirements/\$want\.txt"'
    )
    assert re.search(hashed, script), "every extra's packages come from its lock, hash-checked"
    assert "--no-deps --no-build-isolation -e ." in script
    assert re.search(r'sha256sum pyproject\.toml "\$\{LOCKS\[@\]\}"', script), "the stamp covers the locks"


@pytest.mark.skipif(
    os.environ.get("RULES_EXPLORER_REAL_SETUP") != "1" or uv_program() is None,
    reason="asks PyPI (about a minute): set RULES_EXPLORER_REAL_SETUP=1 (needs uv, from the test extra)",
)
def test_run_lock_on_this_project_changes_nothing(tmp_path):
    """The committed locks are what `./run lock` writes today from pyproject.toml (pins that
    still fit are kept, so only a changed pyproject.toml or a yanked release changes them)."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    for changed in ("run", "pyproject.toml"):
        shutil.copy2(ROOT / changed, clone / changed)
    shutil.copytree(ROOT / "requirements", clone / "requirements", dirs_exist_ok=True)
    env = {**os.environ, "UV": uv_program(), "PYTHON": sys.executable}
    result = subprocess.run(
        ["./run", "lock"], cwd=clone, env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    for lock in ("build.txt", "runtime.txt", "test.txt"):
        assert (clone / "requirements" / lock).read_text() == (ROOT / "requirements" / lock).read_text(), lock
