// The Rules Explorer's publishing template (index.html.j2): every cell is in the page; show
// them (Voilà's inline `window.voila_finish()`, as a file for the Content-Security-Policy).
window.voila_finish();
