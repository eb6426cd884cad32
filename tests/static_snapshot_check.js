// node static_snapshot_check.js SITE: the site's load-snapshot.js in Node, as the browser's
// kernel runs it (tests/test_static_site.py reads what it prints): Python restored from the
// snapshot (and its packages' files from snapshot-files.tar.gz) twice, once more from a host that
// sends the .gz files gzip-encoded (the browser hands over the unpacked bytes), then once with
// the snapshot's files missing. Files are "fetched" from SITE.
const fs = require("fs");
const zlib = require("zlib");
const path = require("path");
const folder = path.join(path.resolve(process.argv[2]), "static", "pyodide") + "/";
const { loadPyodide } = require(folder + "pyodide.js");
require(folder + "load-snapshot.js");

let missing = false;
let encoded = false;
globalThis.fetch = async (url) => {
  const file = folder + url.slice(folder.length);
  if (missing || !url.startsWith(folder) || !fs.existsSync(file)) return new Response(null, { status: 404 });
  const bytes = fs.readFileSync(file);
  return new Response(encoded && url.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes);
};
const warnings = [];
console.warn = (text) => warnings.push(String(text));

const SEEN = `
import json, random, sys
restored = "IPython" in sys.modules and "rules_kernel.games.war_chest" in sys.modules
kernel = found = None
if "pyodide_kernel" in sys.modules:  # started in the snapshot: what it holds of Pyodide's works
    import micropip
    from pyodide_kernel.kernel import _load_packages_from_imports
    await _load_packages_from_imports("import rules_kernel")  # Pyodide's, found again by name
    kernel = type(sys.modules["pyodide_kernel"].kernel_instance).__name__
    found = "rules-explorer" in micropip.list()  # micropip reads Pyodide's loadedPackages
import rules_kernel
state = rules_kernel.load_game("yokai-3x4").initial_state()
json.dumps({"restored": restored, "random": random.random(), "moves": len(state.legal_moves()),
            "kernel": kernel, "found": found})
`;

(async () => {
  const results = [];
  for (const run of ["first", "second", "encoded", "missing"]) {
    missing = run === "missing";
    encoded = run === "encoded";
    const options = { indexURL: folder, packages: ["rules-explorer"] };
    const pyodide = await globalThis.loadPyodideWithSnapshot(loadPyodide, options);
    results.push({ run, ...JSON.parse(await pyodide.runPythonAsync(SEEN)), warnings: warnings.splice(0) });
  }
  console.log(JSON.stringify(results));
})().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
