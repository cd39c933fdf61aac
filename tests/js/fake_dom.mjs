// The little of the DOM that the page modules under test use, for node, which
// has none: elements that keep their children, text, classes, attributes and
// data in plain fields a test can read back, and a document that makes them.
// Not a test file itself (node --test runs only *.test.mjs here). Unlike a
// page's, an element's `children` holds its text nodes too (`childNodes` is
// the same list).

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class FakeText {
  constructor(text) {
    this.nodeName = "#text";
    this.textContent = text;
    this.children = [];
  }

  isEqualNode(other) {
    return other instanceof FakeText && other.textContent === this.textContent;
  }
}

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

  get nodeName() {
    return this.tagName;
  }

  get childNodes() {
    return this.children;
  }

  // As a page's: same kind, class, text, attributes, data and children.
  isEqualNode(other) {
    return (
      other instanceof FakeElement &&
      other.tagName === this.tagName &&
      other.className === this.className &&
      other.textContent === this.textContent &&
      sameJson(other.attributes, this.attributes) &&
      sameJson(other.dataset, this.dataset) &&
      other.children.length === this.children.length &&
      this.children.every((child, i) => child.isEqualNode(other.children[i]))
    );
  }

  insertBefore(child, before) {
    const from = this.children.indexOf(child);
    if (from >= 0) this.children.splice(from, 1);
    const at = before === null ? this.children.length : this.children.indexOf(before);
    this.children.splice(at, 0, child);
    return child;
  }

  replaceChild(child, old) {
    this.children[this.children.indexOf(old)] = child;
    return old;
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
    createTextNode: (text) => new FakeText(text),
    getElementById: (id) => byId[id] || null,
  };
  return byId;
}
