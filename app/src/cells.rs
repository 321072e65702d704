//! A lesson's Python cells: every ```python block of its prose becomes a code editor (CodeMirror
//! 6, bundled from npm into `editor.js`, which defines `window.TolabEditor`) with a toolbar, an
//! output area (`crate::output`), a line of help under it and the visuals of its run
//! (`crate::viz`).
//!
//! As in Jupyter: Run (or Shift+Enter, which then moves to the next cell, or Ctrl/Cmd+Enter,
//! which stays) runs the cell in the runtime's worker and numbers the run (`[3]`); a running cell
//! shows how long it has run, and Stop is the way out (there is no time limit). An output older
//! than the code above it (a cell above ran later, or the cell was edited since) is marked.
//! Step runs one statement at a time. A `NameError` for a name a cell above binds offers to run
//! the cells up to that one first. Restore original can be undone and Reset session asks first;
//! an edited cell is marked. Edits are kept in the browser per lesson and cell.
//!
//! A cell counts as done when it shows what the lesson records for it (an error the lesson
//! shows on purpose included), or, where the lesson records nothing, when it runs without an
//! error.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use tolab_cells::{CellSource, Position, Progress, Reply, Request, RunRecord};
use tolab_lessons::Lesson;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::dom::{self, spawn};
use crate::editor::{
    Callbacks, EditorView, edited, focus, mark_error, mark_step, restore, set_text, show_line_in,
    text,
};
use crate::output::{Kind, Output};
use crate::runtime_client::RuntimeClient;
use crate::viz::Visuals;

thread_local! {
    /// The cells of the lesson on screen, in page order (cell `n` at `n - 1`).
    static PAGE: RefCell<Vec<Rc<CellView>>> = RefCell::default();
    /// The page's execution counter: each finished run takes the next number, as Jupyter's
    /// `In [n]` does.
    static COUNTER: Cell<u32> = const { Cell::new(0) };
    /// Whether this page said already that its GPU is emulated.
    static NOTED_SOFTWARE: Cell<bool> = const { Cell::new(false) };
}

/// Cell `number` of the lesson on screen.
fn cell(number: usize) -> Option<Rc<CellView>> {
    PAGE.with_borrow(|page| page.get(number.checked_sub(1)?).cloned())
}

/// How many cells the lesson on screen has.
pub fn count() -> usize {
    PAGE.with_borrow(Vec::len)
}

/// Shows `line` of cell `number` in its editor (a mark picked in a visual).
pub fn show_line(number: usize, line: u32) {
    if let Some(cell) = cell(number) {
        show_line_in(&cell.editor, line);
    }
}

/// Turns the Python blocks inside `prose` (lesson `lesson`'s) into runnable cells, numbered from
/// 1 in page order.
pub fn mount_cells(
    prose: &Element,
    lesson: &Lesson,
    client: &RuntimeClient,
) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    PAGE.with_borrow_mut(Vec::clear);
    let blocks = prose.query_selector_all("pre > code.language-python")?;
    let recorded: Vec<tolab_lessons::Cell> = lesson.cells().map(|(_, c)| c.clone()).collect();
    for i in 0..blocks.length() {
        let pre = blocks
            .item(i)
            .and_then(|code| code.parent_node())
            .and_then(|node| node.dyn_into::<Element>().ok());
        if let Some(pre) = pre {
            let number = i as usize + 1;
            let place = Place {
                lesson: &lesson.meta.slug,
                number,
                recorded: recorded.get(number - 1).cloned(),
            };
            let cell = mount_cell(&document, &pre, place, client)?;
            PAGE.with_borrow_mut(|page| page.push(cell));
        }
    }
    crate::scratch::mount_kept(
        &lesson.meta.slug,
        |n| cell(n).map(|c| c.section.clone()),
        client,
    );
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

/// Where a cell is: its lesson, its number, and what the lesson records for it.
struct Place<'a> {
    lesson: &'a str,
    number: usize,
    recorded: Option<tolab_lessons::Cell>,
}

