"""`./run publish --static DIR`: the notebooks built into a static site whose Python runs in
each reader's browser (Voici: Voilà's pages on JupyterLite's Pyodide kernel).

    ./run publish --static site/            # build (minutes the first time, then seconds)
    ./run publish --static site/ --serve    # build, then serve it on http://127.0.0.1:8866/

Every input is pinned in `publish/static/pins.toml` and downloaded once into the cache
(`$RULES_EXPLORER_CACHE`, else `~/.cache/rules-explorer`), checked against its hash; a second
build reaches no network. The build:

1. installs the build tools (Voici, JupyterLite, the Pyodide kernel, the widget front ends)
   into their own environment in the cache;
2. puts Pyodide's core files, the pinned wheels, the project's own wheel and two stand-ins
   (`ssl` and `sqlite3`, which only Pyodide's full release carries) in the site, and writes
   Pyodide's lock for exactly those wheels, so the kernel loads them at start with no install
   cell and never asks PyPI (`disablePyPIFallback`), and a snapshot of Python's memory after
   its slow imports, which each page restores instead of starting Python afresh;
3. builds the notebooks that run in the browser (`rules_explorer.static` metadata "kernel",
   the default) with Voici, and rewrites each page's configuration so the runtime is found
   from any folder the site is put in, and the icon font comes from the site, not a CDN;
4. executes the notebooks marked "prerender" (the statistics) here, at build time, and writes
   them as plain pages (tables and charts, no kernel); a notebook marked "server" (perfect
   play needs the 95 MB solved table and numpy) becomes a page that says so;
5. writes the landing page, index.html, with a card for every page.

Nothing read while building is executed except the project's own notebooks (step 4), and
every file name written comes from the project's files or the pins, never from a download's
content.
"""

from __future__ import annotations

import argparse
import base64
import functools
import gzip
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import tomllib

from rules_kernel.records import RECORDS_PACKAGE

