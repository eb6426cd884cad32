// The board in the browser: an SVG drawn by the kernel side (widgets/draw.py through
// widgets/svg.py), scaled to its container, crisp at any device pixel ratio.
// Clicks and the keyboard turn into cell ids sent to Python; nothing else is decided here.
//
// Keyboard: the board is one Tab stop (Tab and Shift+Tab pass through it); arrow keys move a
// visible cursor over the clickable cells, Enter or Space "clicks" the cell under it,
// Escape clears a selection; PageUp/PageDown step back and on through the game's history and
// Home/End go to its start and end. The cursor's cell is announced in a polite live region.

const SVG_NS = "http://www.w3.org/2000/svg";

function centre(el) {
  const b = el.getBBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

// The nearest cell in the arrow's direction, preferring cells on the same row or column.
function step(cells, from, dx, dy) {
  const [x0, y0] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const el of cells) {
    if (el === from) continue;
    const [x, y] = centre(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along <= 1 || across > along * 1.8) continue;
    const score = along + 2.5 * across;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  return best;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "re-board";
  root.tabIndex = 0;
  root.setAttribute("role", "application");
  root.setAttribute("aria-roledescription", "game board");
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("xmlns", SVG_NS);
  const scene = document.createElementNS(SVG_NS, "g");
  const highlight = document.createElementNS(SVG_NS, "g");
  const hits = document.createElementNS(SVG_NS, "g");
  const cursorRing = document.createElementNS(SVG_NS, "rect");
  scene.setAttribute("class", "re-scene");
  highlight.setAttribute("class", "re-highlight");
  hits.setAttribute("class", "re-hits");
  cursorRing.setAttribute("class", "re-cursor");
  svg.append(scene, highlight, hits, cursorRing);
  const live = document.createElement("div");
  live.className = "re-sr-only";
  live.setAttribute("aria-live", "polite");
  root.append(svg, live);
  el.append(root);

  let cursor = null; // the cell id under the keyboard cursor

  const cellEls = () => Array.from(hits.querySelectorAll("[data-cell]"));
  const cellEl = (id) => cellEls().find((e) => e.dataset.cell === id) || null;

  // the cursor's cell as the hit layer now names it, its announcement kept current: a redraw
  // (a move, a selection naming its targets) rewrites what the live region says of the cell,
  // and a cell gone, or words no longer true with the focus elsewhere, leave it empty
  function showCursor(announce) {
    const target = cursor === null ? null : cellEl(cursor);
    const words = target ? target.getAttribute("aria-label") || cursor : "";
    if (!target || document.activeElement !== root) {
      cursorRing.setAttribute("visibility", "hidden");
      if (live.textContent !== words) live.textContent = "";
      return;
    }
    const b = target.getBBox();
    cursorRing.setAttribute("x", b.x + 2);
    cursorRing.setAttribute("y", b.y + 2);
    cursorRing.setAttribute("width", Math.max(0, b.width - 4));
    cursorRing.setAttribute("height", Math.max(0, b.height - 4));
    cursorRing.setAttribute("visibility", "visible");
    if (announce || (live.textContent && live.textContent !== words)) live.textContent = words;
  }

  function sizeSvg() {
    const w = model.get("view_width");
    const h = model.get("view_height");
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.style.maxWidth = `${w * model.get("zoom")}px`;
    svg.style.aspectRatio = `${w} / ${h}`;
  }

  function drawScene() {
    // a new drawing (a move, the hand-over's empty board, a new game): the cursor's last
    // words go, as they may name what this drawing hides; on the board the keyboard is on,
    // the cursor's cell is announced again as this drawing names it
    live.textContent = "";
    sizeSvg();
    scene.innerHTML = model.get("scene_svg");
    root.setAttribute("aria-label", model.get("label"));
    drawHighlight();
    drawHits(document.activeElement === root);
  }

  // the hit layer alone (a selection names what its lit targets do): the scene stays drawn
  function drawHits(announce = false) {
    hits.innerHTML = model.get("hit_svg");
    if (cursor !== null && !cellEl(cursor)) cursor = null;
    showCursor(announce === true);
  }

  function drawHighlight() {
    highlight.innerHTML = model.get("highlight_svg");
  }

  function press(cell) {
    cursor = cell;
    model.send({ event: "click", cell: cell });
  }

  hits.addEventListener("pointerdown", (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target) return;
    press(target.dataset.cell);
    showCursor(false);
  });

  root.addEventListener("focus", () => {
    if (cursor === null || !cellEl(cursor)) {
      const start = model.get("cursor_start");
      const cells = cellEls();
      cursor = cellEl(start) ? start : cells.length ? cells[0].dataset.cell : null;
    }
    showCursor(true);
  });
  root.addEventListener("blur", () => cursorRing.setAttribute("visibility", "hidden"));

  const HISTORY_KEYS = ["PageUp", "PageDown", "Home", "End"]; // step through the game
  const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key in DIRECTIONS) {
      event.preventDefault();
      const from = cursor === null ? null : cellEl(cursor);
      const cells = cellEls();
      if (!from) {
        cursor = cells.length ? cells[0].dataset.cell : null;
      } else {
        const [dx, dy] = DIRECTIONS[event.key];
        const next = step(cells, from, dx, dy);
        if (next) cursor = next.dataset.cell;
      }
      showCursor(true);
    } else if ((event.key === "Enter" || event.key === " ") && cursor !== null) {
      event.preventDefault();
      press(cursor);
    } else if (event.key === "Escape") {
      model.send({ event: "escape" });
    } else if (HISTORY_KEYS.includes(event.key)) {
      event.preventDefault();
      model.send({ event: "history", key: event.key });
    }
    // every other key (Tab above all) keeps its usual meaning
  });

  // tell the kernel how wide the board is on the page (a phone lays the zones out under
  // the map); report changes of more than a few pixels only, rounded, to avoid ping-pong
  const reportWidth = () => {
    const width = Math.floor(root.getBoundingClientRect().width / 10) * 10;
    if (width > 0 && Math.abs(width - model.get("client_width")) >= 20) {
      model.set("client_width", width);
      model.save_changes();
    }
  };
  new ResizeObserver(reportWidth).observe(root);

  model.on("change:scene_svg", drawScene);
  model.on("change:hit_svg", drawHits);
  model.on("change:highlight_svg", drawHighlight);
  model.on("change:view_width", sizeSvg);
  model.on("change:view_height", sizeSvg);
  model.on("change:zoom", sizeSvg);
  model.on("change:label", () => root.setAttribute("aria-label", model.get("label")));
  drawScene();
}

export default { render };
