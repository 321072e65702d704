//! The code editor's Rust face: `editor.js` (CodeMirror 6, bundled from npm by esbuild in
//! Trunk's pre-build hook) defines `window.TolabEditor`; these are its functions.

use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen]
extern "C" {
    /// A mounted CodeMirror view.
    pub type EditorView;

    /// Replaces `pre` with an editor holding its text, or the edit saved under `key`;
    /// `on_run(code, in_place)` is called for Shift+Enter and Ctrl/Cmd+Enter, `on_hover(line)`
    /// as the pointer moves over the lines (0 when it leaves).
    #[wasm_bindgen(catch, js_namespace = TolabEditor, js_name = mountOver)]
    pub fn mount_over(
        pre: &Element,
        on_run: &js_sys::Function,
        on_hover: &js_sys::Function,
        key: &str,
    ) -> Result<EditorView, JsValue>;

    /// The editor's current text.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    pub fn text(view: &EditorView) -> String;

    /// Puts the lesson's code back and forgets the saved edit.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    pub fn restore(view: &EditorView);

    /// Marks the 1-based `line` as where an error was raised; 0 clears the mark.
    #[wasm_bindgen(js_namespace = TolabEditor, js_name = markError)]
    pub fn mark_error(view: &EditorView, line: u32);

    /// Marks the 1-based `line` as the statement a stepped cell runs next; 0 clears the mark.
    #[wasm_bindgen(js_namespace = TolabEditor, js_name = markStep)]
    pub fn mark_step(view: &EditorView, line: u32);

    /// Scrolls to the 1-based `line` and lights it for a moment.
    #[wasm_bindgen(js_namespace = TolabEditor, js_name = showLine)]
    pub fn show_line_in(view: &EditorView, line: u32);

    #[wasm_bindgen(js_namespace = TolabEditor)]
    pub fn focus(view: &EditorView);
}
