//! A lesson's Python cells: every ```python block of its prose becomes a code editor (CodeMirror
//! 6, bundled from npm into `editor.js`, which defines `window.TolabEditor`) with a toolbar and
//! an output area. Run, Shift+Enter or Ctrl/Cmd+Enter runs the cell in the runtime's worker; Stop
//! interrupts it; Reset session starts the notebook afresh. Edits are kept in the browser's
//! storage per lesson and cell, and survive a reload; Restore original brings the lesson's code
//! back.

use std::rc::Rc;

use tolab_cells::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::runtime_client::RuntimeClient;

#[wasm_bindgen]
extern "C" {
    /// A mounted CodeMirror view.
    type EditorView;

    /// Replaces `pre` with an editor holding its text, or the edit saved under `key`;
    /// `on_run(code, in_place)` is called for Shift+Enter and Ctrl/Cmd+Enter.
    #[wasm_bindgen(catch, js_namespace = TolabEditor, js_name = mountOver)]
    fn mount_over(
        pre: &Element,
        on_run: &js_sys::Function,
        key: &str,
    ) -> Result<EditorView, JsValue>;

    /// The editor's current text.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    fn text(view: &EditorView) -> String;

    /// Puts the lesson's code back and forgets the saved edit.
    #[wasm_bindgen(js_namespace = TolabEditor)]
    fn restore(view: &EditorView);
}

/// Turns the Python blocks inside `prose` (lesson `slug`'s) into runnable cells, numbered from 1
/// in page order.
pub fn mount_cells(prose: &Element, slug: &str, client: &RuntimeClient) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    let blocks = prose.query_selector_all("pre > code.language-python")?;
    for i in 0..blocks.length() {
        let pre = blocks
            .item(i)
            .and_then(|code| code.parent_node())
            .and_then(|node| node.dyn_into::<Element>().ok());
        if let Some(pre) = pre {
            let number = i as usize + 1;
            let key = format!("tolab:lesson:{slug}:cell:{number}");
            mount_cell(&document, &pre, (number, &key), client)?;
        }
    }
    Ok(())
}

/// One cell: a section holding the editor (in place of `pre`, its edits saved under `key`), a
/// toolbar and the output.
fn mount_cell(
    document: &Document,
    pre: &Element,
    (number, key): (usize, &str),
    client: &RuntimeClient,
) -> Result<(), JsValue> {
    let cell = document.create_element("section")?;
    cell.set_class_name("cell");
    cell.set_attribute("aria-label", &format!("Cell {number}"))?;
    pre.before_with_node_1(&cell)?;
    cell.append_child(pre)?;
    let toolbar = document.create_element("div")?;
    toolbar.set_class_name("cell-toolbar");
    let output = document.create_element("pre")?;
    output.set_class_name("cell-output");
    output.set_attribute("aria-live", "polite")?;

    let name = format!("<cell {number}>");
    let run = {
        let (client, output) = (client.clone(), output.clone());
        Rc::new(move |source: String| run_cell(&client, &name, source, &output))
    };
    let on_keys = {
        let run = Rc::clone(&run);
        Closure::<dyn Fn(String, bool)>::new(move |source: String, _in_place: bool| run(source))
    };
    let view = Rc::new(mount_over(pre, on_keys.as_ref().unchecked_ref(), key)?);
    // The handlers live as long as the page's cells: the editor and the buttons hold them.
    on_keys.forget();
    let buttons: [(&str, &str, Action); 4] = [
        ("Run", "Run (Shift+Enter)", {
            let view = Rc::clone(&view);
            Box::new(move || run(text(&view)))
        }),
        ("Stop", "Interrupt the running cell", {
            let client = client.clone();
            Box::new(move || send(&client, Request::Stop, None))
        }),
        ("Reset session", "Forget every variable and start afresh", {
            let (client, output) = (client.clone(), output.clone());
            Box::new(move || send(&client, Request::Reset, Some(output.clone())))
        }),
        ("Restore original", "Put the lesson's code back", {
            let view = Rc::clone(&view);
            Box::new(move || restore(&view))
        }),
    ];
    for (label, title, action) in buttons {
        let button = document.create_element("button")?;
        button.set_text_content(Some(label));
        button.set_attribute("type", "button")?;
        button.set_attribute("title", title)?;
        let on_click = Closure::<dyn Fn()>::new(action);
        button.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())?;
        on_click.forget();
        toolbar.append_child(&button)?;
    }
    cell.append_child(&toolbar)?;
    cell.append_child(&output)?;
    Ok(())
}

/// What a toolbar button does.
type Action = Box<dyn Fn()>;

/// Sends a Stop or Reset; a Reset says in `output` that the notebook starts afresh.
fn send(client: &RuntimeClient, request: Request, output: Option<Element>) {
    let client = client.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let reply = client.send(request).await;
        if let (Some(output), Reply::Reset) = (output, reply) {
            output.set_class_name("cell-output");
            output.set_text_content(Some("The session was reset: every variable is gone."));
        }
    });
}

/// Runs `source` as the cell `name` and shows what it printed, its value and its traceback.
fn run_cell(client: &RuntimeClient, name: &str, source: String, output: &Element) {
    output.set_class_name("cell-output running");
    output.set_text_content(Some("Running…"));
    let (client, output) = (client.clone(), output.clone());
    let cell = name.to_owned();
    wasm_bindgen_futures::spawn_local(async move {
        let reply = client.send(Request::RunCell { cell, source }).await;
        let (text, failed) = match reply {
            Reply::Ran(record) => {
                let mut text = record.stdout;
                for warning in &record.warnings {
                    text.push_str(&format!("UserWarning: {warning}\n"));
                }
                if let Some(value) = record.value {
                    text.push_str(&value);
                    text.push('\n');
                }
                let failed = record.error.is_some();
                if let Some(traceback) = record.error {
                    text.push_str(&traceback);
                }
                (text, failed)
            }
            Reply::Unavailable { reason } => {
                (format!("The runtime is unavailable: {reason}"), true)
            }
            other => (format!("Unexpected reply: {other:?}"), true),
        };
        output.set_class_name(if failed {
            "cell-output error"
        } else {
            "cell-output"
        });
        output.set_text_content(Some(&text));
    });
}
