// Each page preloads every module its entry point imports, directly or not,
// so a module added to the import graph but not to the page's template is
// caught here rather than by a page that answers its first key press late.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const JS = join(ROOT, "static", "js");

// Every module `entry` (a path under static/js/) imports, itself included.
function importGraph(entry) {
  const found = new Set();
  const visit = (path) => {
    if (found.has(path)) return;
    found.add(path);
    const source = readFileSync(join(JS, path), "utf8");
    for (const [, spec] of source.matchAll(/^import [^;]*? from "(\.{1,2}\/[^"]+)";/gms)) {
      visit(relative(JS, join(JS, dirname(path), spec)));
    }
  };
  visit(entry);
  return found;
}

function preloaded(template) {
  const html = readFileSync(join(ROOT, "templates", template), "utf8");
  const links = html.matchAll(/<link rel="modulepreload" href="\{% static 'js\/([^']+)' %\}">/g);
  return new Set([...links].map((m) => m[1]));
}

function loaded(template) {
  const html = readFileSync(join(ROOT, "templates", template), "utf8");
  const scripts = html.matchAll(/<script type="module" src="\{% static 'js\/([^']+)' %\}"><\/script>/g);
  return [...scripts].map((m) => m[1]);
}

for (const [template, entry] of [
  ["tables/table.html", "table/main.js"],
  ["history/hand_detail.html", "replayer/main.js"],
  ["tables/lobby.html", "lobby.js"],
]) {
  test(`${template} loads ${entry} and preloads exactly what it imports`, () => {
    assert.deepEqual(loaded(template), [entry]);
    assert.deepEqual([...preloaded(template)].sort(), [...importGraph(entry)].sort());
  });
}

test("the import graph follows imports across folders", () => {
  const graph = importGraph("replayer/main.js");
  assert.ok(graph.has("shared/format.js"), [...graph].join(", "));
  assert.ok(graph.has("shared/felt.js"));
});