ROOT = Path(__file__).resolve().parent.parent
PINS = Path(__file__).resolve().parent / "static" / "pins.toml"
NOTEBOOKS = ROOT / "notebooks"
RECORDS = ROOT / "data"
KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
#: what the kernel loads when it starts (the Pyodide kernel installs any of its own boot
#: packages missing here from PyPI, which a static site must never ask)
BOOT = ("ssl", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython", "piplite", "micropip")
PROJECT = "rules-explorer"
#: the project's own wheel needs only these in the browser (tests/test_static_imports.py)
PROJECT_DEPENDS = ("ipywidgets", "anywidget", "tqdm")
#: Pyodide's environment, for the markers of the wheels' requirements
MARKERS = {
    "python_version": "3.12",
    "python_full_version": "3.12.7",
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "os_name": "posix",
    "extra": "",
}
FIXED_EPOCH = 1_700_000_000  # zip timestamps when the checkout has no commit time


class StaticBuildError(RuntimeError):
    """The static site cannot be built: what is missing or wrong, and where."""


# --- the pins and the cache --------------------------------------------------------------
def load_pins(path: Path = PINS) -> dict:
    with path.open("rb") as file:
        return tomllib.load(file)


def cache_dir() -> Path:
    chosen = os.environ.get("RULES_EXPLORER_CACHE")
    base = Path(chosen) if chosen else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return (base if chosen else base / "rules-explorer") / "static"


def say(text: str) -> None:
    print(f"static site: {text}", file=sys.stderr, flush=True)


def _digest(path: Path, algorithm: str) -> bytes:
    hasher = hashlib.new(algorithm)
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            hasher.update(block)
    return hasher.digest()


def _matches_integrity(path: Path, integrity: str) -> bool:
    algorithm, _, expected = integrity.partition("-")
    return base64.b64encode(_digest(path, algorithm)).decode() == expected


def fetch_tarball(cache: Path, name: str, pin: dict) -> Path:
    """An npm tarball from the cache, downloaded first if absent; its integrity checked."""
    target = cache / "npm" / f"{name}-{pin['version']}.tgz"
    if not (target.exists() and _matches_integrity(target, pin["integrity"])):
        say(f"downloading {pin['tarball']}")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        with urllib.request.urlopen(pin["tarball"], timeout=120) as answer, partial.open("wb") as file:
            shutil.copyfileobj(answer, file)
        if not _matches_integrity(partial, pin["integrity"]):
            partial.unlink()
            raise StaticBuildError(f"{pin['tarball']}: the download does not match pins.toml's integrity")
        partial.replace(target)
    return target


def unpack_tarball(tarball: Path, into: Path) -> Path:
    """An npm tarball's `package/` folder unpacked into `into` (members outside it refused)."""
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")  # the data filter refuses links and paths out
    return into / "package"


def fetch_wheels(cache: Path, pins: dict, python: Path) -> dict[str, Path]:
    """Every pinned wheel from the cache; the missing ones downloaded by pip with their hashes
    required (pure-Python wheels for Pyodide's Python)."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    found = {name: _cached_wheel(folder, name, pin) for name, pin in pins["wheels"].items()}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        say(f"downloading {len(missing)} wheels from PyPI")
        requirements = folder / "requirements.txt"
        requirements.write_text(
            "".join(
                f"{name}=={pins['wheels'][name]['version']} --hash=sha256:{pins['wheels'][name]['sha256']}\n"
                for name in missing
            )
        )
        _run(
            [python, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
            + ["--python-version", pins["pyodide"]["python"], "--require-hashes", "-r", requirements]
            + ["-d", folder],
            "downloading the pinned wheels",
        )
        found = {name: _cached_wheel(folder, name, pin) for name, pin in pins["wheels"].items()}
    absent = [name for name, path in found.items() if path is None]
    if absent:
        raise StaticBuildError(f"pins.toml [wheels]: no wheel with the pinned hash for {', '.join(absent)}")
    return found  # type: ignore[return-value]


def _cached_wheel(folder: Path, name: str, pin: dict) -> Path | None:
    stem = re.sub(r"[-_.]+", "_", name).lower()
    for path in folder.glob("*.whl"):
        if path.name.lower().startswith(f"{stem}-{pin['version']}-"):
            if _digest(path, "sha256").hex() == pin["sha256"]:
                return path
    return None


def build_tools(cache: Path, pins: dict) -> Path:
    """The build tools' environment (created once per set of pins); its Python."""
    packages = pins["build"]["packages"]
    key = hashlib.sha256(json.dumps([sys.version, packages]).encode()).hexdigest()[:12]
    env = cache / f"build-env-{key}"
    python = env / "bin" / "python"
    stamp = env / "installed"
    if stamp.exists():
        return python
    say(f"installing the build tools into {env} (once)")
    shutil.rmtree(env, ignore_errors=True)
    _run([sys.executable, "-m", "venv", env], "creating the build tools' environment")
    _run([python, "-m", "pip", "install", "--quiet", *packages], "installing the build tools")
    stamp.write_text("\n".join(packages) + "\n")
    return python


def _run(command: list, what: str, **options) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, **options)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-15:]
        raise StaticBuildError(f"{what} failed ({done.returncode}):\n" + "\n".join(tail))
    return done


# --- the browser's Python ----------------------------------------------------------------
@dataclass(frozen=True)
class Wheel:
    """A wheel the site ships, as Pyodide's lock describes it."""

    path: Path
    name: str  # canonical: lower case, dashes
    version: str
    requires: tuple[str, ...]  # canonical names, for Pyodide's environment
    imports: tuple[str, ...]

    def lock_entry(self, depends: Iterable[str]) -> dict:
        return {
            "name": self.name,
            "version": self.version,
            "file_name": self.path.name,
            "install_dir": "site",
            "package_type": "package",
            "sha256": _digest(self.path, "sha256").hex(),
            "imports": list(self.imports),
            "depends": sorted(depends),
            "unvendored_tests": False,
            "shared_library": False,
        }


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_wheel(path: Path) -> Wheel:
    from email.parser import Parser

    from packaging.requirements import Requirement

    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(metadata_name).decode("utf-8"))
    requires = []
    for line in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(MARKERS):
            requires.append(canonical(requirement.name))
    tops = {n.split("/")[0].removesuffix(".py") for n in names if "/" in n or n.endswith(".py")}
    imports = sorted(t for t in tops if not t.endswith((".dist-info", ".data")) and t.isidentifier())
    return Wheel(path, canonical(metadata["Name"]), metadata["Version"], tuple(requires), tuple(imports))


