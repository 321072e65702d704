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
    /// as the pointer moves over the lines (0 when it leaves), `on_edit(edited)` after each
    /// change (whether the text differs from the lesson's), `complete(before)` for completion
    /// (a promise of the JSON of [`tolab_cells::Completions`]: see [`completer`]).
    #[wasm_bindgen(catch, js_namespace = TolabEditor, js_name = mountOver)]
    pub fn mount_over(
        pre: &Element,
        on_run: &js_sys::Function,
        on_hover: &js_sys::Function,
        key: &str,
        on_edit: &js_sys::Function,
        complete: &js_sys::Function,
    ) -> Result<EditorView, JsValue>;

    /// The editor's current text.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    pub fn text(view: &EditorView) -> String;

    /// Puts the lesson's code back and forgets the saved edit; returns the text it replaced.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    pub fn restore(view: &EditorView) -> String;

    /// Replaces the editor's text.
    #[wasm_bindgen(js_namespace = TolabEditor, js_name = setText)]
    pub fn set_text(view: &EditorView, text: &str);

    /// Whether the text differs from the lesson's.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    pub fn edited(view: &EditorView) -> bool;

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

/// What an editor calls back: Shift+Enter or Ctrl/Cmd+Enter (`in_place` for the latter), the
/// line the pointer is over (0: none), and each edit (whether the text differs from the lesson's).
pub struct Callbacks {
    pub on_run: Box<dyn Fn(bool)>,
    pub on_hover: Box<dyn Fn(u32)>,
    pub on_edit: Box<dyn Fn(bool)>,
}

/// Mounts an editor over `pre` ([`mount_over`]): its edits saved under `key` (none for ""; scoped
/// to the site's base as [`crate::storage`] scopes its keys), its completion answered by
/// `client`'s runtime. The callbacks live as long as the page.
pub fn mount(
    pre: &Element,
    key: &str,
    callbacks: Callbacks,
    client: &crate::runtime_client::RuntimeClient,
) -> Result<EditorView, JsValue> {
    let Callbacks {
        on_run,
        on_hover,
        on_edit,
    } = callbacks;
    let on_run = Closure::<dyn Fn(String, bool)>::new(move |_: String, in_place| on_run(in_place));
    let on_hover = Closure::<dyn Fn(u32)>::new(on_hover);
    let on_edit = Closure::<dyn Fn(bool)>::new(on_edit);
    let key = if key.is_empty() {
        String::new()
    } else {
        crate::site::storage_key(key)
    };
    let editor = mount_over(
        pre,
        on_run.as_ref().unchecked_ref(),
        on_hover.as_ref().unchecked_ref(),
        &key,
        on_edit.as_ref().unchecked_ref(),
        &completer(client),
    )?;
    on_run.forget();
    on_hover.forget();
    on_edit.forget();
    Ok(editor)
}

/// The editor's completion source: asks the runtime what may complete the text before the
/// cursor, in the notebook's live namespace. The closure lives as long as the page's editors.
fn completer(client: &crate::runtime_client::RuntimeClient) -> js_sys::Function {
    let client = client.clone();
    let complete = Closure::<dyn Fn(String) -> js_sys::Promise>::new(move |before: String| {
        let client = client.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let answer = match client.send(tolab_cells::Request::Complete { before }).await {
                tolab_cells::Reply::Completions(c) => serde_json::to_string(&c).unwrap_or_default(),
                _ => String::new(),
            };
            Ok(JsValue::from_str(&answer))
        })
    });
    let function: js_sys::Function = complete
        .as_ref()
        .unchecked_ref::<js_sys::Function>()
        .clone();
    complete.forget();
    function
}
