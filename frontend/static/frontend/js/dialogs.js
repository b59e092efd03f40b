// The game page's dialogs, whose markup is in play.html (the race page has the confirm dialog
// too): asking before a game is left, a new game, the aids. A button with data-close="value"
// closes its dialog with that value. The win banner: win_banner.js.

import { $, sentence } from "./dom.js";
import { CLASSIC, parseCode } from "./engine.js";
import { codeErrorText } from "./i18n.js";

// Close a dialog from any button marked data-close; Escape closes as the browser does.
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-close]");
  const dialog = button?.closest("dialog");
  if (dialog) dialog.close(button.dataset.close);
});

/**
 * Ask before leaving or rewinding a game: the confirm dialog with these words. Resolves true
 * when the player agrees.
 */
export async function confirmDialog({ title, text, yes }) {
  const dialog = $('[data-dialog="confirm"]');
  $("[data-confirm-title]", dialog).textContent = title;
  $("[data-confirm-text]", dialog).textContent = text;
  $('[data-close="leave"]', dialog).textContent = yes;
  return (await openDialog(dialog)) === "leave";
}

/** Show a modal dialog; resolves with the value it was closed with ("" for Escape). */
export function openDialog(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
    dialog.showModal();
  });
}

/**
 * New game: a fresh deal under Classic or Relaxed rules (winnable deals only, or not), or a
 * typed or pasted code. `onWinnable(on)`: the player ticked or unticked "Winnable deals only".
 */
export class NewGameDialog {
  constructor(dialog, onWinnable) {
    this.dialog = dialog;
    this.input = $("[data-code-input]", dialog);
    this.error = $("[data-code-error]", dialog);
    this.winnable = $('input[name="winnableOnly"]', dialog);
    this.dealNote = $("[data-deal-note]", dialog);
    this.signedOutNote = $("[data-deal-note-signed-out]", dialog);
    this.winnable.addEventListener("change", () => {
      this.#showNote();
      onWinnable(this.winnable.checked);
    });
    $('[data-action="deal"]', dialog).addEventListener("click", () => this.#deal());
    $('[data-action="play-code"]', dialog).addEventListener("click", () => this.#playCode());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.#playCode();
      }
    });
    this.input.addEventListener("input", () => (this.error.textContent = ""));
  }

  /**
   * Resolves with the player's choice: `{rules}` for a new deal, `{code}` for a typed code,
   * `{results: true}` to see the results; null when the dialog is closed without one.
   * `signedIn`: a new deal is ranked; signed out, it is unranked (the note says which).
   */
  async open(rules, { winnableOnly = false, signedIn = false } = {}) {
    this.signedIn = signedIn;
    this.choice = null;
    for (const radio of this.dialog.querySelectorAll('input[name="rules"]')) radio.checked = radio.value === rules;
    this.winnable.checked = winnableOnly;
    this.#showNote();
    this.input.value = "";
    this.error.textContent = "";
    const closedWith = await openDialog(this.dialog);
    return closedWith === "results" ? { results: true } : this.choice;
  }

  // What a new deal is for this player: ranked signed in, unranked signed out; neither
  // note with winnable deals, whose option says why.
  #showNote() {
    this.dealNote.hidden = this.winnable.checked || !this.signedIn;
    this.signedOutNote.hidden = this.winnable.checked || this.signedIn;
  }

  #deal() {
    this.choice = { rules: $('input[name="rules"]:checked', this.dialog)?.value ?? CLASSIC };
    this.dialog.close("deal");
  }

  #playCode() {
    try {
      this.choice = { code: parseCode(this.input.value).code };
      this.dialog.close("code");
    } catch (error) {
      this.error.textContent = sentence(codeErrorText(error));
      this.input.focus();
    }
  }
}

/** The aids: one checkbox per setting, applied as soon as it is ticked. */
export class SettingsDialog {
  constructor(dialog, onChange) {
    this.dialog = dialog;
    dialog.addEventListener("change", (event) => {
      const box = event.target;
      if (box.type === "checkbox") onChange(box.name, box.checked);
    });
  }

  open(settings) {
    for (const box of this.dialog.querySelectorAll('input[type="checkbox"]')) box.checked = Boolean(settings[box.name]);
    return openDialog(this.dialog);
  }
}

