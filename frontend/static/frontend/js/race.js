// The race pages: /race (the form that creates a race or a challenge: race_form.js) and
// /race/<id> (the race or the challenge itself: race_room.js). docs/races.md.

import { $ } from "./dom.js";
import { RaceForm } from "./race_form.js";
import { RaceRoom } from "./race_room.js";

const room = $("[data-race]");
const form = $("[data-race-form]");
if (room) new RaceRoom(room).start();
else if (form) new RaceForm(form);
else import("./page.js").then(({ startPage }) => startPage()); // signed out: the header still follows
