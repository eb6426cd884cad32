// The Rules Explorer's publishing template (index.html.j2): Voilà's inline page helpers as a
// file, because the server's Content-Security-Policy allows no inline script. Loaded before
// the first cell is written.
(function () {
  "use strict";
  window.voila_heartbeat = function () {
    console.log("Ok, voila is still executing...");
  };
  window.update_loading_text = function (cellIndex, cellCount, text) {
    const spinner = document.getElementById("loading");
    if (spinner && spinner.style.display === "none") {
      spinner.style.display = "flex";
    }
    const line = document.getElementById("loading_text");
    if (line) {
      line.textContent = text ?? `Executing ${cellIndex} of ${cellCount}`;
    }
  };
  window.display_cells = function () {
    // voila.js calls this again once the theme has loaded
    if (!window.themeLoaded) {
      window.cellLoaded = true;
      return;
    }
    const spinner = document.getElementById("loading");
    if (spinner) {
      spinner.parentNode.removeChild(spinner);
    }
    const cells = document.getElementById("rendered_cells");
    if (cells) {
      cells.style.display = "";
    }
  };
  // "← All pages" on every page of the publishing mode's tree (voila/render/...) but the
  // landing page; a single-notebook dashboard (served at "/") has no landing to go back to
  const home = document.querySelector(".re-home");
  const path = window.location.pathname;
  if (home && path.includes("/voila/render/") && !path.endsWith("/index.ipynb")) {
    home.hidden = false;
  }
  window.voila_process = window.update_loading_text;
  window.voila_finish = window.display_cells;

  // Voilà wrote `<script>voila_process(i, n)</script>` into each cell as the page streamed
  // in; the cells now carry cell-index and data-cell-count, read here as they arrive.
  const cells = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === Node.ELEMENT_NODE && node.hasAttribute("data-cell-count")) {
          window.voila_process(Number(node.getAttribute("cell-index")), Number(node.dataset.cellCount));
        }
      }
    }
  });
  cells.observe(document.documentElement, { childList: true, subtree: true });
  window.addEventListener("DOMContentLoaded", () => cells.disconnect());
})();
