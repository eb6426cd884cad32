// The evaluation graph in the browser: an SVG drawn by the kernel side (widgets/evalgraph.py,
// every text in it escaped there). Here the ply line follows `current`, and a click, a tap or
// an arrow key becomes the ply asked for (`model.send`); the kernel checks it and moves the
// replay, which sends the new `current` back.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "re-evalgraph";
  root.tabIndex = 0;
  root.setAttribute("role", "slider");
  root.setAttribute("aria-valuemin", "0");
  el.append(root);

  const svg = () => root.querySelector("svg");

  function draw() {
    root.innerHTML = model.get("svg");
    root.hidden = !model.get("svg");
    mark();
  }

  function mark() {
    const plies = model.get("plies");
    const current = model.get("current");
    const [left, right] = model.get("plot");
    const line = root.querySelector(".re-eval-current");
    if (line) {
      const x = left + (plies ? (Math.min(current, plies) / plies) * (right - left) : 0);
      line.setAttribute("x1", x);
      line.setAttribute("x2", x);
    }
    root.setAttribute("aria-valuemax", String(plies));
    root.setAttribute("aria-valuenow", String(current));
    root.setAttribute("aria-label", model.get("label"));
  }

  function go(ply) {
    const target = Math.max(0, Math.min(model.get("plies"), ply));
    if (target !== model.get("current")) model.send({ event: "go", ply: target });
  }

  // the click's x in the SVG's units (it is scaled to its box), then the nearest ply
  root.addEventListener("click", (event) => {
    const picture = svg();
    if (!picture || !picture.getScreenCTM()) return;
    const point = picture.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const at = point.matrixTransform(picture.getScreenCTM().inverse());
    const [left, right] = model.get("plot");
    const plies = model.get("plies");
    go(Math.round(((at.x - left) / (right - left)) * plies));
  });

  const STEPS = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = model.get("current");
    if (event.key in STEPS) go(current + STEPS[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(model.get("plies"));
    else return; // Tab and every other key keep their meaning
    event.preventDefault();
  });

  // the kernel draws the SVG as wide as the graph is, so its text keeps its size on a phone
  function reportWidth() {
    const width = Math.round(root.clientWidth || el.clientWidth);
    if (width > 0 && Math.abs(width - model.get("client_width")) >= 20) {
      model.set("client_width", width);
      model.save_changes();
    }
  }
  new ResizeObserver(reportWidth).observe(el);

  model.on("change:svg", draw);
  model.on("change:current", mark);
  model.on("change:plot", mark);
  model.on("change:label", mark);
  draw();
  reportWidth();
}

export default { render };
