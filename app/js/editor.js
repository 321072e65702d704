// The lab's code editor: CodeMirror 6 with Python highlighting, line numbers and bracket
// matching, bundled by esbuild at build time (Trunk's pre_build hook) into one script that
// defines `window.TolabEditor`; the Rust app calls it through wasm-bindgen.

import { EditorView, basicSetup } from "codemirror";
import { Decoration, keymap } from "@codemirror/view";
import { Prec, StateEffect, StateField } from "@codemirror/state";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";

// Colours readable on the lab's dark panels (style.css's palette).
const labColours = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: "#c4b5fd" },
  { tag: [t.number, t.bool, t.null], color: "#fbbf24" },
  { tag: [t.string, t.special(t.string)], color: "#86efac" },
  { tag: t.comment, color: "#9aa6bf", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "#7dd3fc" },
  { tag: [t.className, t.definition(t.className)], color: "#f9a8d4" },
  { tag: t.invalid, color: "#f87171" },
]);

const labTheme = EditorView.theme(
  {
    "&": { color: "#e6ebf5" },
    ".cm-content": { caretColor: "#7dd3fc" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
      backgroundColor: "rgba(125, 211, 252, 0.25)",
    },
    ".cm-matchingBracket": { backgroundColor: "rgba(125, 211, 252, 0.2)", outline: "none" },
  },
  { dark: true },
);

// The line an error was raised on, marked until the next run or edit (0: none).
const setErrorLine = StateEffect.define();
const errorLine = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = tr.docChanged ? Decoration.none : marks;
    for (const effect of tr.effects) {
      if (effect.is(setErrorLine)) {
        next = effect.value
          ? Decoration.set([Decoration.line({ class: "cm-error-line" }).range(tr.state.doc.line(effect.value).from)])
          : Decoration.none;
      }
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// Browser storage can be refused (private windows, full quota): edits then live only in the page.
function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, text) {
  try {
    if (text === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, text);
  } catch {
    // Kept in the page only.
  }
}

// Replaces `pre` (a rendered ```python block) with an editor holding its text, or the learner's
// edit of it saved under `key`; every edit is saved there. `onRun(code, inPlace)` is called for
// Shift+Enter (run and move on) and Ctrl/Cmd+Enter (run in place).
export function mountOver(pre, onRun, key) {
  const run = (inPlace) => (view) => {
    onRun(view.state.doc.toString(), inPlace);
    return true;
  };
  const host = document.createElement("div");
  host.className = "cell-editor";
  const original = pre.textContent.replace(/\n$/, "");
  const view = new EditorView({
    doc: stored(key) ?? original,
    extensions: [
      basicSetup,
      labTheme,
      syntaxHighlighting(labColours),
      python(),
      Prec.highest(
        keymap.of([
          { key: "Shift-Enter", run: run(false) },
          { key: "Mod-Enter", run: run(true) },
        ]),
      ),
      errorLine,
      EditorView.contentAttributes.of({ "aria-label": "Python cell" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) store(key, update.state.doc.toString());
      }),
    ],
    parent: host,
  });
  view.tolab = { original, key };
  pre.replaceWith(host);
  return view;
}

// Puts the lesson's own code back and forgets the saved edit.
export function restore(view) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: view.tolab.original } });
  store(view.tolab.key, null);
}

// The editor's current text.
export function text(view) {
  return view.state.doc.toString();
}

// Marks `line` (1-based) as where the cell's error was raised; 0, or a line past the end, clears
// the mark.
export function markError(view, line) {
  const inside = line >= 1 && line <= view.state.doc.lines ? line : 0;
  view.dispatch({ effects: setErrorLine.of(inside) });
}
