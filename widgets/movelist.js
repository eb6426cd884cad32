// The move list in the browser: the game's current line in words, numbered by turn, each
// action a choice that shows its position. Everything here is text from the kernel side put
// in with textContent (never as markup); the only thing decided here is which ply was asked for.
//
// Keyboard: the list is one Tab stop; Left/Up step back, Right/Down step on, Home goes to the
// start and End to the last position of the line. The kernel moves the game and sends back
// the ply shown (`current`), which the list marks and keeps in sight. Left, Right, Home and
// End do the same wherever the focus is not in something that reads those keys itself (a
// text field, a menu, a slider, the board's cursor): for the list the reader last used, or
// the page's only one.

const lists = new Set(); // each list on the page: { root, step }
let lastUsed = null;
const OWN_KEYS = "input, textarea, select, [contenteditable], [role=slider], [role=listbox], .re-board";
const PAGE_STEPS = { ArrowLeft: -1, ArrowRight: 1 };

function onPageKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  if (!(event.key in PAGE_STEPS) && event.key !== "Home" && event.key !== "End") return;
  const focus = document.activeElement;
  if (focus && focus !== document.body && focus.closest(OWN_KEYS)) return;
  for (const list of lists) if (!list.root.isConnected) lists.delete(list);
  const list = lastUsed && lastUsed.root.isConnected ? lastUsed : lists.size === 1 ? [...lists][0] : null;
  if (list && list.step(event.key)) event.preventDefault();
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "re-movelist";
  root.tabIndex = 0;
  root.setAttribute("role", "listbox");
  const live = document.createElement("div");
  live.className = "re-sr-only";
  live.setAttribute("aria-live", "polite");
  el.append(root, live);

  const options = () => Array.from(root.querySelectorAll("[data-ply]"));
  const last = () => {
    const all = options();
    return all.length ? Number(all[all.length - 1].dataset.ply) : 0;
  };

  function go(ply) {
    const target = Math.max(0, Math.min(last(), ply));
    if (target !== model.get("current")) model.send({ event: "go", ply: target });
  }

  function option(ply, text, extra) {
    const item = document.createElement("span");
    item.className = "re-move" + (extra ? " " + extra : "");
    item.setAttribute("role", "option");
    item.id = `${model.cid || "re"}-ply-${ply}`;
    item.dataset.ply = String(ply);
    item.textContent = text;
    return item;
  }

  function draw() {
    live.textContent = ""; // the last move said was of the list drawn before (another game or view)
    root.replaceChildren();
    root.setAttribute("aria-label", model.get("label"));
    root.append(option(0, "Start", "re-start"));
    for (const turn of model.get("turns")) {
      const row = document.createElement("div");
      row.className = "re-turn" + (turn.chance ? " re-chance" : "");
      if (turn.number) {
        const number = document.createElement("span");
        number.className = "re-turn-no";
        number.textContent = `${turn.number}.`;
        row.append(number);
      }
      if (turn.colour) {
        const swatch = document.createElement("span");
        swatch.className = "re-swatch";
        swatch.style.background = turn.colour;
        row.append(swatch);
      }
      const side = document.createElement("span");
      side.className = "re-side-name";
      side.textContent = turn.side;
      row.append(side);
      turn.actions.forEach(([ply, text], i) => {
        if (i > 0) row.append(document.createTextNode("; "));
        row.append(option(ply, text));
      });
      root.append(row);
    }
    mark();
  }

  function mark() {
    const current = model.get("current");
    let shown = null;
    for (const item of options()) {
      const on = Number(item.dataset.ply) === current;
      item.setAttribute("aria-selected", on ? "true" : "false");
      if (on) shown = item;
    }
    if (shown) {
      root.setAttribute("aria-activedescendant", shown.id);
      // keep the shown move in sight inside the list, without scrolling the page
      const top = shown.offsetTop - root.offsetTop;
      if (top < root.scrollTop) root.scrollTop = top;
      else if (top + shown.offsetHeight > root.scrollTop + root.clientHeight)
        root.scrollTop = top + shown.offsetHeight - root.clientHeight;
      if (document.activeElement === root) live.textContent = shown.closest(".re-turn")
        ? `${shown.closest(".re-turn").querySelector(".re-side-name").textContent}: ${shown.textContent}`
        : shown.textContent;
    }
  }

  root.addEventListener("click", (event) => {
    const item = event.target.closest("[data-ply]");
    if (item) go(Number(item.dataset.ply));
  });

  const STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  function step(key) {
    const current = model.get("current");
    if (key in STEPS) go(current + STEPS[key]);
    else if (key === "Home") go(0);
    else if (key === "End") go(last());
    else return false; // Tab and every other key keep their meaning
    return true;
  }
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (step(event.key)) event.preventDefault();
  });

  const entry = { root, step };
  lists.add(entry);
  const used = () => (lastUsed = entry);
  root.addEventListener("focus", used);
  root.addEventListener("pointerdown", used);
  document.addEventListener("keydown", onPageKey); // once: the same listener is not added twice

  model.on("change:turns", draw);
  model.on("change:current", mark);
  model.on("change:label", () => root.setAttribute("aria-label", model.get("label")));
  draw();
}

export default { render };
