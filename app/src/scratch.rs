//! Scratch cells: the learner's own cells under any cell of a lesson, as Jupyter's "insert cell
//! below". They run in the lesson's notebook (named `<scratch N>` in tracebacks), are kept in the
//! browser per lesson with their place, and never count in the lesson's progress. Run all runs
//! them in page order with the lesson's cells.

use std::cell::RefCell;
use std::rc::Rc;

use tolab_cells::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::dom::{self, spawn};
use crate::editor::{Callbacks, EditorView, text};
use crate::output::{Kind, Output};
use crate::runtime_client::RuntimeClient;

/// One scratch cell as kept: the lesson cell it stands under, its number, and its code.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Kept {
    after: usize,
    id: u32,
    code: String,
}

thread_local! {
    /// The lesson on screen's scratch cells.
    static SCRATCH: RefCell<Vec<Rc<ScratchCell>>> = RefCell::default();
}

struct ScratchCell {
    lesson: String,
    after: usize,
    id: u32,
    section: Element,
    editor: EditorView,
    output: Rc<Output>,
    client: RuntimeClient,
}

fn key(lesson: &str) -> String {
    format!("tolab:lesson:{lesson}:scratch")
}

fn load(lesson: &str) -> Vec<Kept> {
    crate::storage::load(&key(lesson))
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

/// Saves the lesson's scratch cells as they stand on the page.
fn save(lesson: &str) {
    let kept: Vec<Kept> = SCRATCH.with_borrow(|cells| {
        cells
            .iter()
            .filter(|c| c.lesson == lesson)
            .map(|c| Kept {
                after: c.after,
                id: c.id,
                code: text(&c.editor),
            })
            .collect()
    });
    if let Ok(json) = serde_json::to_string(&kept) {
        crate::storage::save(&key(lesson), &json);
    }
}

/// Mounts the scratch cells kept for `lesson`, each under its lesson cell (`section_of(n)`).
pub fn mount_kept(
    lesson: &str,
    section_of: impl Fn(usize) -> Option<Element>,
    client: &RuntimeClient,
) {
    SCRATCH.with_borrow_mut(Vec::clear);
    for kept in load(lesson) {
        if let Some(anchor) = section_of(kept.after) {
            let _ = mount(lesson, &anchor, &kept, client);
        }
    }
}

/// Adds an empty scratch cell under lesson cell `after` (its `section`), and keeps it.
pub fn add_under(lesson: &str, after: usize, section: &Element, client: &RuntimeClient) {
    let id = SCRATCH.with_borrow(|cells| cells.iter().map(|c| c.id).max().unwrap_or(0) + 1);
    let kept = Kept {
        after,
        id,
        code: String::new(),
    };
    // Under the lesson cell, after the scratch cells already there.
    let mut anchor = section.clone();
    while let Some(next) = anchor
        .next_element_sibling()
        .filter(|e| e.class_list().contains("scratch"))
    {
        anchor = next;
    }
    if let Ok(cell) = mount(lesson, &anchor, &kept, client) {
        save(lesson);
        crate::editor::focus(&cell.editor);
    }
}

/// The scratch cells standing under lesson cell `after`, in page order.
pub fn under(after: usize) -> Vec<impl std::future::Future<Output = bool>> {
    SCRATCH
        .with_borrow(|cells| {
            cells
                .iter()
                .filter(|c| c.after == after)
                .cloned()
                .collect::<Vec<_>>()
        })
        .into_iter()
        .map(|cell| cell.run())
        .collect()
}

fn mount(
    lesson: &str,
    anchor: &Element,
    kept: &Kept,
    client: &RuntimeClient,
) -> Result<Rc<ScratchCell>, JsValue> {
    let document: Document = anchor.owner_document().ok_or("no document")?;
    let section = dom::element(&document, "section", "cell scratch")?;
    section.set_attribute("aria-label", &format!("Scratch cell {}", kept.id))?;
    anchor.after_with_node_1(&section)?;
    let pre = dom::element(&document, "pre", "")?;
    pre.set_text_content(Some(&kept.code));
    section.append_child(&pre)?;
    let toolbar = dom::element(&document, "div", "cell-toolbar")?;
    toolbar.set_attribute("role", "toolbar")?;
    let output = dom::element(&document, "pre", "cell-output")?;
    output.set_attribute("aria-live", "polite")?;

    let id = kept.id;
    let lesson_slug = lesson.to_owned();
    let callbacks = Callbacks {
        on_run: Box::new(move |_| {
            if let Some(cell) = find(id) {
                spawn(cell.run());
            }
        }),
        on_hover: Box::new(|_| {}),
        on_edit: Box::new(move |_| save(&lesson_slug)),
    };
    // No key: its text is kept with the scratch cells, not as an edit of a lesson cell.
    let editor = crate::editor::mount(&pre, "", callbacks, client)?;
    section.append_child(&toolbar)?;
    section.append_child(&output)?;
    let label = dom::element(&document, "span", "cell-counter")?;
    label.set_text_content(Some("scratch"));
    toolbar.append_child(&label)?;
    dom::toolbar_button(
        &document,
        &toolbar,
        ("Run", "run", "Run this scratch cell (Shift+Enter)"),
        move || {
            if let Some(cell) = find(id) {
                spawn(cell.run());
            }
        },
    )?;
    dom::toolbar_button(
        &document,
        &toolbar,
        ("Remove", "remove", "Remove this scratch cell"),
        move || {
            if let Some(cell) = find(id) {
                cell.remove();
            }
        },
    )?;
    let cell = Rc::new(ScratchCell {
        lesson: lesson.to_owned(),
        after: kept.after,
        id,
        section,
        editor,
        output: Output::new(output),
        client: client.clone(),
    });
    SCRATCH.with_borrow_mut(|cells| cells.push(Rc::clone(&cell)));
    Ok(cell)
}

fn find(id: u32) -> Option<Rc<ScratchCell>> {
    SCRATCH.with_borrow(|cells| cells.iter().find(|c| c.id == id).cloned())
}

impl ScratchCell {
    /// Runs the cell in the lesson's notebook. Whether it ran without an error.
    async fn run(self: Rc<Self>) -> bool {
        self.output.clear();
        self.output.element().set_class_name("cell-output running");
        self.output.append(Kind::Note, "Running…");
        let watcher: Rc<dyn Fn(tolab_cells::Progress)> = {
            let output = Rc::clone(&self.output);
            Rc::new(move |p: tolab_cells::Progress| output.append(Kind::Stdout, &p.stdout))
        };
        let request = Request::RunCell {
            cell: format!("<scratch {}>", self.id),
            source: text(&self.editor),
        };
        match self.client.send_watching(request, Some(watcher)).await {
            Reply::Ran(record) => {
                self.output
                    .element()
                    .set_class_name(if record.error.is_some() {
                        "cell-output error"
                    } else {
                        "cell-output"
                    });
                self.output.drop_notes();
                self.output.show(&record);
                self.output.count_run();
                record.error.is_none()
            }
            other => {
                self.output.fail(other);
                false
            }
        }
    }

    fn remove(&self) {
        self.section.remove();
        SCRATCH.with_borrow_mut(|cells| cells.retain(|c| c.id != self.id));
        save(&self.lesson);
    }
}
