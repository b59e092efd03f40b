// White space exactly as Python's str.split()/str.strip() see it, so that both engines cut
// logs into the same tokens and read codes the same way (JavaScript's \s differs slightly).

const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const TOKEN = new RegExp(`[^${SPACE}]+`, "g");
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");

/** `splitWords(" a  b\n")` → ["a", "b"]. */
export const splitWords = (text) => text.match(TOKEN) ?? [];

/** Surrounding white space removed. */
export const strip = (text) => text.replace(EDGES, "");
