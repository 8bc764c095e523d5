// The console's little script: what it does is a convenience, never needed. A "Copy" button
// (hidden until this runs) copies the text of the element its data-copy names.
"use strict";
document.querySelectorAll("button.copy[data-copy]").forEach((button) => {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed: select the link";
    }
  });
});
