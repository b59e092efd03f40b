// The race pages: /race (the form that creates a race or a challenge: race_form.js; quick
// match beside it: race_quick.js) and /race/<id> (the race or the challenge itself: race_room.js). docs/races.md.

import { $, replayEarlyPresses } from "./dom.js";
import { RaceForm } from "./race_form.js";
import { QuickMatch } from "./race_quick.js";
import { RaceRoom } from "./race_room.js";

const room = $("[data-race]");
const form = $("[data-race-form]");
const quick = $("[data-quick-match]");
if (room) new RaceRoom(room).start();
else if (form) {
  new RaceForm(form);
  if (quick) new QuickMatch(quick);
}
else import("./page.js").then(({ startPage }) => startPage()); // signed out: the header still follows
// The page's buttons listen now (the table's own, Undo and Finish, are hidden until it shows).
replayEarlyPresses();
