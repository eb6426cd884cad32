// The move list in the browser: the game's current line in words, numbered by turn, each
// action a choice that shows its position. Everything here is text from the kernel side put
// in with textContent (never as markup); the only thing decided here is which ply was asked for.
//
// Keyboard: the list is one Tab stop; Left/Up step back, Right/Down step on, Home goes to the
// start and End to the last position of the line. The kernel moves the game and sends back
// the ply shown (`current`), which the list marks and keeps in sight.

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
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = model.get("current");
    if (event.key in STEPS) go(current + STEPS[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(last());
    else return; // Tab and every other key keep their meaning
    event.preventDefault();
  });

  model.on("change:turns", draw);
  model.on("change:current", mark);
  model.on("change:label", () => root.setAttribute("aria-label", model.get("label")));
  draw();
}

export default { render };
