// node compile_wheels.js PYODIDE_DIR IN_DIR OUT_DIR: Pyodide in Node compiles the wheels in
// IN_DIR for the browser's Python (compile_wheels.py, run inside it), into OUT_DIR.
const fs = require("fs");
const path = require("path");
const [pyodideDir, inDir, outDir] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = require(path.join(pyodideDir, "pyodide.js"));

(async () => {
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
  for (const [mount, dir] of [["/in", inDir], ["/out", outDir]]) {
    pyodide.FS.mkdir(mount);
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, mount);
  }
  pyodide.globals.set("IN_DIR", "/in");
  pyodide.globals.set("OUT_DIR", "/out");
  pyodide.runPython(fs.readFileSync(path.join(__dirname, "compile_wheels.py"), "utf8"));
})().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
