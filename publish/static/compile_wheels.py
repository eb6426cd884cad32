"""Run inside Pyodide (publish/static/compile_wheels.js): every wheel in IN_DIR written to
OUT_DIR with its modules compiled to bytecode for the browser's own Python (3.12), the
sources left out, as Pyodide ships its own packages. A page then imports without compiling
IPython and the project in WebAssembly at every visit (about half the time to first board).
The bytecode is dated 0 and the zip entries 1980-01-01, so the same wheels give the same
bytes."""

import base64
import hashlib
import importlib._bootstrap_external as bootstrap
import os
import zipfile

STAMP = (1980, 1, 1, 0, 0, 0)


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compiled_files(wheel: zipfile.ZipFile) -> dict[str, bytes]:
    files = {}
    for info in wheel.infolist():
        data = wheel.read(info)
        top = info.filename.split("/")[0]
        if info.filename.endswith(".py") and not top.endswith((".dist-info", ".data")):
            code = compile(data, info.filename, "exec", dont_inherit=True)
            files[info.filename[:-3] + ".pyc"] = bytes(bootstrap._code_to_timestamp_pyc(code, 0, len(data)))
        elif info.filename.endswith(".dist-info/WHEEL"):
            text = data.decode()
            tags = [line for line in text.splitlines() if line.startswith("Tag:")]
            kept = [line for line in text.splitlines() if not line.startswith("Tag:")]
            files[info.filename] = ("\n".join(kept + ["Tag: cp312-none-any"] * bool(tags)) + "\n").encode()
        elif not info.filename.endswith(".dist-info/RECORD"):
            files[info.filename] = data
    record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
    lines = [record_line(name, data) for name, data in files.items()] + [f"{record},,"]
    files[record] = ("\n".join(lines) + "\n").encode()
    return files


def compile_all(in_dir: str, out_dir: str) -> list[str]:
    written = []
    for name in sorted(os.listdir(in_dir)):
        with zipfile.ZipFile(os.path.join(in_dir, name)) as wheel:
            files = compiled_files(wheel)
        distribution, version = name.split("-")[:2]
        target = f"{distribution}-{version}-cp312-none-any.whl"
        with zipfile.ZipFile(os.path.join(out_dir, target), "w", zipfile.ZIP_DEFLATED) as out:
            for entry in sorted(files):
                out.writestr(zipfile.ZipInfo(entry, STAMP), files[entry], zipfile.ZIP_DEFLATED)
        written.append(target)
    return written


print("\n".join(compile_all(IN_DIR, OUT_DIR)))  # noqa: F821 (set by compile_wheels.js)