def write_lock(folder: Path, wheels: list[Wheel], info: dict, pins: dict) -> dict:
    """Pyodide's lock for exactly the wheels shipped: a requirement neither shipped nor
    excused in pins.toml [not_shipped] stops the build."""
    shipped = {wheel.name for wheel in wheels}
    excused = {canonical(name) for name in pins.get("not_shipped", {})}
    packages = {}
    for wheel in wheels:
        depends = PROJECT_DEPENDS if wheel.name == PROJECT else wheel.requires
        unknown = [d for d in depends if d not in shipped and d not in excused]
        if unknown:
            raise StaticBuildError(
                f"{wheel.path.name} requires {', '.join(unknown)}: ship it in pins.toml [wheels] "
                "or say in [not_shipped] why the site does without"
            )
        packages[wheel.name] = wheel.lock_entry(d for d in depends if d in shipped)
    lock = {"info": info, "packages": dict(sorted(packages.items()))}
    (folder / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return lock


SQLITE3_STAND_IN = '''"""A stand-in for sqlite3 in the static site's browser Python (Pyodide's core
release has no SQLite). IPython imports it at start for its history, which the browser kernel keeps off:
nothing here stores anything, and connecting says so."""

PARSE_DECLTYPES = 1
PARSE_COLNAMES = 2


class Error(Exception):
    pass


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class Connection:
    pass


def connect(*args, **kwargs):
    raise OperationalError("no SQLite in the browser kernel of a static site")
'''


def stand_in_wheel(
    folder: Path, name: str, modules: dict[str, str], epoch: int, summary: str = "a stand-in"
) -> Path:
    """A minimal wheel `name` 1.0.0 holding `modules` (file name -> text): Pyodide's kernel
    asks for ssl and sqlite3 at start, which only Pyodide's full release carries. The ssl
    stand-in holds no module, so `import ssl` fails as on a Python built without it, which
    the standard library expects (asyncio, urllib and http.client then do without)."""
    dist = f"{name}-1.0.0.dist-info"
    files = {
        **modules,
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0.0\nSummary: {summary}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: rules-explorer\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = "".join(f"{n},sha256={_urlsafe_sha(t)},{len(t.encode())}\n" for n, t in files.items())
    files[f"{dist}/RECORD"] = record + f"{dist}/RECORD,,\n"
    path = folder / f"{name.replace('-', '_')}-1.0.0-py3-none-any.whl"
    _write_zip(path, files, epoch)
    return path


def _urlsafe_sha(text: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


def _write_zip(path: Path, files: dict[str, str], epoch: int) -> None:
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip cannot say before 1980
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            entry = zipfile.ZipInfo(name, stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, files[name])


def project_wheel(python: Path, into: Path, epoch: int) -> Path:
    """The project's own wheel, built by the build tools' setuptools (no network)."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"  # a copy: the build leaves build/ and egg-info behind
        shutil.copytree(
            ROOT,
            source,
            ignore=shutil.ignore_patterns(
                ".*", "__pycache__", "*.egg-info", "build", "dist", "test-artifacts"
            ),
        )
        env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch)}
        _run(
            [
                python,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "-w",
                into,
                source,
            ],
            "building the project's wheel",
            env=env,
        )
    (wheel,) = into.glob("rules_explorer-*.whl")
    return wheel


def compile_wheels(pyodide_package: Path, wheels: list[Path], into: Path) -> list[Path]:
    """The wheels with their modules compiled for the browser's Python (3.12) by Pyodide
    itself in Node.js (publish/static/compile_wheels.py); the sources as they are where the
    machine has no `node` (the site works, a page starts slower)."""
    node = shutil.which("node")
    if node is None:
        say("no node: the wheels ship as sources (pages start slower; install Node.js to compile them)")
        return wheels
    sources = into / "sources"
    sources.mkdir(parents=True)
    for wheel in wheels:
        shutil.copy2(wheel, sources / wheel.name)
    compiled = into / "compiled"
    compiled.mkdir()
    say(f"compiling {len(wheels)} wheels for the browser's Python")
    script = Path(__file__).resolve().parent / "static" / "compile_wheels.js"
    _run([node, script, pyodide_package, sources, compiled], "compiling the wheels in Pyodide")
    return sorted(compiled.glob("*.whl"))


#: the runtime script each page's kernel loads: Pyodide's own, or, where the build wrote a
#: snapshot, load_snapshot.js (Pyodide's, with Python restored from the snapshot)
PYODIDE_SCRIPT, SNAPSHOT_SCRIPT = "pyodide.js", "load-snapshot.js"


#: what the snapshot ships in static/pyodide/: Python's memory, and the files Python had then
#: beyond its standard library (site-packages, which the packages filled, and the home folder):
#: written into the browser's file system instead of unpacking the wheels
SNAPSHOT_FILES = ("snapshot.bin.gz", "snapshot-files.tar.gz")


def write_snapshot(folder: Path, boot: list[str], epoch: int, wanted: bool = True) -> str:
    """Python's memory after its slow imports and the Pyodide kernel's start
    (publish/static/snapshot_imports.py), written by Pyodide itself in Node.js into the site's
    static/pyodide/ as snapshot.bin.gz, the files Python had then (what the `boot` packages and
    their dependencies unpacked into site-packages, IPython's profile) as
    snapshot-files.tar.gz, and the script that restores both in the reader's browser; the
    runtime script the pages load. With no `node` there is no snapshot: the pages start Python
    as usual, slower."""
    if not wanted:
        return PYODIDE_SCRIPT
    node = shutil.which("node")
    if node is None:
        say("no node: no snapshot of Python's start (pages start slower; install Node.js for one)")
        return PYODIDE_SCRIPT
    say("writing the snapshot of Python after its imports")
    here = Path(__file__).resolve().parent / "static"
    raws = [folder / name.removesuffix(".gz") for name in SNAPSHOT_FILES]
    _run([node, here / "make_snapshot.js", folder, *raws, str(epoch), ",".join(boot)], "writing the snapshot")
    for raw in raws:
        with raw.open("rb") as source, raw.with_name(raw.name + ".gz").open("wb") as packed:
            # gzip: every host serves it compressed, whatever it does with other types; mtime
            # 0 and no name keep two builds' bytes the same
            with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0, compresslevel=6) as out:
                shutil.copyfileobj(source, out)
        raw.unlink()
    shutil.copy2(here / "load_snapshot.js", folder / SNAPSHOT_SCRIPT)
    return SNAPSHOT_SCRIPT


def kernel_extension_wheels(python: Path) -> list[Path]:
    """The Pyodide kernel's own wheels (the kernel, its ipykernel stand-in, piplite), as its
    labextension carries them: in the lock, the kernel loads them with the rest at start
    instead of installing piplite through micropip."""
    prefix = Path(
        _run([python, "-c", "import sys; print(sys.prefix)"], "finding the build tools").stdout.strip()
    )
    pypi = prefix / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    wanted = ("pyodide_kernel-", "ipykernel-", "piplite-")
    chosen = [p for p in sorted(pypi.glob("*.whl")) if p.name.startswith(wanted)]
    if len(chosen) != len(wanted):
        raise StaticBuildError(f"{pypi}: the Pyodide kernel's wheels are not where version 0.6.1 puts them")
    return chosen


def stage_pyodide(stage: Path, pyodide_package: Path, wheels: list[Path], pins: dict) -> None:
    """The site's static/pyodide/: the runtime's core files, the wheels and their lock."""
    folder = stage / "static" / "pyodide"
    folder.mkdir(parents=True)
    for name in ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"):
        shutil.copy2(pyodide_package / name, folder / name)
    described = []
    for path in wheels:
        shutil.copy2(path, folder / path.name)
        described.append(read_wheel(folder / path.name))
    info = json.loads((pyodide_package / "pyodide-lock.json").read_text())["info"]
    if info.get("version") != pins["pyodide"]["version"]:
        raise StaticBuildError(
            f"the Pyodide tarball is {info.get('version')}, pins.toml says {pins['pyodide']}"
        )
    write_lock(folder, described, info, pins)


def lite_config(boot: Iterable[str]) -> dict:
    """jupyter-lite.json: the kernel loads every package it needs at start, from the site."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "litePluginSettings": {
                KERNEL_SETTINGS: {
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": list(boot)},
                }
            }
        },
    }


# --- the pages ---------------------------------------------------------------------------
def page_kind(notebook_path: Path) -> str:
    """How a notebook is published on the static site: "kernel" (runs in the reader's
    browser; the default), "prerender" (executed at build time) or "server" (needs the
    server mode), from its `metadata.rules_explorer.static`."""
    notebook = json.loads(notebook_path.read_text(encoding="utf-8"))
    kind = notebook.get("metadata", {}).get("rules_explorer", {}).get("static", "kernel")
    if kind not in ("kernel", "prerender", "server", "landing"):
        raise StaticBuildError(f"{notebook_path.name}: metadata rules_explorer.static is {kind!r}")
    return kind


def notebook_kinds(folder: Path = NOTEBOOKS) -> dict[str, list[Path]]:
    kinds: dict[str, list[Path]] = {"kernel": [], "prerender": [], "server": [], "landing": []}
    for path in sorted(folder.glob("*.ipynb")):
        kinds[page_kind(path)].append(path)
    return kinds


def stage_contents(stage: Path, notebooks: list[Path]) -> Path:
    """The browser pages' notebooks (the records they read come as a wheel: reading the
    site's files from the browser's Python is slow and, on a first visit, may never answer)."""
    contents = stage / "contents"
    contents.mkdir(parents=True)
    for path in notebooks:
        shutil.copy2(path, contents / path.name)
    return contents


def records_wheel(folder: Path, epoch: int) -> Path:
    """data/*.jsonl as the package `rules_kernel.records.shipped_records()` finds on the site."""
    package = RECORDS_PACKAGE
    modules = {f"{package}/__init__.py": '"""The Rules Explorer\'s shipped records (data/*.jsonl)."""\n'}
    for record in sorted(RECORDS.glob("*.jsonl")):
        modules[f"{package}/{record.name}"] = record.read_text(encoding="utf-8")
    return stand_in_wheel(folder, canonical(package), modules, epoch, "the Rules Explorer's shipped records")


FONT_LINK = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@\^5/css/([\w.-]+\.css)")
#: the file browser's page links Font Awesome 4 (its icons are in version 5's v4 shims)
OLD_FONT_LINK = re.compile(r'<link[^>]*href="https://cdn\.jsdelivr\.net/npm/font-awesome@4[^"]*"[^>]*>')
CONFIG_SCRIPT = re.compile(
    r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S
)


def localise_page(
    page: Path, site: Path, runtime: str = PYODIDE_SCRIPT, *, runs_notebook: bool = False
) -> None:
    """A built page made to work from any folder and host: the icon font from the site, and
    the kernel's runtime script (`runtime`, in static/pyodide/) by a URL relative to this page
    (Voici copies the site's settings into each page, where "./static/..." would point below
    the page's own folder). A page that `runs_notebook`, with the snapshot's runtime, starts
    the snapshot's early fetch as its first script (load_snapshot.js)."""
    text = page.read_text(encoding="utf-8")
    up = os.path.relpath(site, page.parent).replace(os.sep, "/")
    if runs_notebook and runtime == SNAPSHOT_SCRIPT:
        text = HEAD.sub(lambda m: m.group(0) + EARLY_FETCH.replace("UP/", f"{up}/"), text, count=1)
    text = FONT_LINK.sub(lambda m: f"{up}/static/fontawesome/css/{m.group(1)}", text)
    text = OLD_FONT_LINK.sub(
        "".join(f'<link rel="stylesheet" href="{up}/static/fontawesome/css/{n}">' for n in FONT_FILES), text
    )

    def rewrite(match: re.Match) -> str:
        config = json.loads(match.group(2))
        settings = config.get("litePluginSettings", {}).get(KERNEL_SETTINGS)
        if settings is not None:
            settings["pyodideUrl"] = f"{up}/static/pyodide/{runtime}"
            settings["pipliteUrls"] = [
                f"{up}/{u.removeprefix('./')}" if u.startswith("./") else u
                for u in settings.get("pipliteUrls", [])
            ]
        body = json.dumps(config).replace("</", "<\\/")  # the JSON cannot close its script
        return match.group(1) + body + match.group(3)

    text = CONFIG_SCRIPT.sub(rewrite, text)
    text = VOICI_SCRIPT.sub(lambda m: SERVICE_WORKER_VERSION + m.group(0), text, count=1)
    if runs_notebook:  # the way back to the landing page, as the publishing mode's pages have
        text = BODY.sub(lambda m: m.group(0) + HOME_LINK.replace("UP/", f"{up}/"), text, count=1)
    page.write_text(text, encoding="utf-8")


VOICI_SCRIPT = re.compile(r'<script src="[^"]*/voici\.js"></script>')
BODY = re.compile(r"<body[^>]*>")
HOME_LINK = (
    '<nav class="re-home" style="font: 14px sans-serif; padding: 8px 12px 0">'
    '<a href="UP/index.html" style="color: #0B5CAD">← All pages</a></nav>'
)
HEAD = re.compile(r"<head>(<meta charset=[^>]*>)?")
#: the snapshot's files fetched and unpacked by a worker of the page's while the page starts,
#: and moved to the kernel's worker when it asks (load_snapshot.js): the page gives the two
#: workers the ends of one MessageChannel, so the 59 MB pass from one to the other without a
#: copy and without the page's busy thread. One kernel gets them; a browser without workers,
#: or a second kernel, starts as before.
EARLY_FETCH = """
<script>(function () {
  const ASK = "rules-explorer: the snapshot fetched early";
  let early;
  try { early = new Worker("UP/static/pyodide/load-snapshot.js#prefetch"); } catch (error) { return; }
  const Native = window.Worker;
  window.Worker = function Worker(url, options) {
    const worker = new Native(url, options);
    worker.addEventListener("message", ({ data }) => {
      if (!data || data[ASK] !== "port?") return;
      if (!early) return worker.postMessage({ [ASK]: "port" });
      const { port1, port2 } = new MessageChannel();
      early.postMessage({ [ASK]: "port" }, [port1]);
      worker.postMessage({ [ASK]: "port" }, [port2]);
      early = null;
    });
    return worker;
  };
  window.Worker.prototype = Native.prototype;
})();</script>"""
#: JupyterLite 0.6 notes which version of its service worker a browser holds only when a page
#: is already controlled by one, never when it registers it: so a reader's second visit found
#: no note, unregistered the worker and registered it again before the kernel could start
#: (usually 0.05 s, at times 2.5 s). The note is written as soon as the worker is active, where
#: there is none yet; one already there is JupyterLite's to compare (a new build's version
#: still replaces the old worker).
SERVICE_WORKER_VERSION = """<script>
(function () {
  const workers = navigator.serviceWorker;
  const config = document.getElementById("jupyter-config-data");
  const version = config && JSON.parse(config.textContent).appVersion;
  if (!workers || !version) return;
  workers.ready.then((registration) => {
    const key = registration.active && `${registration.active.scriptURL}-version`;
    if (key && localStorage.getItem(key) === null) localStorage.setItem(key, version);
  });
})();
</script>
"""

FONT_FILES = ("all.min.css", "v4-shims.min.css")

#: Added to JupyterLite's service worker, which needs to answer only the kernel's requests
#: under api/ (the drive, stdin) but fetched every other file of the site itself and handed it
#: over: a script handed over by a service worker is one the browser compiles again on every
#: visit (it keeps compiled code only for what came from its HTTP cache). With the Static
#: Routing API (Chromium 123 on), the page's requests for the site's own files go to the
#: network and the HTTP cache directly: 0.3-0.4 s less to a returning reader's first board
#: here. (The kernel's worker's requests still pass through the worker, in Chromium 156; a
#: fetch listener that leaves them to the browser instead made the board 0.3 s later.) A
#: browser without the API keeps the worker's way.
SERVICE_WORKER_ROUTES = r"""
// Rules Explorer (publish/static_site.py): the site's own files past this worker
self.addEventListener("install", (event) => {
  if (typeof event.addRoutes !== "function" || typeof URLPattern !== "function") return;
  const literal = (text) => text.replace(/[\\:*(){}+?]/g, "\\$&"); // as URLPattern reads it
  const scope = literal(new URL(self.registration.scope).pathname);
  const routes = %s.map(([name, folder]) => ({
    condition: { urlPattern: new URLPattern({ pathname: scope + literal(name) + (folder ? "/*" : "") }) },
    source: "network",
  }));
  event.waitUntil(event.addRoutes(routes).catch((error) => console.warn(`no routes: ${error}`)));
});
"""


def route_around_service_worker(site: Path) -> None:
    """Every file and folder of the built `site` but api/ (SERVICE_WORKER_ROUTES)."""
    worker = site / "service-worker.js"
    names = sorted([p.name, p.is_dir()] for p in site.iterdir() if p.name not in ("api", worker.name))
    routes = SERVICE_WORKER_ROUTES % json.dumps(names)
    worker.write_text(worker.read_text(encoding="utf-8") + routes, encoding="utf-8")


def install_font(site: Path, font_package: Path) -> None:
    target = site / "static" / "fontawesome"
    (target / "css").mkdir(parents=True, exist_ok=True)
    for name in FONT_FILES:
        shutil.copy2(font_package / "css" / name, target / "css" / name)
    shutil.copytree(font_package / "webfonts", target / "webfonts", dirs_exist_ok=True)


def prune(site: Path) -> None:
    """What no reader's page asks for is left out of the site: source maps (a developer's
    tools), JupyterLite's own lab and notebook apps in build/ (the Voici pages bring theirs in
    voici/build/; tests/test_static_site.py counts every request of every page), and the
    icon font's formats older than WOFF2 (every browser the widgets support reads WOFF2)."""
    for path in site.rglob("*.map"):
        path.unlink()
    shutil.rmtree(site / "build", ignore_errors=True)
    for path in (site / "static" / "fontawesome" / "webfonts").glob("*"):
        if path.suffix != ".woff2":
            path.unlink()


# --- the pages' Content-Security-Policy ----------------------------------------------------
#: The static site's policy, a <meta http-equiv="Content-Security-Policy"> in every page: a
#: static host may set no header (docs/publishing.md, "Headers"). As the server's
#: (publish/serve.py), with what Voici and Pyodide need beyond it: 'wasm-unsafe-eval'
#: (Pyodide compiles its WebAssembly; it allows no JavaScript eval), workers from the site and
#: blob: (the kernel's, the snapshot's early fetch, JupyterLite's service worker), and each
#: page's own inline scripts by their SHA-256 (Voici's page is built around them; a script
#: injected into a page matches none). A <meta> cannot carry frame-ancestors (browsers
#: ignore it there, with a warning): only a host's header can.
STATIC_POLICY = (
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval' blob:{hashes}",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
)
#: an HTML script element (its text is raw: no entity in it is decoded, so its hash is the
#: hash of these characters)
SCRIPT_ELEMENT = re.compile(r"<script(?P<attributes>(?:\s[^>]*)?)>(?P<text>.*?)</script\s*>", re.S | re.I)
#: the types a browser runs; any other (application/json, a widget's state) is data
SCRIPT_TYPES = ("", "module", "text/javascript", "application/javascript")
HEAD_START = re.compile(r"<head(?:\s[^>]*)?>(\s*<meta charset=[^>]*>)?", re.I)


def inline_script_hashes(page: str) -> list[str]:
    """The CSP sources ('sha256-…') of every inline script the page runs, in order, once each."""
    hashes = []
    for script in SCRIPT_ELEMENT.finditer(page):
        attributes = script.group("attributes")
        if re.search(r"\ssrc\s*=", attributes, re.I):
            continue
        kind = re.search(r"""\stype\s*=\s*["']?([^"'\s>]*)""", attributes, re.I)
        if kind and kind.group(1).lower() not in SCRIPT_TYPES:
            continue
        digest = base64.b64encode(hashlib.sha256(script.group("text").encode("utf-8")).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return list(dict.fromkeys(hashes))


def static_policy(page: str) -> str:
    hashes = inline_script_hashes(page)
    return "; ".join(STATIC_POLICY).format(hashes="".join(f" {h}" for h in hashes))


def add_content_security_policy(site: Path) -> int:
    """Every HTML page of the built `site` with its policy as its head's first element (after
    the charset), before any script it covers; a page without <head> stops the build. The
    number of pages."""
    pages = sorted(site.rglob("*.html"))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        head = HEAD_START.search(text)
        if head is None:
            raise StaticBuildError(
                f"{page.relative_to(site)}: no <head> to put the Content-Security-Policy in"
            )
        meta = f'<meta http-equiv="Content-Security-Policy" content="{static_policy(text)}">'
        page.write_text(text[: head.end()] + meta + text[head.end() :], encoding="utf-8")
    return len(pages)


# --- the whole build ---------------------------------------------------------------------
def source_epoch() -> int:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%ct"], capture_output=True, text=True
    )
    return int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip().isdigit() else FIXED_EPOCH


def build(out: Path, *, cache: Path | None = None, snapshot: bool = True) -> Path:
    """Build the static site into `out` (replaced if it holds an earlier build); `snapshot`:
    ship the snapshot of Python after its imports (pages start about twice as fast on this
    machine, for 13 MB more to fetch on a reader's first visit)."""
    from publish import static_pages

    out = Path(out).resolve()
    if out.exists() and any(out.iterdir()) and not (out / "jupyter-lite.json").exists():
        raise StaticBuildError(f"{out} is not empty and holds no earlier build: choose another folder")
    started = time.monotonic()
    pins, cache = load_pins(), (cache or cache_dir())
    epoch = source_epoch()
    tools = build_tools(cache, pins)
    kinds = notebook_kinds()
    with tempfile.TemporaryDirectory() as scratch:
        stage = Path(scratch) / "lite"
        stage.mkdir()
        pyodide = unpack_tarball(fetch_tarball(cache, "pyodide", pins["pyodide"]), Path(scratch) / "pyodide")
        font = unpack_tarball(
            fetch_tarball(cache, "fontawesome", pins["fontawesome"]), Path(scratch) / "font"
        )
        wheel_dir = Path(scratch) / "wheels"
        wheel_dir.mkdir()
        wheels = [
            *fetch_wheels(cache, pins, tools).values(),
            *kernel_extension_wheels(tools),
            project_wheel(tools, wheel_dir, epoch),
            stand_in_wheel(wheel_dir, "sqlite3", {"sqlite3/__init__.py": SQLITE3_STAND_IN}, epoch),
            stand_in_wheel(wheel_dir, "ssl", {}, epoch),
            stand_in_wheel(wheel_dir, "jedi", {}, epoch),
            records_wheel(wheel_dir, epoch),
        ]
        wheels = compile_wheels(pyodide, wheels, Path(scratch) / "compiled")
        stage_pyodide(stage, pyodide, wheels, pins)
        boot = [*BOOT, PROJECT, *PROJECT_DEPENDS, canonical(RECORDS_PACKAGE)]
        runtime = write_snapshot(stage / "static" / "pyodide", boot, epoch, snapshot)
        (stage / "jupyter-lite.json").write_text(json.dumps(lite_config(boot), indent=1))
        contents = stage_contents(stage, kinds["kernel"])
        # built in a folder of its own: with a source date, JupyterLite re-dates everything
        # beside its output folder
        built = Path(scratch) / "built" / "site"
        say("building the pages with Voici")
        voici = tools.parent / "voici"
        _run(
            [voici, "build", "--lite-dir", stage, "--contents", contents, "--output-dir", built]
            + ["--source-date-epoch", str(epoch)],
            "voici build",
            cwd=scratch,
        )
        install_font(built, font)
        for page in sorted((built / "voici").rglob("*.html")):
            localise_page(page, built, runtime, runs_notebook=page.parent.name == "render")
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(built, out)
    prune(out)
    pages = out / "pages"
    pages.mkdir()
    for path in kinds["prerender"]:
        say(f"executing {path.name} for its pre-rendered page")
        static_pages.write_prerendered(path, pages / f"{path.stem}.html", home="../index.html")
    for path in kinds["server"]:
        static_pages.write_server_only(path, pages / f"{path.stem}.html", home="../index.html")
    published = {p.stem: kind for kind, paths in kinds.items() for p in paths}
    (out / "index.html").write_text(static_pages.landing_document(NOTEBOOKS, published), encoding="utf-8")
    route_around_service_worker(out)
    add_content_security_policy(out)
    say(f"built {out} in {time.monotonic() - started:.0f} s: {site_size(out) / 1e6:.1f} MB")
    return out


def site_size(site: Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A plain file server, as a static host is: the types Pyodide needs, no request log."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".whl": "application/zip",
        ".json": "application/json",
    }

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


def serve(site: Path, port: int = 8866) -> None:
    """Serve the built site on 127.0.0.1 for a look (a static host serves it the same way)."""
    handler = functools.partial(SiteHandler, directory=str(site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        say(f"serving {site} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="./run publish --static",
        description="Build the notebooks into a static site whose Python runs in each reader's browser.",
    )
    parser.add_argument("--static", metavar="DIR", required=True, type=Path, help="the folder to build into")
    parser.add_argument("--serve", action="store_true", help="then serve it on 127.0.0.1 for a look")
    parser.add_argument(
        "--no-snapshot",
        action="store_true",
        help="leave out the snapshot of Python's start: 13 MB less to fetch, pages start slower",
    )
    parser.add_argument("--port", type=int, default=8866, help="the port for --serve (default 8866)")
    options = parser.parse_args(argv)
    try:
        site = build(options.static, snapshot=not options.no_snapshot)
    except StaticBuildError as error:
        print(f"./run publish --static: {error}", file=sys.stderr)
        return 1
    if options.serve:
        serve(site, options.port)
    return 0
