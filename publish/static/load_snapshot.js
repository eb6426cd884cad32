// The static site's runtime script (the Pyodide kernel's `pyodideUrl`, shipped as
// static/pyodide/load-snapshot.js): Pyodide's own loadPyodide, with Python restored from the
// snapshot the build wrote (snapshot.bin.gz, make_snapshot.js) instead of started afresh and
// made to import IPython, the widgets and the games again. Where the snapshot cannot be
// fetched, unpacked or restored (a browser without DecompressionStream, a host that lost the
// file), Python starts as it does without one: slower, never broken.
(function (scope) {
  const SNAPSHOT = "snapshot.bin.gz";

  async function fetchSnapshot(indexURL) {
    const response = await fetch(indexURL + SNAPSHOT);
    if (!response.ok) throw new Error(`${SNAPSHOT}: HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes; // a host that sent it as gzip-encoded
    const unpacked = new Response(bytes).body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(unpacked).arrayBuffer());
  }

  async function loadWithSnapshot(loadPyodide, options) {
    if (typeof DecompressionStream === "function") {
      // fetched and unpacked while Pyodide fetches and compiles its own files
      const snapshot = fetchSnapshot(options.indexURL);
      snapshot.catch(() => {}); // a failure is loadPyodide's to report, below
      try {
        const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
        // the snapshot's random state would be every reader's: each gets their own
        pyodide.runPython("import random; random.seed()");
        return pyodide;
      } catch (error) {
        console.warn(`Python starts without its snapshot (${error})`);
      }
    }
    return loadPyodide(options);
  }

  scope.loadPyodideWithSnapshot = loadWithSnapshot;
  if (typeof importScripts === "function") {
    // the kernel's worker: importScripts(this file), then self.loadPyodide({indexURL, ...})
    scope.loadPyodide = function loadPyodide(options) {
      importScripts(options.indexURL + "pyodide.js"); // Pyodide's own, in the same folder
      const pyodidesOwn = scope.loadPyodide;
      scope.loadPyodide = loadPyodide;
      return loadWithSnapshot(pyodidesOwn, options);
    };
  }
})(globalThis);
