// The check a player can make of a finished hidden-card game (docs/security.md, "Checking a
// hidden-card game"): at issue the server committed to the deal with SHA-256("<code>:<secret>");
// once the game is finished it publishes the code and the secret. The deal is fair to the
// player when the hash of the two is the commitment the page was given before the first move,
// and the code's deal holds every card the page was shown where it was shown. The code is YU2
// (a whole deck) for games dealt since hidden-card games were dealt from any permutation, YU1
// for those before: parseCode and dealLayout read both.

import { dealLayout, parseCode, parseCard } from "./engine.js";

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Does the deal of `code` hold every card of `knownDeal` (a visible deal, null unknown)? */
export function dealAgrees(code, knownDeal) {
  let parsed;
  try {
    parsed = parseCode(code);
  } catch {
    return false;
  }
  if (parsed.rules !== knownDeal?.rules || !Array.isArray(knownDeal.columns)) return false;
  const { columns } = dealLayout(parsed.number);
  return knownDeal.columns.every(
    (cards, column) => Array.isArray(cards) && cards.length === columns[column]?.length && cards.every((name, depth) => name === null || parseCard(name) === columns[column][depth]),
  );
}

/** Is SHA-256("<code>:<secret>") the commitment? null where the browser cannot hash (not a secure page). */
export async function commitmentHolds({ code, secret, commitment }) {
  if (!globalThis.crypto?.subtle) return null;
  return (await sha256Hex(`${code}:${secret}`)) === commitment;
}

/**
 * The verdict on a finished hidden-card game: `{state, code}` with state "fair" (the hash is
 * the commitment and the deal agrees), "unfair" (either fails), or "unchecked" (the browser
 * cannot hash here, e.g. not a secure page).
 */
export async function checkDeal({ code, secret, commitment, knownDeal }) {
  const holds = await commitmentHolds({ code, secret, commitment });
  if (holds === null) return { state: "unchecked", code };
  return { state: holds && dealAgrees(code, knownDeal) ? "fair" : "unfair", code };
}
