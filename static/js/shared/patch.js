// Bringing a list on the page (a table's rows, a list's items) up to date
// without pulling out the elements a player may be clicking. Replacing a row
// between the press and the release of a button loses the click: the press
// lands on the old link, the release on the new one, and the browser follows
// neither. So a child that has not changed stays the very same element, one
// whose content changed keeps its element and swaps only the parts (a row's
// cells) that differ, and only a child that is new or changed shape is made
// afresh. Nothing here reads the page, so node's test runner imports it.

// Brings `later` into `earlier`, which keeps its element: its class and data
// are `later`'s, and each of its parts (elements and text alike) unlike
// `later`'s is swapped for it. Says whether it could: parts of a different
// number or kind can't be matched.
function patchParts(earlier, later) {
  var before = earlier.childNodes, after = later.childNodes;
  if (earlier.nodeName !== later.nodeName || before.length !== after.length) return false;
  for (var i = 0; i < after.length; i++) {
    if (before[i].nodeName !== after[i].nodeName) return false;
  }
  earlier.className = later.className;
  Object.keys(earlier.dataset).forEach(function (key) { delete earlier.dataset[key]; });
  Object.assign(earlier.dataset, later.dataset);
  // Live collections shrink as parts move over, so take them from fixed copies.
  var olds = Array.prototype.slice.call(before), news = Array.prototype.slice.call(after);
  news.forEach(function (part, j) {
    if (!olds[j].isEqualNode(part)) earlier.replaceChild(part, olds[j]);
  });
  return true;
}

// Makes `parent`'s children the elements `fresh`, in that order. Each fresh
// element is matched with the child of the same key (`keyOf`) the parent has:
// one equal to it stays as it is, one of the same shape is patched in place.
export function patchChildren(parent, fresh, keyOf) {
  var byKey = new Map();
  Array.prototype.forEach.call(parent.children, function (child) {
    var key = keyOf(child);
    if (key) byKey.set(key, child);
  });
  var kept = fresh.map(function (element) {
    var old = byKey.get(keyOf(element));
    if (!old) return element;
    byKey.delete(keyOf(element));
    if (old.isEqualNode(element) || patchParts(old, element)) return old;
    return element;
  });
  kept.forEach(function (element, i) {
    var there = parent.children[i] || null;
    if (there !== element) parent.insertBefore(element, there);
  });
  while (parent.children.length > kept.length) {
    parent.removeChild(parent.children[kept.length]);
  }
}
