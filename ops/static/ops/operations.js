// The operations page reloads itself every 10 s (a script, not <meta http-equiv="refresh">:
// the reader can pause it, WCAG 2.2.1), and not while the tab is hidden or paused.
(function () {
  var paused = false, button = document.getElementById("ops-pause");
  if (button) button.addEventListener("click", function () {
    paused = !paused;
    button.textContent = paused ? "Resume refreshing" : "Pause refreshing";
    button.setAttribute("aria-pressed", paused ? "true" : "false");
  });
  setInterval(function () {
    if (!paused && document.visibilityState === "visible") window.location.reload();
  }, 10000);
})();
