//! A lesson's Python cells: every ```python block of its prose becomes a code editor (CodeMirror
//! 6, bundled from npm into `editor.js`, which defines `window.TolabEditor`) with a toolbar and
//! an output area. Run, Shift+Enter or Ctrl/Cmd+Enter runs the cell in the runtime's worker; Stop
//! interrupts it; Reset session starts the notebook afresh. Edits are kept in the browser's
//! storage per lesson and cell, and survive a reload; Restore original brings the lesson's code
//! back.

use std::cell::OnceCell;
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

    /// Marks the 1-based `line` as where an error was raised; 0 clears the mark.
    #[wasm_bindgen(js_namespace = TolabEditor, js_name = markError)]
    fn mark_error(view: &EditorView, line: u32);
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
    // The editor, once mounted: runs mark their error's line in it.
    let editor: Rc<OnceCell<Rc<EditorView>>> = Rc::default();
    let run = {
        let (client, output, editor) = (client.clone(), output.clone(), Rc::clone(&editor));
        Rc::new(move |source: String| {
            let cell = Cell {
                name: name.clone(),
                output: output.clone(),
                editor: Rc::clone(&editor),
            };
            run_cell(&client, cell, source);
        })
    };
    let on_keys = {
        let run = Rc::clone(&run);
        Closure::<dyn Fn(String, bool)>::new(move |source: String, _in_place: bool| run(source))
    };
    let view = Rc::new(mount_over(pre, on_keys.as_ref().unchecked_ref(), key)?);
    let _ = editor.set(Rc::clone(&view));
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

/// What a run reports to: the cell's name (in tracebacks), its output area and its editor.
struct Cell {
    name: String,
    output: Element,
    editor: Rc<OnceCell<Rc<EditorView>>>,
}

/// Runs `source` as `cell` and shows what it printed, its value and its traceback, marking the
/// line the error was raised on.
fn run_cell(client: &RuntimeClient, cell: Cell, source: String) {
    let Cell {
        name,
        output,
        editor,
    } = cell;
    if let Some(view) = editor.get() {
        mark_error(view, 0);
    }
    output.set_class_name("cell-output running");
    output.set_text_content(Some("Running…"));
    let client = client.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let reply = client
            .send(Request::RunCell {
                cell: name.clone(),
                source,
            })
            .await;
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
                    if let (Some(view), Some(line)) = (editor.get(), error_line(&traceback, &name))
                    {
                        mark_error(view, line);
                    }
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

/// The line of cell `name` that a traceback's innermost frame in that cell points at (Python's
/// `File "<cell 1>", line 3, in <module>`).
fn error_line(traceback: &str, name: &str) -> Option<u32> {
    let frame = format!("File \"{name}\", line ");
    traceback.lines().rev().find_map(|l| {
        let rest = l.trim_start().strip_prefix(&frame)?;
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    })
}

#[cfg(test)]
mod tests {
    use super::error_line;

    #[test]
    fn the_innermost_frame_of_the_cell_gives_the_error_line() {
        let traceback = "Traceback (most recent call last):\n  File \"<cell 2>\", line 4, in <module>\n    f()\n  File \"<cell 2>\", line 2, in f\n    1 / 0\n  File \"<cell 1>\", line 9, in g\nZeroDivisionError: division by zero";
        assert_eq!(error_line(traceback, "<cell 2>"), Some(2));
        assert_eq!(error_line(traceback, "<cell 1>"), Some(9));
        assert_eq!(error_line(traceback, "<cell 3>"), None);
    }
}
