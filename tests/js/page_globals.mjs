// What the page's modules touch of the browser, for tests in Node: localStorage (a fresh
// MemoryStorage per test), the change event, the CSRF cookie.
export class MemoryStorage {
  #items = new Map();
  getItem = (key) => (this.#items.has(key) ? this.#items.get(key) : null);
  setItem = (key, value) => this.#items.set(key, String(value));
  removeItem = (key) => this.#items.delete(key);
}

globalThis.dispatchEvent ??= () => true;
globalThis.document ??= { cookie: "csrftoken=token" };