/// One cell on the page.
struct CellView {
    /// The lesson's slug, for its progress.
    lesson: String,
    number: usize,
    /// Its name in tracebacks and traces: `<cell 3>`.
    name: String,
    /// The lesson's cell: its original code and the output it records.
    recorded: Option<tolab_lessons::Cell>,
    section: Element,
    editor: EditorView,
    output: Rc<Output>,
    /// Under the output: what the lab suggests (run the cells a name needs, undo a restore,
    /// confirm a reset).
    help: Element,
    /// `[3]`: the number of the cell's last run; and how long it ran, or runs.
    counter: Element,
    status: Element,
    visuals: Option<Visuals>,
    client: RuntimeClient,
    /// Whether the cell is being stepped (it waits in the runtime between Steps).
    stepping: Cell<bool>,
    /// The number of the last finished run (0: none yet) and the code it ran.
    ran: Cell<u32>,
    ran_source: RefCell<Option<String>>,
    /// The running run's clock.
    clock: RefCell<Option<Clock>>,
}

/// A running cell's clock: when the run started, and the interval (its id and its callback)
/// that shows how long it has run.
type Clock = (f64, i32, Closure<dyn FnMut()>);

/// A button offered under a cell's output: its label, its `data-action` and what it does.
type Offered<'a> = (&'a str, &'a str, Rc<dyn Fn()>);

