"""How much memory a published kernel needs: the figures behind `--kernel-memory-mib`.

    python benchmarks/bench_kernel_memory.py                  # every notebook in notebooks/
    python benchmarks/bench_kernel_memory.py explorer.ipynb   # some of them
    python benchmarks/bench_kernel_memory.py --check 1024     # do they all run under this cap?

Each notebook runs the way the publishing mode runs it (publish.serve.GuardedKernelManager:
the same kernel command, the same cap mechanism), executed by nbclient as Voilà does, from
notebooks/. First without a cap, to read the kernel's figures once the notebook has run:
address space (VmPeak, what RLIMIT_AS would count), data (VmData, what RLIMIT_DATA counts)
and peak resident memory (VmHWM). Then the smallest RLIMIT_DATA, to `--step` MiB, under
which the notebook still runs without an error (bisection; a failed run is a MemoryError or
any other error a cell raised, or a kernel that died). With --check, only whether every
notebook runs under the given cap.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from traitlets.config import Config

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from publish.serve import GuardedKernelManager  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"


def status(pid: int) -> dict[str, int]:
    """The kernel's Vm* figures in MiB (/proc/<pid>/status)."""
    figures = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmPeak", "VmSize", "VmData", "VmHWM", "VmRSS"):
            figures[key] = int(value.split()[0]) // 1024
    return figures


def run(notebook: Path, cap_mib: int) -> tuple[bool, dict[str, int], str]:
    """Run the notebook in a published kernel capped at `cap_mib` (0: none): (ran cleanly,
    the kernel's figures after the last cell, the first line of the error if it did not)."""
    nb = nbformat.read(notebook, as_version=4)
    config = Config({"GuardedKernelManager": {"memory_mib": cap_mib, "autorestart": False}})
    # A kernel starved of memory may die (quick to see) or hang with a dead thread: short limits.
    client = NotebookClient(
        nb,
        kernel_manager_class=GuardedKernelManager,
        config=config,
        timeout=120,
        iopub_timeout=60,
        startup_timeout=30,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    figures: dict[str, int] = {}
    try:
        with client.setup_kernel(stderr=subprocess.DEVNULL):  # the client shuts the kernel down after
            process = client.km.provisioner.process
            try:
                for index, cell in enumerate(nb.cells):
                    client.execute_cell(cell, index)
            finally:
                if process.poll() is None:
                    figures = status(process.pid)
    except Exception as error:  # a cell's error, or a kernel that died: this cap is too small
        lines = str(error).strip().splitlines() or [repr(error)]
        return False, figures, lines[-1][:120]
    return True, figures, ""


def smallest_cap(notebook: Path, low: int, high: int, step: int) -> int:
    """The smallest cap in MiB (to `step`) under which the notebook runs; `high` must run."""
    while high - low > step:
        middle = (low + high) // 2
        ok, _, _ = run(notebook, middle)
        low, high = (low, middle) if ok else (middle, high)
    return high


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebook names in notebooks/ (default: all)")
    parser.add_argument("--step", type=int, default=16, help="resolution of the search, MiB (default 16)")
    parser.add_argument("--check", type=int, metavar="MIB", help="only run each notebook under this cap")
    args = parser.parse_args(argv)
    names = args.notebooks or sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    failed = 0
    if args.check:
        for name in names:
            start = time.monotonic()
            ok, figures, error = run(NOTEBOOKS / name, args.check)
            failed += not ok
            print(
                f"{name:28} {'runs' if ok else 'FAILS'} under {args.check} MiB "
                f"({time.monotonic() - start:.1f} s){'' if ok else ': ' + error}",
                flush=True,
            )
        return 1 if failed else 0
    print(f"{'notebook':28} {'VmPeak':>8} {'VmData':>8} {'VmHWM':>8} {'needs DATA':>11}  (MiB)")
    needs = []
    for name in names:
        ok, figures, error = run(NOTEBOOKS / name, 0)
        if not ok:
            print(f"{name:28} does not run even without a cap: {error}")
            failed += 1
            continue
        need = smallest_cap(NOTEBOOKS / name, args.step, figures["VmPeak"], args.step)
        needs.append(need)
        print(
            f"{name:28} {figures['VmPeak']:8} {figures['VmData']:8} {figures['VmHWM']:8} {need:11}",
            flush=True,
        )
    if needs:
        print(f"largest need: {max(needs)} MiB of RLIMIT_DATA")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
