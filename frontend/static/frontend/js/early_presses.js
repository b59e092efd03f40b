// A classic script, run before the page's modules: a button pressed in the moment after the page
// shows, before its module has run, would be lost (nobody was listening yet). Such presses are
// kept here, and the page's module presses them again once it listens (takeEarlyPresses).
// Buttons inside dialogs are left alone: only the module opens a dialog.
(() => {
  const pressed = [];
  const keep = (event) => {
    const button = event.target.closest?.('button[type="button"]');
    if (button && !button.closest("dialog") && !pressed.includes(button)) pressed.push(button);
  };
  document.addEventListener("click", keep, true);
  window.takeEarlyPresses = () => {
    document.removeEventListener("click", keep, true);
    return pressed.splice(0);
  };
})();