/// One cell: a section holding the editor (in place of `pre`), a toolbar, the output, the help
/// line and the visuals.
fn mount_cell(
    document: &Document,
    pre: &Element,
    place: Place,
    client: &RuntimeClient,
) -> Result<Rc<CellView>, JsValue> {
    let number = place.number;
    let section = dom::element(document, "section", "cell")?;
    section.set_id(&format!("cell-{number}"));
    section.set_attribute("aria-label", &format!("Cell {number}"))?;
    pre.before_with_node_1(&section)?;
    section.append_child(pre)?;
    let toolbar = dom::element(document, "div", "cell-toolbar")?;
    toolbar.set_attribute("role", "toolbar")?;
    toolbar.set_attribute("aria-label", &format!("Cell {number}"))?;
    let counter = dom::element(document, "span", "cell-counter")?;
    counter.set_text_content(Some("[ ]"));
    counter.set_attribute("title", "The number of this cell's last run")?;
    toolbar.append_child(&counter)?;
    let output = dom::element(document, "pre", "cell-output")?;
    output.set_attribute("aria-live", "polite")?;
    output.set_attribute("aria-label", &format!("Output of cell {number}"))?;
    output.set_attribute("tabindex", "0")?;
    let help = dom::element(document, "div", "cell-help")?;
    help.set_attribute("role", "status")?;

    let callbacks = Callbacks {
        on_run: Box::new(move |in_place| {
            if let Some(cell) = self::cell(number) {
                spawn(cell.run());
            }
            if !in_place && let Some(next) = self::cell(number + 1) {
                focus(&next.editor);
            }
        }),
        on_hover: Box::new(move |line| {
            if let Some(visuals) = self::cell(number).and_then(|c| c.visuals.clone()) {
                visuals.hover(line);
            }
        }),
        on_edit: Box::new(move |is_edited| {
            if let Some(cell) = self::cell(number) {
                cell.mark_edited(is_edited);
            }
            refresh_stale();
        }),
    };
    let key = format!("tolab:lesson:{}:cell:{number}", place.lesson);
    let editor = crate::editor::mount(pre, &key, callbacks, client)?;
    section.append_child(&toolbar)?;
    section.append_child(&output)?;
    section.append_child(&help)?;
    let name = format!("<cell {number}>");
    let visuals = Visuals::mount(&section, number, &name);
    let status = dom::element(document, "span", "cell-status")?;
    let view = Rc::new(CellView {
        lesson: place.lesson.to_owned(),
        number,
        name,
        recorded: place.recorded,
        section,
        editor,
        output: Output::new(output),
        help,
        counter,
        status,
        visuals,
        client: client.clone(),
        stepping: Cell::new(false),
        ran: Cell::new(0),
        ran_source: RefCell::default(),
        clock: RefCell::default(),
    });
    view.mark_edited(edited(&view.editor));
    view.restore_output();

    let buttons: [(&str, &str, &str, Action); 7] = [
        (
            "Run",
            "run",
            "Run this cell (Shift+Enter; Ctrl+Enter stays here)",
            |c| spawn(c.run()),
        ),
        (
            "Run all above",
            "run-above",
            "Run every cell above this one, in order, stopping at an error the lesson does not show",
            |c| spawn(run_range(1, c.number - 1)),
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
            "Forget every variable and start afresh (asks first)",
            |c| c.confirm_reset(),
        ),
        (
            "Restore original",
            "restore",
            "Put the lesson's code back (can be undone)",
            |c| c.restore_original(),
        ),
        (
            "+ Cell",
            "add-cell",
            "Add a scratch cell of your own under this one (kept in this browser)",
            |c| crate::scratch::add_under(&c.lesson, c.number, &c.section, &c.client),
        ),
    ];
    for (label, id, title, action) in buttons {
        dom::toolbar_button(document, &toolbar, (label, id, title), move || {
            if let Some(cell) = self::cell(number) {
                action(cell);
            }
        })?;
    }
    let edited_mark = dom::element(document, "span", "cell-edited")?;
    edited_mark.set_text_content(Some("edited"));
    edited_mark.set_attribute("title", "Your code differs from the lesson's")?;
    toolbar.append_child(&edited_mark)?;
    toolbar.append_child(&view.status)?;
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

/// A cell's output as kept between visits: its run's number, whether it ended in an error, what
/// it showed ([`Output::snapshot`]) and the code that ran.
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptOutput {
    number: u32,
    error: bool,
    parts: Vec<(String, String)>,
    /// The code that ran.
    source: String,
}

/// Runs cells `first..=last` in order with the scratch cells under them, stopping at the first
/// lesson cell that does not show what the lesson records (an error the lesson shows on purpose
/// does not stop it) or scratch cell that raises. Whether all ran.
pub async fn run_range(first: usize, last: usize) -> bool {
    for number in first..=last {
        let Some(cell) = cell(number) else {
            return false;
        };
        if !cell.run().await {
            return false;
        }
        for scratch in crate::scratch::under(number) {
            if !scratch.await {
                return false;
            }
        }
    }
    true
}

/// Clears every cell's output, counter and visuals (the notebook's variables stay), and what
/// was kept of them for the next visit.
pub fn clear_outputs() {
    PAGE.with_borrow(|page| {
        for cell in page {
            crate::storage::remove(&cell.output_key());
            let _ = cell.section.class_list().remove_1("kept");
            cell.output.clear();
            cell.output.element().set_class_name("cell-output");
            cell.help.set_text_content(None);
            cell.counter.set_text_content(Some("[ ]"));
            cell.status.set_text_content(None);
            cell.ran.set(0);
            cell.ran_source.replace(None);
            if let Some(visuals) = &cell.visuals {
                visuals.restart();
            }
        }
    });
}

/// Marks each output older than the code above it: a cell above ran after it, or its own code
/// changed since it ran.
fn refresh_stale() {
    PAGE.with_borrow(|page| {
        let mut latest_above = 0;
        for cell in page {
            let ran = cell.ran.get();
            let changed = cell
                .ran_source
                .borrow()
                .as_deref()
                .is_some_and(|source| source != text(&cell.editor));
            let stale = changed || (ran > 0 && latest_above > ran);
            let _ = cell.section.class_list().toggle_with_force("stale", stale);
            let title = if changed {
                "This output is older than the code: run the cell again"
            } else {
                "This output is older than the code above it: a cell above ran since"
            };
            if stale {
                let _ = cell.output.element().set_attribute("title", title);
            } else {
                let _ = cell.output.element().remove_attribute("title");
            }
            latest_above = latest_above.max(ran);
        }
    });
}

impl CellView {
    /// Runs the cell and shows what it printed, its value and its traceback, marking the line
    /// the error was raised on; the visuals follow its progress. Whether it showed what the
    /// lesson records for it (ran without an error, where the lesson records nothing).
    async fn run(self: Rc<Self>) -> bool {
        self.end_stepping();
        self.start("Running…");
        let source = text(&self.editor);
        // What the run printed, for the comparison with the lesson's recorded output.
        let printed = Rc::new(RefCell::new(String::new()));
        let watcher: Rc<dyn Fn(Progress)> = {
            let (cell, printed) = (Rc::clone(&self), Rc::clone(&printed));
            Rc::new(move |progress: Progress| {
                cell.output.append(Kind::Stdout, &progress.stdout);
                if cell.recorded.as_ref().is_some_and(|r| r.expected.is_some()) {
                    printed.borrow_mut().push_str(&progress.stdout);
                }
                if let Some(visuals) = &cell.visuals {
                    visuals.extend(progress.trace);
                }
            })
        };
        let request = Request::RunCell {
            cell: self.name.clone(),
            source: source.clone(),
        };
        match self.client.send_watching(request, Some(watcher)).await {
            Reply::Ran(record) => {
                let transcript = printed.take() + &record.transcript();
                let done = self.finish(&record, Some(source));
                let as_recorded = match &self.recorded {
                    Some(cell) if cell.expected.is_some() => cell.accepts(&transcript),
                    _ => record.error.is_none(),
                };
                if as_recorded {
                    crate::progress::record(&self.lesson, self.number);
                }
                if let Some(traceback) = &record.error {
                    spawn(Rc::clone(&self).offer_definition(traceback.clone()));
                }
                done || as_recorded
            }
            other => {
                self.fail(other);
                false
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
                    self.finish(&step.record, None);
                } else {
                    mark_step(&self.editor, next);
                    self.output.append(Kind::Stdout, &step.record.stdout);
                    if let Some(visuals) = &self.visuals {
                        visuals.extend(step.record.trace);
                        visuals.draw_now(0);
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
        self.client.stop().await;
    }

    /// Asks before forgetting every variable.
    fn confirm_reset(self: Rc<Self>) {
        let me = Rc::clone(&self);
        self.offer(
            "Forget every variable of this lesson's notebook? Your code stays.",
            &[
                (
                    "Reset session",
                    "confirm-reset",
                    Rc::new(move || spawn(Rc::clone(&me).reset())),
                ),
                ("Cancel", "cancel", {
                    let me = Rc::clone(&self);
                    Rc::new(move || me.help.set_text_content(None))
                }),
            ],
        );
    }

    async fn reset(self: Rc<Self>) {
        self.help.set_text_content(None);
        if let Reply::Reset = self.client.send(Request::Reset).await {
            PAGE.with_borrow(|page| page.iter().for_each(|c| c.end_stepping()));
            self.output.clear();
            self.output.element().set_class_name("cell-output");
            self.output
                .append(Kind::Note, "The session was reset: every variable is gone.");
        }
    }

    /// Puts the lesson's code back, offering to undo it.
    fn restore_original(self: Rc<Self>) {
        let replaced = restore(&self.editor);
        if self.recorded.as_ref().is_some_and(|c| c.source == replaced) {
            return;
        }
        let me = Rc::clone(&self);
        self.offer(
            "The lesson's code is back.",
            &[(
                "Undo",
                "undo-restore",
                Rc::new(move || {
                    set_text(&me.editor, &replaced);
                    me.help.set_text_content(None);
                }),
            )],
        );
    }

    /// Shows `message` under the output with buttons (label, `data-action`, what it does).
    fn offer(&self, message: &str, buttons: &[Offered]) {
        self.help.set_text_content(Some(message));
        let Some(document) = self.help.owner_document() else {
            return;
        };
        for (label, action, on_click) in buttons {
            let call = Rc::clone(on_click);
            let _ = dom::toolbar_button(&document, &self.help, (label, action, label), move || {
                call()
            });
        }
    }

    /// On a `NameError` for a name that a cell above binds, offers to run the cells up to that
    /// one, then this one.
    async fn offer_definition(self: Rc<Self>, traceback: String) {
        let Some(name) = traceback
            .lines()
            .last()
            .and_then(|l| l.strip_prefix("NameError: name '"))
            .and_then(|l| l.strip_suffix("' is not defined"))
            .map(str::to_owned)
        else {
            return;
        };
        let cells: Vec<CellSource> = (1..self.number)
            .filter_map(self::cell)
            .map(|c| CellSource {
                cell: c.name.clone(),
                source: text(&c.editor),
            })
            .collect();
        let Reply::Definition { cell: Some(found) } = self
            .client
            .send(Request::FindDefinition {
                name: name.clone(),
                cells,
            })
            .await
        else {
            return;
        };
        let Some(defining) = PAGE.with_borrow(|p| p.iter().position(|c| c.name == found)) else {
            return;
        };
        let defining = defining + 1;
        let range = if defining == 1 {
            "cell 1".to_owned()
        } else {
            format!("cells 1–{defining}")
        };
        let me = Rc::clone(&self);
        self.offer(
            &format!("This cell uses `{name}`, which cell {defining} defines: it has not run in this session."),
            &[(
                &format!("Run {range}, then this one"),
                "run-needed",
                Rc::new(move || {
                    let me = Rc::clone(&me);
                    spawn(async move {
                        if run_range(1, defining).await {
                            me.run().await;
                        }
                    })
                }),
            )],
        );
    }

    /// Where the cell's last output is kept between visits.
    fn output_key(&self) -> String {
        format!("tolab:lesson:{}:output:{}", self.lesson, self.number)
    }

    /// Keeps what the output shows now, for the next visit.
    fn keep_output(&self) {
        let kept = KeptOutput {
            number: self.ran.get(),
            error: self.output.element().class_list().contains("error"),
            parts: self.output.snapshot(),
            source: self.ran_source.borrow().clone().unwrap_or_default(),
        };
        if let Ok(json) = serde_json::to_string(&kept) {
            crate::storage::save(&self.output_key(), &json);
        }
    }

    /// Shows the output kept from the last visit, marked as such: the notebook behind it is
    /// gone until the cells run again.
    fn restore_output(self: &Rc<Self>) {
        let Some(kept) = crate::storage::load(&self.output_key())
            .and_then(|json| serde_json::from_str::<KeptOutput>(&json).ok())
        else {
            return;
        };
        self.output.restore(&kept.parts);
        self.output.element().set_class_name(if kept.error {
            "cell-output error"
        } else {
            "cell-output"
        });
        self.counter
            .set_text_content(Some(&format!("[{}]", kept.number)));
        self.status.set_text_content(Some("from your last visit"));
        self.ran_source.replace(Some(kept.source));
        let _ = self.section.class_list().add_1("kept");
    }

    /// The first run on a GPU device of a page whose GPU is emulated says so, once.
    fn note_software_gpu(&self, record: &RunRecord) {
        let on_gpu = record.trace.iter().any(|e| {
            e.device
                .is_some_and(|d| d.kind != tolab_cells::DeviceType::Cpu)
        });
        if !on_gpu || NOTED_SOFTWARE.replace(true) {
            return;
        }
        let Some(adapter) = crate::header::software_gpu() else {
            NOTED_SOFTWARE.set(false);
            return;
        };
        self.offer(
            &format!(
                "cuda and mps run here on {adapter}, a GPU emulated on the CPU. Its kernels are real, but slower than the cpu device runs the same ops, so cuda can take longer than cpu in this lab; on a real GPU it is the other way round for large tensors."
            ),
            &[],
        );
    }

    fn mark_edited(&self, is_edited: bool) {
        let _ = self
            .section
            .class_list()
            .toggle_with_force("edited", is_edited);
    }

    fn end_stepping(&self) {
        if self.stepping.replace(false) {
            mark_step(&self.editor, 0);
        }
    }

    /// A run or a stepped run begins: the last one's output, marks and visuals go, and its clock
    /// starts.
    fn start(self: &Rc<Self>, status: &str) {
        mark_error(&self.editor, 0);
        self.help.set_text_content(None);
        self.output.clear();
        self.output.element().set_class_name("cell-output running");
        self.output.append(Kind::Note, status);
        if let Some(visuals) = &self.visuals {
            visuals.restart();
        }
        self.counter.set_text_content(Some("[*]"));
        self.start_clock();
    }

    /// Shows, every tenth of a second, how long the running cell has run.
    fn start_clock(self: &Rc<Self>) {
        self.stop_clock();
        let started = js_sys::Date::now();
        let me = Rc::downgrade(self);
        let tick = Closure::<dyn FnMut()>::new(move || {
            if let Some(me) = me.upgrade() {
                let seconds = (js_sys::Date::now() - started) / 1000.0;
                me.status
                    .set_text_content(Some(&format!("running {seconds:.1} s")));
            }
        });
        let id = web_sys::window()
            .and_then(|w| {
                w.set_interval_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    100,
                )
                .ok()
            })
            .unwrap_or(0);
        self.status.set_text_content(Some("running 0.0 s"));
        *self.clock.borrow_mut() = Some((started, id, tick));
    }

    /// Stops the clock; how long the run took, in seconds.
    fn stop_clock(&self) -> Option<f64> {
        let (started, id, _tick) = self.clock.borrow_mut().take()?;
        if let Some(window) = web_sys::window() {
            window.clear_interval_with_handle(id);
        }
        Some((js_sys::Date::now() - started) / 1000.0)
    }

    /// Shows the end of a run: the rest of its stdout (progress showed the start), warnings,
    /// the value and the traceback, numbers the run, and marks outputs that are now stale.
    /// `source` is the code that ran (`None` for a stepped run). Whether it ran without error.
    fn finish(&self, record: &RunRecord, source: Option<String>) -> bool {
        let took = self.stop_clock();
        self.output.element().set_class_name("cell-output");
        self.output.count_run();
        self.output.drop_notes();
        self.output.show(record);
        if let Some(visuals) = &self.visuals {
            visuals.extend(record.trace.clone());
            visuals.draw_now(record.trace_dropped);
        }
        let number = COUNTER.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        self.ran.set(number);
        self.ran_source
            .replace(Some(source.unwrap_or_else(|| text(&self.editor))));
        self.counter.set_text_content(Some(&format!("[{number}]")));
        let _ = self.section.class_list().remove_1("kept");
        self.status
            .set_text_content(took.map(|s| format!("{s:.2} s")).as_deref().or(Some("")));
        refresh_stale();
        self.note_software_gpu(record);
        let Some(traceback) = &record.error else {
            self.keep_output();
            return true;
        };
        if let Some(line) = error_line(traceback, &self.name) {
            mark_error(&self.editor, line);
        }
        self.output.element().set_class_name("cell-output error");
        self.keep_output();
        false
    }

    /// Shows why the runtime gave no record; after a restart, offers to run the cells above.
    fn fail(self: &Rc<Self>, reply: Reply) {
        self.stop_clock();
        self.counter.set_text_content(Some("[ ]"));
        self.status.set_text_content(None);
        let restarted = matches!(reply, Reply::Restarted { .. });
        self.output.fail(reply);
        if restarted && self.number > 1 {
            let number = self.number;
            self.offer(
                "Run the cells above again to get their variables back.",
                &[(
                    "Run all above",
                    "run-above",
                    Rc::new(move || spawn(run_range(1, number - 1))),
                )],
            );
        }
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

    #[test]
    fn a_syntax_error_gives_its_line() {
        let traceback = "  File \"<cell 1>\", line 2\n    print(1)\n    ^^^^^\nIndentationError: expected an indented block after 'if' statement on line 1";
        assert_eq!(error_line(traceback, "<cell 1>"), Some(2));
    }
}
