// The console's little script: what it does is a convenience, never needed. A "Copy" button
// (hidden until this runs) copies the text of the element its data-copy names and says so in the
// page's words (its data-copied and data-copy-failed).
"use strict";
document.querySelectorAll("button.copy[data-copy]").forEach((button) => {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = button.dataset.copied;
    } catch {
      button.textContent = button.dataset.copyFailed;
    }
  });
});
// A "Print" button (hidden until this runs) prints the page; its print style keeps the statement.
document.querySelectorAll("button.print-page").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
