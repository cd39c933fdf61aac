// The little of the DOM that the page modules under test use, for node, which
// has none: elements that keep their children, text, classes, attributes and
// data in plain fields a test can read back, and a document that makes them.
// Not a test file itself (node --test runs only *.test.mjs here).

export class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.className = "";
    this.textContent = "";
    this.children = [];
    this.attributes = {};
    this.dataset = {};
    this.scrollTop = 0;
    this.scrollHeight = 0;
    this.classList = {
      contains: (name) => this.className.split(" ").includes(name),
      toggle: (name, on) => {
        const names = this.className.split(" ").filter((n) => n && n !== name);
        this.className = (on ? [...names, name] : names).join(" ");
      },
    };
  }

  get firstChild() {
    return this.children[0] || null;
  }

  appendChild(child) {
    this.children.push(child);
    return child;
  }

  removeChild(child) {
    this.children.splice(this.children.indexOf(child), 1);
    return child;
  }

  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }
}

// Makes globalThis.document one that creates FakeElements. It finds by id the
// elements in the object returned, which the test fills in as its page has them.
export function installFakeDocument() {
  const byId = {};
  globalThis.document = {
    createElement: (tag) => new FakeElement(tag),
    createTextNode: (text) => ({ textContent: text, children: [] }),
    getElementById: (id) => byId[id] || null,
  };
  return byId;
}
