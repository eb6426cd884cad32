// node make_snapshot.js PYODIDE_DIR OUT_FILE FILES_OUT EPOCH PACKAGES: Pyodide in Node loads the
// site's PACKAGES (comma-separated), runs snapshot_imports.py (the slow imports, then the Pyodide
// kernel's own start) and writes its memory as OUT_FILE, which load_snapshot.js restores in the
// reader's browser instead of starting Python and importing the same modules again; and the
// files Python has then beyond its standard library (site-packages, which the packages filled,
// and the home folder, where IPython made its profile) as the tar FILES_OUT, which
// load_snapshot.js writes into the browser's file system instead of having Pyodide unpack each
// wheel (in Python, the slowest part of a page's start after the imports). The clock and the
// random source are fixed while it runs (from EPOCH, the source date), so two builds write the
// same bytes.
const fs = require("fs");
const path = require("path");
const [pyodideDir, outFile, filesOut, epoch, packages] = process.argv.slice(2);
const { loadPyodide } = require(path.join(path.resolve(pyodideDir), "pyodide.js"));
require("./load_snapshot.js"); // the order the pages' script reads the lock in
const dependenciesFirst = globalThis.pyodideLockOrder;

function fixClockAndRandomness(epochSeconds) {
  // a clock that stands still: one that moved would give each reading taken while Python
  // imports a value that depends on how busy the machine was
  const now = () => epochSeconds * 1000;
  let state = 0x9e3779b9;
  Date.now = now;
  Object.defineProperty(globalThis, "performance", { value: { now, timeOrigin: 0 } });
  Object.defineProperty(globalThis, "crypto", {
    value: {
      getRandomValues(view) {
        const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
        for (let i = 0; i < bytes.length; i++) {
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
          bytes[i] = state & 0xff;
        }
        return view;
      },
    },
  });
}

// What the snapshot's Python holds of Pyodide's own (the kernel, piplite and micropip import
// loadPackage, loadPackagesFromImports, loadBinaryFile...): written as its name, e.g.
// {pyodide: "loadPackage", kind: "function"} or {api: "public_api", kind: "object"}, which
// load_snapshot.js finds again on the browser's Pyodide. Anything else stops the build.
function nameInPyodide(pyodide) {
  return (value) => {
    for (const [where, owner] of [["pyodide", pyodide], ["api", pyodide._api]]) {
      for (const name of Object.getOwnPropertyNames(owner).sort()) {
        const descriptor = Object.getOwnPropertyDescriptor(owner, name);
        if (descriptor && "value" in descriptor && descriptor.value === value) {
          return { [where]: name, kind: typeof value === "function" ? "function" : "object" };
        }
      }
    }
    throw new Error(`the snapshot would hold a JavaScript object that is not Pyodide's: ${value}`);
  };
}

(async () => {
  fixClockAndRandomness(Number(epoch));
  const indexURL = path.resolve(pyodideDir) + "/";
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
  // one package at a time, dependencies first: loaded together they are unpacked in the order
  // their downloads end, and the memory written would differ from build to build
  const lock = JSON.parse(fs.readFileSync(path.join(indexURL, "pyodide-lock.json"), "utf8"));
  for (const name of dependenciesFirst(lock.packages, packages.split(","))) {
    await pyodide.loadPackage([name], { messageCallback() {} });
  }
  // Node has no XMLHttpRequest: a stand-in, so that pyodide.http (which micropip imports) keeps
  // the name, and the browser's own is found under it when the snapshot is restored
  globalThis.XMLHttpRequest ??= class XMLHttpRequest {};
  pyodide.runPython(fs.readFileSync(path.join(__dirname, "snapshot_imports.py"), "utf8"));
  // the list of loaded packages is the runtime's, remade in the browser when it loads them
  for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
  fs.writeFileSync(outFile, pyodide.makeMemorySnapshot({ serializer: nameInPyodide(pyodide) }));
  // after the snapshot, so that writing the tar leaves no trace in it: every file and folder
  // under site-packages and the home folder, sorted, named from the root, with no date, owner
  // or mode of the build's (a folder 755, a file 644); a path too long for a plain ustar header
  // stops the build
  pyodide.runPython(`
import os, site, tarfile
paths = []
for root in (site.getsitepackages()[0], os.path.expanduser("~")):
    for folder, folders, files in os.walk(root):
        paths += [os.path.join(folder, name) for name in folders + files]
with tarfile.open("/tmp/files.tar", "w", format=tarfile.USTAR_FORMAT) as tar:
    for path in sorted(paths):
        entry = tarfile.TarInfo(path.lstrip("/"))
        if os.path.isdir(path):
            entry.type, entry.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(entry)
        else:
            entry.size, entry.mode = os.path.getsize(path), 0o644
            with open(path, "rb") as file:
                tar.addfile(entry, file)
`);
  fs.writeFileSync(filesOut, pyodide.FS.readFile("/tmp/files.tar"));
})().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
