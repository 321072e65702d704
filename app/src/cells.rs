//! A lesson's Python cells: every ```python block of its prose becomes a code editor (CodeMirror
//! 6, bundled from npm into `editor.js`, which defines `window.TolabEditor`) with a toolbar, an
//! output area and the visuals of its run (`crate::viz`).
//!
//! Run (or Shift+Enter, which then moves to the next cell, or Ctrl/Cmd+Enter, which stays) runs
//! the cell in the runtime's worker; Run all above runs the cells before it in order; Step runs
//! one statement at a time, marking the next one; Stop interrupts; Reset session starts the
//! notebook afresh. Edits are kept in the browser's storage per lesson and cell and survive a
//! reload; Restore original brings the lesson's code back.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use tolab_cells::{Position, Progress, Reply, Request, RunRecord};
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::dom::{self, spawn};
use crate::editor::{
    EditorView, focus, mark_error, mark_step, mount_over, restore, show_line_in, text,
};
use crate::output;
use crate::runtime_client::RuntimeClient;
use crate::viz::Visuals;

thread_local! {
    /// The cells of the lesson on screen, in page order (cell `n` at `n - 1`).
    static PAGE: RefCell<Vec<Rc<CellView>>> = RefCell::default();
}

/// Cell `number` of the lesson on screen.
fn cell(number: usize) -> Option<Rc<CellView>> {
    PAGE.with_borrow(|page| page.get(number.checked_sub(1)?).cloned())
}

/// Shows `line` of cell `number` in its editor (a mark picked in a visual).
pub fn show_line(number: usize, line: u32) {
    if let Some(cell) = cell(number) {
        show_line_in(&cell.editor, line);
    }
}

/// Turns the Python blocks inside `prose` (lesson `slug`'s) into runnable cells, numbered from 1
/// in page order.
pub fn mount_cells(prose: &Element, slug: &str, client: &RuntimeClient) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    PAGE.with_borrow_mut(Vec::clear);
    let blocks = prose.query_selector_all("pre > code.language-python")?;
    for i in 0..blocks.length() {
        let pre = blocks
            .item(i)
            .and_then(|code| code.parent_node())
            .and_then(|node| node.dyn_into::<Element>().ok());
        if let Some(pre) = pre {
            let number = i as usize + 1;
            let key = format!("tolab:lesson:{slug}:cell:{number}");
            let cell = mount_cell(&document, &pre, (slug, number, &key), client)?;
            PAGE.with_borrow_mut(|page| page.push(cell));
        }
    }
    // A link to a cell (`/lesson/<slug>#cell-3`) arrives before the cell exists: go there now.
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if let Some(target) = hash
        .strip_prefix('#')
        .filter(|id| id.starts_with("cell-"))
        .and_then(|id| document.get_element_by_id(id))
    {
        target.scroll_into_view();
    }
    Ok(())
}

/// One cell on the page.
struct CellView {
    /// The lesson's slug, for its progress.
    lesson: String,
    number: usize,
    /// Its name in tracebacks and traces: `<cell 3>`.
    name: String,
    editor: EditorView,
    output: Element,
    visuals: Option<Visuals>,
    client: RuntimeClient,
    /// Whether the cell is being stepped (it waits in the runtime between Steps).
    stepping: Cell<bool>,
}

/// One cell: a section holding the editor (in place of `pre`, its edits saved under `key`), a
/// toolbar, the output and the visuals.
fn mount_cell(
    document: &Document,
    pre: &Element,
    (lesson, number, key): (&str, usize, &str),
    client: &RuntimeClient,
) -> Result<Rc<CellView>, JsValue> {
    let section = dom::element(document, "section", "cell")?;
    section.set_id(&format!("cell-{number}"));
    section.set_attribute("aria-label", &format!("Cell {number}"))?;
    pre.before_with_node_1(&section)?;
    section.append_child(pre)?;
    let toolbar = dom::element(document, "div", "cell-toolbar")?;
    toolbar.set_attribute("role", "toolbar")?;
    toolbar.set_attribute("aria-label", &format!("Cell {number}"))?;
    let output = dom::element(document, "pre", "cell-output")?;
    output.set_attribute("aria-live", "polite")?;
    output.set_attribute("aria-label", &format!("Output of cell {number}"))?;

    let on_keys = Closure::<dyn Fn(String, bool)>::new(move |_source: String, in_place: bool| {
        if let Some(cell) = self::cell(number) {
            spawn(cell.run());
        }
        if !in_place && let Some(next) = self::cell(number + 1) {
            focus(&next.editor);
        }
    });
    let on_hover = Closure::<dyn Fn(u32)>::new(move |line: u32| {
        if let Some(visuals) = self::cell(number).and_then(|c| c.visuals.clone()) {
            visuals.hover(line);
        }
    });
    let editor = mount_over(
        pre,
        on_keys.as_ref().unchecked_ref(),
        on_hover.as_ref().unchecked_ref(),
        key,
    )?;
    // The handlers live as long as the page's cells: the editor holds them.
    on_keys.forget();
    on_hover.forget();
    section.append_child(&toolbar)?;
    section.append_child(&output)?;
    let name = format!("<cell {number}>");
    let visuals = Visuals::mount(&section, number, &name);
    let view = Rc::new(CellView {
        lesson: lesson.to_owned(),
        number,
        name,
        editor,
        output,
        visuals,
        client: client.clone(),
        stepping: Cell::new(false),
    });

    let buttons: [(&str, &str, &str, Action); 6] = [
        (
            "Run",
            "run",
            "Run this cell (Shift+Enter; Ctrl+Enter stays here)",
            |c| spawn(c.run()),
        ),
        (
            "Run all above",
            "run-above",
            "Run every cell above this one, in order, stopping at an error",
            |c| spawn(c.run_above()),
        ),
        (
            "Step",
            "step",
            "Run the next statement only; the visuals follow",
            |c| spawn(c.step()),
        ),
        ("Stop", "stop", "Interrupt the running cell", |c| {
            spawn(c.stop())
        }),
        (
            "Reset session",
            "reset",
            "Forget every variable and start afresh",
            |c| spawn(c.reset()),
        ),
        (
            "Restore original",
            "restore",
            "Put the lesson's code back",
            |c| restore(&c.editor),
        ),
    ];
    for (label, id, title, action) in buttons {
        dom::toolbar_button(document, &toolbar, (label, id, title), move || {
            if let Some(cell) = self::cell(number) {
                action(cell);
            }
        })?;
    }
    // The cell's own address, to link to it.
    let anchor = dom::element(document, "a", "cell-anchor")?;
    anchor.set_attribute("href", &format!("#cell-{number}"))?;
    anchor.set_attribute("aria-label", &format!("Link to cell {number}"))?;
    anchor.set_text_content(Some(&format!("#{number}")));
    toolbar.append_child(&anchor)?;
    Ok(view)
}

