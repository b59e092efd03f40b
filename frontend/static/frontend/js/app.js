// Entry point of the browser game. Loaded as a module from our own origin, so it also
// shows that the Content-Security-Policy lets the site's own scripts run.
const section = document.querySelector("[data-app-status]");
const text = document.querySelector("[data-app-status-text]");
if (section && text) {
  section.dataset.appStatus = "ready";
  text.textContent = "Ready.";
}
