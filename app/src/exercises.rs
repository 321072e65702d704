//! A lesson's exercises: each `section.exercise` of the rendered lesson gets an editor holding
//! the starter code (the learner's edits kept in the browser), Check (or Shift+Enter), hints
//! revealed one at a time, and the solution, offered after a first try.
//!
//! Check never depends on what the learner ran before: the runtime makes a fresh notebook, runs
//! the lesson's cells the exercise uses (those above it, or its `uses=`), then the learner's
//! code, then every check, and the output says which cells ran first. A passed exercise counts
//! in the lesson's progress; whether it passed, that it was tried (the solution stays offered)
//! and how many hints were seen are kept in the browser.

use std::cell::Cell;
use std::rc::Rc;

use tolab_cells::{Budget, CellSource, CheckSpec, ExerciseReport, Reply, Request};
use tolab_lessons::{Exercise, Lesson};
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::dom::{self, element, spawn};
use crate::editor::{Callbacks, EditorView, mark_error, restore, text};
use crate::output::{Kind, Output};
use crate::runtime_client::RuntimeClient;

/// Makes the exercises of `lesson`, rendered inside `prose`, workable.
pub fn mount_exercises(
    prose: &Element,
    lesson: &Lesson,
    client: &RuntimeClient,
) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    let sections = prose.query_selector_all("section.exercise")?;
    let exercises: Vec<&Exercise> = lesson.exercises().collect();
    // Each section names its exercise by its index (an embedded exercise is the only one left).
    for i in 0..sections.length() {
        let Some(section) = sections.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let Some(exercise) = section
            .get_attribute("data-exercise")
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| exercises.get(n).copied())
        else {
            continue;
        };
        let setup = lesson
            .setup_of(exercise)
            .into_iter()
            .map(|(number, cell)| (number, cell.source.clone()))
            .collect();
        mount_exercise(
            &document,
            &section,
            (&lesson.meta.slug, exercise, setup),
            client,
        )?;
    }
    Ok(())
}

/// What a toolbar button does to its exercise.
type Action = fn(Rc<ExerciseView>);

/// One exercise on the page.
struct ExerciseView {
    lesson: String,
    exercise: Exercise,
    /// The lesson's cells a check runs first, by number.
    setup: Vec<(usize, String)>,
    editor: EditorView,
    output: Rc<Output>,
    checks: Element,
    hints: Element,
    hint_button: Element,
    solution: Element,
    solution_button: Element,
    client: RuntimeClient,
    /// Hints shown so far.
    hints_shown: Cell<usize>,
}

fn mount_exercise(
    document: &Document,
    section: &Element,
    (lesson, exercise, setup): (&str, &Exercise, Vec<(usize, String)>),
    client: &RuntimeClient,
) -> Result<(), JsValue> {
    let box_ = element(document, "div", "cell exercise-cell")?;
    box_.set_attribute("aria-label", &format!("Exercise: {}", exercise.title))?;
    section.append_child(&box_)?;
    let pre = element(document, "pre", "")?;
    pre.set_text_content(Some(&exercise.starter));
    box_.append_child(&pre)?;
    let toolbar = element(document, "div", "cell-toolbar")?;
    toolbar.set_attribute("role", "toolbar")?;
    let output = element(document, "pre", "cell-output")?;
    output.set_attribute("aria-live", "polite")?;
    let checks = element(document, "ul", "checks")?;
    checks.set_attribute("aria-label", "Checks")?;
    checks.set_attribute("aria-live", "polite")?;
    let hints = element(document, "ol", "hints")?;
    let solution = element(document, "div", "solution")?;
    solution.set_attribute("hidden", "")?;
    let code = element(document, "pre", "")?;
    code.set_text_content(Some(&exercise.solution));
    solution.append_child(&code)?;

    // The view exists once the editor does; the editor's key handler finds it through this.
    let view_slot: Rc<std::cell::OnceCell<Rc<ExerciseView>>> = Rc::default();
    let callbacks = Callbacks {
        on_run: Box::new({
            let slot = Rc::clone(&view_slot);
            move |_| {
                if let Some(view) = slot.get() {
                    spawn(Rc::clone(view).check());
                }
            }
        }),
        on_hover: Box::new(|_| {}),
        on_edit: Box::new({
            let box_ = box_.clone();
            move |edited| {
                let _ = box_.class_list().toggle_with_force("edited", edited);
            }
        }),
    };
    let key = format!("tolab:lesson:{lesson}:exercise:{}", exercise.id);
    let editor = crate::editor::mount(&pre, &key, callbacks, client)?;

    // Buttons act on the view once it exists.
    let button = |text: (&str, &str, &str), action: Action| {
        let slot = Rc::clone(&view_slot);
        dom::toolbar_button(document, &toolbar, text, move || {
            if let Some(view) = slot.get() {
                action(Rc::clone(view));
            }
        })
    };
    button(
        (
            "Check",
            "check",
            "Run your code, then the exercise's checks (Shift+Enter)",
        ),
        |v| spawn(v.check()),
    )?;
    let hint_button = button(("Hint", "hint", "Show the next hint"), |v| v.next_hint())?;
    let solution_button = button(
        (
            "Show solution",
            "solution",
            "Offered once you have tried the exercise",
        ),
        |v| v.show_solution(),
    )?;
    solution_button.set_attribute("disabled", "")?;
    button(
        ("Restore starter", "restore", "Put the starter code back"),
        |v| {
            restore(&v.editor);
        },
    )?;
    if exercise.hints.is_empty() {
        hint_button.set_attribute("hidden", "")?;
    }
    for part in [&toolbar, &output, &checks, &hints, &solution] {
        box_.append_child(part)?;
    }
    let view = Rc::new(ExerciseView {
        lesson: lesson.to_owned(),
        exercise: exercise.clone(),
        setup,
        editor,
        output: Output::new(output),
        checks,
        hints,
        hint_button,
        solution,
        solution_button,
        client: client.clone(),
        hints_shown: Cell::new(0),
    });
    view.restore_state();
    let _ = view_slot.set(view);
    Ok(())
}

