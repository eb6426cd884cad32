// The static site's runtime script (the Pyodide kernel's `pyodideUrl`, shipped as
// static/pyodide/load-snapshot.js): Pyodide's own loadPyodide, with Python restored from the
// snapshot the build wrote (snapshot.bin.gz, make_snapshot.js) instead of started afresh and
// made to import IPython, the widgets and the games and start the Pyodide kernel again, and the
// files Python had then (its packages', IPython's profile) written into the file system from
// the build's tar of them (snapshot-files.tar.gz) instead of each wheel fetched and unpacked by
// Pyodide in Python. Where either cannot be fetched, unpacked or restored (a browser without
// DecompressionStream, a host that lost a file), Python starts as it does without them:
// slower, never broken.
//
// The same file is also each page's early fetch (a worker the page starts as its first
// script, `load-snapshot.js#prefetch`): the two files fetched and unpacked while the page's
// own scripts start (about 1.7 s here), and moved, not copied, to the kernel's worker when it
// asks: the page hands the two workers the ends of one MessageChannel (publish/static_site.py,
// EARLY_FETCH), over which the bytes are transferred. (Over a BroadcastChannel, which can only
// copy, the 59 MB took 0.5 s to reach the kernel's worker.) No early fetch answering in time
// (a page without it, a second kernel of the page's), the kernel's worker fetches them.
(function (scope) {
  const SNAPSHOT = "snapshot.bin.gz";
  const FILES = "snapshot-files.tar.gz";
  const CHANNEL = "default channel"; // what Pyodide's loadPackage notes for a package of the lock
  const ASK = "rules-explorer: the snapshot fetched early"; // the messages' key (page, workers)
  const PATIENCE = 500; // ms the kernel's worker waits for the page to answer

  async function fetchGzipped(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url.split("/").pop()}: HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes; // a host that sent it as gzip-encoded
    const unpacked = new Response(bytes).body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(unpacked).arrayBuffer());
  }

  // The page's early fetch (its own worker): the files fetched and unpacked at once, and moved
  // to the one kernel's worker that asks for them all over the port the page gives it; then
  // the worker ends.
  function prefetch(folder) {
    const urls = [SNAPSHOT, FILES].map((name) => new URL(name, folder).href);
    const fetched = new Map(urls.map((url) => [url, fetchGzipped(url)]));
    fetched.forEach((promise) => promise.catch(() => {})); // told to the one who asks
    const unasked = setTimeout(() => scope.close(), 120000); // a page whose kernel never started
    scope.onmessage = (event) => {
      const port = event.data && event.data[ASK] === "port" && event.ports[0];
      if (!port) return;
      scope.onmessage = null;
      clearTimeout(unasked);
      port.onmessage = async ({ data }) => {
        for (const url of (data && data.urls) || []) { // in the order asked
          try {
            if (!fetched.has(url)) throw new Error(`${url} is not fetched early`);
            const bytes = await fetched.get(url);
            port.postMessage({ url, bytes }, [bytes.buffer]);
          } catch (error) {
            port.postMessage({ url, error: String(error) });
          }
        }
        port.close();
        scope.close();
      };
    };
  }

  // The kernel's worker asks the page for the early fetch's port, and over it for `urls`: a
  // promise of each one's bytes, or null when the page gives no port within PATIENCE ms.
  function askEarlyFetch(urls) {
    if (typeof MessageChannel !== "function" || typeof scope.postMessage !== "function") {
      return Promise.resolve(null);
    }
    const waiting = new Map();
    const answers = Object.fromEntries(
      urls.map((url) => [url, new Promise((resolve, reject) => waiting.set(url, { resolve, reject }))]),
    );
    return new Promise((resolve) => {
      const given = (event) => {
        if (!event.data || event.data[ASK] !== "port") return;
        scope.removeEventListener("message", given);
        clearTimeout(noOne);
        const port = event.ports[0];
        if (!port) return resolve(null); // the page's early fetch went to another kernel
        port.onmessage = ({ data }) => {
          const promise = data && waiting.get(data.url);
          if (!promise) return;
          waiting.delete(data.url);
          if (data.error) promise.reject(new Error(data.error));
          else promise.resolve(data.bytes);
          if (waiting.size === 0) port.close();
        };
        port.postMessage({ urls });
        resolve(answers);
      };
      const noOne = setTimeout(() => {
        scope.removeEventListener("message", given);
        resolve(null);
      }, PATIENCE);
      scope.addEventListener("message", given);
      scope.postMessage({ [ASK]: "port?" }); // to the page (JupyterLite's messages have an id)
    });
  }

  // the bytes of each of `names` (in Pyodide's folder): handed over by the page's early
  // fetch, else (none answered, or it failed) fetched here
  function snapshotFiles(folder, names) {
    const here = scope.location && scope.location.href; // none in Node.js, where paths are files
    const urls = names.map((name) => (here ? new URL(folder + name, here).href : folder + name));
    const early = askEarlyFetch(urls);
    return urls.map((url) =>
      early.then((answers) => (answers ? answers[url].catch(() => fetchGzipped(url)) : fetchGzipped(url))),
    );
  }

  async function fetchLock(url) {
    const response = await fetch(url); // Pyodide's own request for it, answered from the cache
    if (!response.ok) throw new Error(`pyodide-lock.json: HTTP ${response.status}`);
    return response.json();
  }

  // the entries of a ustar archive (as Python's tarfile writes it: folders and plain files)
  function* untar(bytes) {
    const decoder = new TextDecoder();
    const text = (start, length) => decoder.decode(bytes.subarray(start, start + length)).replace(/\0[^]*$/, "");
    for (let at = 0; at + 512 <= bytes.length && bytes[at] !== 0; ) {
      const prefix = text(at + 345, 155);
      const path = (prefix ? prefix + "/" : "") + text(at, 100);
      const size = parseInt(text(at + 124, 12).trim() || "0", 8);
      const type = text(at + 156, 1) || "0";
      if (type !== "0" && type !== "5") throw new Error(`${FILES}: ${path} is neither a file nor a folder`);
      yield { path, folder: type === "5", data: bytes.subarray(at + 512, at + 512 + size) };
      at += 512 + Math.ceil(size / 512) * 512;
    }
  }

  // `names` and everything they depend on, in the lock's names (as Pyodide would load them),
  // sorted, each after its dependencies (make_snapshot.js loads them in this order)
  function dependenciesFirst(locked, names) {
    const order = [];
    const visit = (given) => {
      const name = given.toLowerCase().replace(/[-_.]+/g, "-"); // as the lock writes names
      if (order.includes(name)) return;
      if (!locked[name]) throw new Error(`${name} is not in pyodide-lock.json`);
      for (const dependency of [...locked[name].depends].sort()) visit(dependency);
      order.push(name);
    };
    [...names].sort().forEach(visit);
    return order;
  }

  // What the snapshot holds of Pyodide's own, by name (make_snapshot.js): the same on this
  // Pyodide, `current()`, once loadPyodide has returned it (nothing calls them before that).
  function findAgain(current) {
    return (named) => {
      const real = () => (named.pyodide ? current()[named.pyodide] : current()._api[named.api]);
      if (named.kind === "function") {
        return function (...args) {
          return real().apply(this, args);
        };
      }
      return new Proxy(
        {},
        {
          get: (_, key) => Reflect.get(real(), key),
          set: (_, key, value) => Reflect.set(real(), key, value),
          has: (_, key) => Reflect.has(real(), key),
          deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
          ownKeys: () => Reflect.ownKeys(real()),
          getOwnPropertyDescriptor: (_, key) => {
            const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
            return descriptor && { ...descriptor, configurable: true };
          },
        },
      );
    };
  }

  async function loadWithSnapshot(loadPyodide, options) {
    if (typeof DecompressionStream === "function") {
      // fetched and unpacked while Pyodide fetches and compiles its own files
      // the tar first: Pyodide writes the files before it restores the memory
      const [files, snapshot] = snapshotFiles(options.indexURL, [FILES, SNAPSHOT]);
      const lock = fetchLock(options.lockFileURL || options.indexURL + "pyodide-lock.json");
      [snapshot, files, lock].forEach((promise) => promise.catch(() => {})); // reported below
      let restored = null;
      try {
        const pyodide = await loadPyodide({
          ...options,
          packages: [], // their files come from the tar, their modules from the snapshot
          _loadSnapshot: snapshot,
          _snapshotDeserializer: findAgain(() => restored),
          async fsInit(FS, info) {
            for (const entry of untar(await files)) {
              if (entry.folder) FS.mkdirTree(`/${entry.path}`);
              else FS.writeFile(`/${entry.path}`, entry.data, { canOwn: true }); // no copy: the tar stays
            }
            if (options.fsInit) await options.fsInit(FS, info);
          },
        });
        restored = pyodide;
        // as if loadPackage had loaded them: a later loadPackage or import finds them there
        const packages = dependenciesFirst((await lock).packages, options.packages || []);
        for (const name of packages) pyodide.loadedPackages[name] = CHANNEL;
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
  scope.pyodideLockOrder = dependenciesFirst; // for make_snapshot.js, in Node
  if (typeof importScripts === "function" && scope.location.hash === "#prefetch") {
    prefetch(new URL(".", scope.location.href)); // the page's early fetch
  } else if (typeof importScripts === "function") {
    // the kernel's worker: importScripts(this file), then self.loadPyodide({indexURL, ...})
    scope.loadPyodide = function loadPyodide(options) {
      importScripts(options.indexURL + "pyodide.js"); // Pyodide's own, in the same folder
      const pyodidesOwn = scope.loadPyodide;
      scope.loadPyodide = loadPyodide;
      return loadWithSnapshot(pyodidesOwn, options);
    };
  }
})(globalThis);
