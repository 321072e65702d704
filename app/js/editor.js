// The lab's code editor: CodeMirror 6 with Python highlighting, line numbers and bracket
// matching, bundled by esbuild at build time (Trunk's pre_build hook) into one script that
// defines `window.TolabEditor`; the Rust app calls it through wasm-bindgen.

import { EditorView, basicSetup } from "codemirror";
import { Decoration, keymap, tooltips } from "@codemirror/view";
import { Prec, StateEffect, StateField } from "@codemirror/state";
import { autocompletion } from "@codemirror/autocomplete";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";

// Colours from the lab's theme (style.css's --syn-* variables), so that the editor follows the
// dark and the light theme.
const labColours = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: "var(--syn-keyword)" },
  { tag: [t.number, t.bool, t.null], color: "var(--syn-number)" },
  { tag: [t.string, t.special(t.string)], color: "var(--syn-string)" },
  { tag: t.comment, color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "var(--syn-function)" },
  { tag: [t.className, t.definition(t.className)], color: "var(--syn-class)" },
  { tag: t.invalid, color: "var(--bad)" },
]);

const labTheme = EditorView.theme({
  "&": { color: "var(--text)" },
  ".cm-content": { caretColor: "var(--accent)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
    backgroundColor: "color-mix(in srgb, var(--accent) 25%, transparent)",
  },
  ".cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--accent) 20%, transparent)", outline: "none" },
});

// A line marked with `className` (1-based; 0: none), until it is set again or the text changes:
// the line an error was raised on, the statement a stepped cell runs next, a line picked from a
// visualisation.
function lineMark(className) {
  const set = StateEffect.define();
  const field = StateField.define({
    create: () => Decoration.none,
    update(marks, tr) {
      let next = tr.docChanged ? Decoration.none : marks;
      for (const effect of tr.effects) {
        if (effect.is(set)) {
          next = effect.value
            ? Decoration.set([Decoration.line({ class: className }).range(tr.state.doc.line(effect.value).from)])
            : Decoration.none;
        }
      }
      return next;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
  return { set, field };
}

const errorLine = lineMark("cm-error-line");
const stepLine = lineMark("cm-step-line");
const pickedLine = lineMark("cm-picked-line");

// Browser storage can be refused (private windows, full quota): edits then live only in the page.
// An editor without a key (a scratch cell, kept by the app) keeps nothing itself.
function stored(key) {
  if (!key) return null;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, text) {
  if (!key) return;
  try {
    if (text === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, text);
  } catch {
    // Kept in the page only.
  }
}

// Completion from the runtime's live namespace (a Jupyter kernel's complete_request):
// `complete(textBefore)` resolves to the JSON of tolab_cells::Completions. It is asked after a
// `.`, inside a call, while a name is typed, or on Ctrl+Space.
function labCompletions(complete) {
  return async (context) => {
    const word = context.matchBefore(/[\w.]*/);
    const before = context.state.doc.sliceString(0, context.pos);
    const trigger = /[\w.]$/.test(before) || /[(,]\s*$/.test(before);
    if (!context.explicit && !trigger) return null;
    let answer;
    try {
      answer = JSON.parse(await complete(before));
    } catch {
      return null;
    }
    if (!answer || (answer.items.length === 0 && !answer.signature)) return null;
    const section = answer.signature ? { name: answer.signature, rank: 0 } : undefined;
    return {
      from: context.pos - answer.replace,
      options: answer.items.map((item) => ({ label: item.label, type: item.kind, section })),
      validFor: /^\w*$/,
    };
  };
}

// Replaces `pre` (a rendered ```python block) with an editor holding its text, or the learner's
// edit of it saved under `key`; every edit is saved there. `onRun(code, inPlace)` is called for
// Shift+Enter (run and move on) and Ctrl/Cmd+Enter (run in place); `onHover(line)` as the pointer
// moves over the lines (0 when it leaves); `onEdit(edited)` after each change, with whether the
// text now differs from the lesson's; `complete(textBefore)` answers completion requests. Tab indents by four spaces and Shift+Tab dedents, as in
// Jupyter (Escape, then Tab, moves the keyboard out of the editor).
export function mountOver(pre, onRun, onHover, key, onEdit, complete) {
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
      indentUnit.of("    "),
      // The runtime's completions only: CodeMirror's own Python list names builtins the lab
      // does not have.
      autocompletion({ override: [labCompletions(complete)] }),
      // Tooltips live in the page's body, so that a cell's rounded box does not clip them.
      tooltips({ parent: document.body }),
      keymap.of([indentWithTab]),
      Prec.highest(
        keymap.of([
          { key: "Shift-Enter", run: run(false) },
          { key: "Mod-Enter", run: run(true) },
        ]),
      ),
      errorLine.field,
      stepLine.field,
      pickedLine.field,
      EditorView.contentAttributes.of({ "aria-label": "Python cell" }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        const text = update.state.doc.toString();
        store(key, text === original ? null : text);
        onEdit(text !== original);
      }),
    ],
    parent: host,
  });
  view.tolab = { original, key, hovered: 0 };
  const hover = (line) => {
    if (line !== view.tolab.hovered) {
      view.tolab.hovered = line;
      onHover(line);
    }
  };
  view.contentDOM.addEventListener("mousemove", (event) => {
    const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
    hover(pos === null ? 0 : view.state.doc.lineAt(pos).number);
  });
  view.contentDOM.addEventListener("mouseleave", () => hover(0));
  pre.replaceWith(host);
  return view;
}

// Puts the lesson's own code back and forgets the saved edit; the text it replaced comes back
// (for Undo).
export function restore(view) {
  const replaced = view.state.doc.toString();
  setText(view, view.tolab.original);
  return replaced;
}

// Replaces the editor's text (saved as an edit where it differs from the lesson's).
export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

// Whether the text differs from the lesson's.
export function edited(view) {
  return view.state.doc.toString() !== view.tolab.original;
}

// The editor's current text.
export function text(view) {
  return view.state.doc.toString();
}

// `line` (1-based) if the text has it, else 0.
function within(view, line) {
  return line >= 1 && line <= view.state.doc.lines ? line : 0;
}

// Marks `line` as where the cell's error was raised; 0, or a line past the end, clears the mark.
export function markError(view, line) {
  view.dispatch({ effects: errorLine.set.of(within(view, line)) });
}

// Marks `line` as the statement a stepped cell runs next; 0 clears the mark.
export function markStep(view, line) {
  const inside = within(view, line);
  const effects = [stepLine.set.of(inside)];
  if (inside) effects.push(EditorView.scrollIntoView(view.state.doc.line(inside).from, { y: "nearest" }));
  view.dispatch({ effects });
}

// Shows `line` (picked in a visualisation): scrolled into view and lit for a moment.
export function showLine(view, line) {
  const inside = within(view, line);
  if (!inside) return;
  view.dispatch({
    effects: [pickedLine.set.of(inside), EditorView.scrollIntoView(view.state.doc.line(inside).from, { y: "center" })],
  });
  clearTimeout(view.tolab.picked);
  view.tolab.picked = setTimeout(() => view.dispatch({ effects: pickedLine.set.of(0) }), 1600);
}

// Puts the keyboard focus in the editor.
export function focus(view) {
  view.focus();
}