/// What a toolbar button does to its cell.
type Action = fn(Rc<CellView>);

impl CellView {
    /// Runs the cell and shows what it printed, its value and its traceback, marking the line
    /// the error was raised on; the visuals follow its progress. Whether it ran without error.
    async fn run(self: Rc<Self>) -> bool {
        self.end_stepping();
        self.start("Running…");
        let watcher: Rc<dyn Fn(Progress)> = {
            let cell = Rc::clone(&self);
            Rc::new(move |progress: Progress| {
                output::append(&cell.output, "out-stdout", &progress.stdout);
                if let Some(visuals) = &cell.visuals {
                    visuals.extend(progress.trace);
                }
            })
        };
        let request = Request::RunCell {
            cell: self.name.clone(),
            source: text(&self.editor),
        };
        match self.client.send_watching(request, Some(watcher)).await {
            Reply::Ran(record) => {
                if let Some(visuals) = &self.visuals {
                    visuals.restart();
                }
                self.finish(record, true)
            }
            other => {
                self.fail(other);
                false
            }
        }
    }

    /// Runs the cells above this one, in order, until one fails.
    async fn run_above(self: Rc<Self>) {
        for number in 1..self.number {
            let Some(cell) = cell(number) else { return };
            if !cell.run().await {
                return;
            }
        }
    }

    /// Runs the cell's next statement (its first, when it is not being stepped), marking the one
    /// after it in the editor.
    async fn step(self: Rc<Self>) {
        if !self.stepping.replace(true) {
            self.start("");
        }
        let request = Request::Step {
            cell: self.name.clone(),
            source: text(&self.editor),
        };
        match self.client.send(request).await {
            Reply::Stepped(step) => {
                let next = step
                    .next
                    .filter(|Position { cell, .. }| *cell == self.name)
                    .map_or(0, |p| p.line as u32);
                if step.done {
                    self.end_stepping();
                    self.finish(step.record, false);
                } else {
                    mark_step(&self.editor, next);
                    output::append(&self.output, "out-stdout", &step.record.stdout);
                    if let Some(visuals) = &self.visuals {
                        visuals.extend(step.record.trace);
                    }
                }
            }
            other => {
                self.end_stepping();
                self.fail(other);
            }
        }
    }

    async fn stop(self: Rc<Self>) {
        self.end_stepping();
        self.client.send(Request::Stop).await;
    }

    async fn reset(self: Rc<Self>) {
        if let Reply::Reset = self.client.send(Request::Reset).await {
            PAGE.with_borrow(|page| page.iter().for_each(|c| c.end_stepping()));
            output::clear(&self.output);
            self.output.set_class_name("cell-output");
            output::append(
                &self.output,
                "out-note",
                "The session was reset: every variable is gone.",
            );
        }
    }

    fn end_stepping(&self) {
        if self.stepping.replace(false) {
            mark_step(&self.editor, 0);
        }
    }

    /// A run or a stepped run begins: the last one's output, marks and visuals go.
    fn start(&self, status: &str) {
        mark_error(&self.editor, 0);
        output::clear(&self.output);
        self.output.set_class_name("cell-output running");
        output::append(&self.output, "out-note", status);
        if let Some(visuals) = &self.visuals {
            visuals.restart();
        }
    }

    /// Shows the end of a run: (all of its stdout, when `whole`, else what no Step showed yet),
    /// warnings, the value and the traceback. Whether it ran without error.
    fn finish(&self, record: RunRecord, whole: bool) -> bool {
        self.output.set_class_name("cell-output");
        output::count_run(&self.output);
        self.output
            .query_selector(".out-note")
            .ok()
            .flatten()
            .inspect(Element::remove);
        if whole {
            output::clear(&self.output);
        }
        output::show(&self.output, &record);
        if let Some(visuals) = &self.visuals {
            visuals.extend(record.trace);
        }
        let Some(traceback) = record.error else {
            crate::progress::record(&self.lesson, self.number);
            return true;
        };
        if let Some(line) = error_line(&traceback, &self.name) {
            mark_error(&self.editor, line);
        }
        self.output.set_class_name("cell-output error");
        false
    }

    /// Shows why the runtime gave no record.
    fn fail(&self, reply: Reply) {
        output::fail(&self.output, reply);
    }
}

/// The line of cell `name` that a traceback's innermost frame in that cell points at (Python's
/// `File "<cell 1>", line 3, in <module>`).
pub(crate) fn error_line(traceback: &str, name: &str) -> Option<u32> {
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