impl ExerciseView {
    /// Runs the learner's code and the checks in a fresh notebook after the lesson's cells, and
    /// shows how each fared.
    async fn check(self: Rc<Self>) {
        mark_error(&self.editor, 0);
        self.output.clear();
        self.output.element().set_class_name("cell-output running");
        self.output.append(Kind::Note, "Checking…");
        self.checks.set_text_content(None);
        let name = format!("<exercise {}>", self.exercise.id);
        let request = Request::CheckExercise {
            cell: name.clone(),
            source: text(&self.editor),
            checks: self
                .exercise
                .checks
                .iter()
                .map(|c| CheckSpec {
                    message: c.message.clone(),
                    code: c.code.clone(),
                })
                .collect(),
            setup: self
                .setup
                .iter()
                .map(|(number, source)| CellSource {
                    cell: format!("<cell {number}>"),
                    source: source.clone(),
                })
                .collect(),
            budget: Budget::default(),
        };
        let report = match self.client.send(request).await {
            Reply::Checked(report) => report,
            other => return self.output.fail(other),
        };
        self.output.clear();
        self.output.count_run();
        self.output
            .element()
            .set_class_name(if report.record.error.is_some() {
                "cell-output error"
            } else {
                "cell-output"
            });
        self.output
            .append(Kind::Note, &ran_first(&self.setup, &report));
        self.output.show(&report.record);
        if let Some(line) = report
            .record
            .error
            .as_deref()
            .and_then(|t| crate::cells::error_line(t, &name))
        {
            mark_error(&self.editor, line);
        }
        self.list(&report);
        crate::embed::exercise_checked(&self.lesson, &self.exercise, &report, &text(&self.editor));
        let _ = self.solution_button.remove_attribute("disabled");
        crate::progress::exercise_tried(&self.lesson, &self.exercise.id, report.passed());
    }

    /// What a fresh page's learner sees again: the solution offered once tried, the hints seen.
    fn restore_state(&self) {
        let state = crate::progress::exercise_state(&self.lesson, &self.exercise.id);
        if state.tried {
            let _ = self.solution_button.remove_attribute("disabled");
        }
        for _ in 0..state.hints.min(self.exercise.hints.len()) {
            self.reveal_hint();
        }
        if state.passed
            && let Some(document) = self.checks.owner_document()
            && let Ok(item) = element(&document, "li", "check-summary")
        {
            item.set_text_content(Some("Done earlier: every check passed."));
            let _ = self.checks.append_child(&item);
        }
    }

    /// Lists each check, passed or failed, with its message and why it failed.
    fn list(&self, report: &ExerciseReport) {
        let Some(document) = self.checks.owner_document() else {
            return;
        };
        for outcome in &report.checks {
            let Ok(item) = element(
                &document,
                "li",
                if outcome.passed {
                    "check passed"
                } else {
                    "check failed"
                },
            ) else {
                return;
            };
            let mark = if outcome.passed { "✓ " } else { "✗ " };
            item.set_text_content(Some(&format!("{mark}{}", outcome.message)));
            if let Some(reason) = &outcome.reason
                && let Ok(why) = element(&document, "span", "check-reason")
            {
                why.set_text_content(Some(&format!(" — {reason}")));
                let _ = item.append_child(&why);
            }
            let _ = self.checks.append_child(&item);
        }
        if let Ok(summary) = element(&document, "li", "check-summary") {
            summary.set_text_content(Some(if report.passed() {
                "Every check passes: exercise done."
            } else {
                "Not yet: fix what failed and check again."
            }));
            let _ = self.checks.append_child(&summary);
        }
    }

    fn next_hint(&self) {
        self.reveal_hint();
        crate::progress::exercise_hints(&self.lesson, &self.exercise.id, self.hints_shown.get());
    }

    fn reveal_hint(&self) {
        let shown = self.hints_shown.get();
        let Some(hint) = self.exercise.hints.get(shown) else {
            return;
        };
        if let Some(item) = self
            .hints
            .owner_document()
            .and_then(|d| element(&d, "li", "hint").ok())
        {
            item.set_text_content(Some(hint));
            let _ = self.hints.append_child(&item);
        }
        self.hints_shown.set(shown + 1);
        let left = self.exercise.hints.len() - shown - 1;
        if left == 0 {
            let _ = self.hint_button.set_attribute("disabled", "");
        }
    }

    fn show_solution(&self) {
        let _ = self.solution.remove_attribute("hidden");
    }
}

/// Which of the lesson's `setup` cells a check ran first, and which of them raised (as a
/// lesson's cell may on purpose).
fn ran_first(setup: &[(usize, String)], report: &ExerciseReport) -> String {
    let numbers: Vec<String> = setup.iter().map(|(n, _)| n.to_string()).collect();
    let ran = match numbers.as_slice() {
        [] => return "Checked in a fresh notebook.\n".to_owned(),
        [one] => format!("cell {one}"),
        many => format!("cells {}", many.join(", ")),
    };
    let raised: Vec<String> = report
        .setup
        .iter()
        .filter_map(|s| Some(format!("{} raised {}", s.cell, s.error.as_deref()?)))
        .collect();
    let raised = if raised.is_empty() {
        String::new()
    } else {
        format!(" ({})", raised.join("; "))
    };
    format!("Checked in a fresh notebook, after the lesson's {ran}{raised}.\n")
}
