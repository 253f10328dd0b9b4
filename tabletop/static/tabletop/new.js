// The New table form: only the chosen game's options are shown and sent.
  (function () {
    var select = document.getElementById("ruleset");
    function sync() {
      document.querySelectorAll(".game-options").forEach(function (f) {
        var on = f.dataset.game === select.value;
        f.disabled = !on; f.hidden = !on;
      });
    }
    select.addEventListener("change", sync); sync();
  })();
