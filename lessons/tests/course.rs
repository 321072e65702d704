//! The course, run for real: every lesson's cells run in order in one notebook natively (on the
//! GPU backend where this machine has an adapter, lavapipe in CI) and print what the lesson file
//! records; every exercise's solution passes all its checks, and its starter code fails at
//! least one, each failure with its message.
//!
//! For instructors: `TOLAB_RECORD_OUTPUTS=1 cargo test -p tolab-lessons --test course` writes
//! what each cell showed into the lesson files, in place of outputs that no longer match (and
//! after cells that record none); review the diff before committing it.

use tolab_cells::{Budget, CellSource, CheckSpec, ExerciseReport, Reply, Request, Runtime};
use tolab_lessons::{Block, Exercise, Lesson, default_catalog};

fn checks(exercise: &Exercise) -> Vec<CheckSpec> {
    exercise
        .checks
        .iter()
        .map(|c| CheckSpec {
            message: c.message.clone(),
            code: c.code.clone(),
        })
        .collect()
}

/// Checks `source` as the answer to `exercise` of `lesson`, as the lab's Check button does: in a
/// fresh notebook that runs the lesson's cells the exercise uses first (a fresh page's case).
fn check(
    runtime: &mut Runtime,
    lesson: &Lesson,
    exercise: &Exercise,
    source: &str,
) -> ExerciseReport {
    let request = Request::CheckExercise {
        cell: format!("<exercise {}>", exercise.id),
        source: source.to_owned(),
        checks: checks(exercise),
        setup: lesson
            .setup_of(exercise)
            .into_iter()
            .map(|(number, cell)| CellSource {
                cell: format!("<cell {number}>"),
                source: cell.source.clone(),
            })
            .collect(),
        budget: Budget::default(),
    };
    match pollster::block_on(runtime.handle(request)) {
        Reply::Checked(report) => report,
        other => panic!("{}: not a check report: {other:?}", exercise.id),
    }
}

/// What a run of a lesson found: problems, and (when recording) what each mismatched cell showed,
/// by the line of its fence.
#[derive(Default)]
struct Findings {
    failures: Vec<String>,
    shown: Vec<(usize, String)>,
}

/// Runs `lesson` from the start: its cells (each against its recorded output) and the
/// solutions of its exercises, each checked as on a fresh page.
fn run_lesson(lesson: &Lesson, findings: &mut Findings) {
    let mut runtime = Runtime::new();
    let mut number = 0;
    for block in &lesson.blocks {
        match block {
            Block::Prose(_) => {}
            Block::Cell(cell) => {
                number += 1;
                let request = Request::RunCell {
                    cell: format!("<cell {number}>"),
                    source: cell.source.clone(),
                };
                let Reply::Ran(record) = pollster::block_on(runtime.handle(request)) else {
                    panic!("no run record")
                };
                let shown = record.transcript();
                let unrecorded = cell.expected.is_none() || !cell.accepts(&shown);
                if unrecorded && recording() {
                    findings.shown.push((cell.line, shown));
                } else if !cell.accepts(&shown) {
                    findings.failures.push(format!(
                        "{}:{}: the cell showed\n{shown}\nbut the lesson records\n{}",
                        lesson.path,
                        cell.line,
                        cell.expected.as_deref().unwrap_or_default()
                    ));
                }
            }
            Block::Exercise(exercise) => {
                let report = check(&mut runtime, lesson, exercise, &exercise.solution);
                if !report.passed() {
                    findings.failures.push(format!(
                        "{}:{}: the solution of `{}` fails: {:?}\n{}",
                        lesson.path,
                        exercise.line,
                        exercise.title,
                        report
                            .checks
                            .iter()
                            .filter(|c| !c.passed)
                            .collect::<Vec<_>>(),
                        report.record.transcript()
                    ));
                }
            }
        }
    }
}

fn recording() -> bool {
    std::env::var_os("TOLAB_RECORD_OUTPUTS").is_some()
}

/// Writes each `(line, shown)` as the output of the cell whose fence opens on that line of `path`
/// (relative to the repository root), replacing the output block after it or adding one.
fn record_outputs(path: &str, mut shown: Vec<(usize, String)>) {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    let mut text = std::fs::read_to_string(&file).expect("the lesson file");
    // From the end, so that the lines of the cells before stay where they were.
    shown.sort_by_key(|(line, _)| std::cmp::Reverse(*line));
    for (line, shown) in shown {
        text = with_output(&text, line, &shown);
    }
    std::fs::write(&file, text).expect("the lesson file is written");
}

/// `text` with `shown` as the output of the cell whose fence opens on 1-based `line`.
fn with_output(text: &str, line: usize, shown: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let close = (line..lines.len())
        .find(|&i| lines[i].trim_start().starts_with("```"))
        .expect("the cell's closing fence");
    let next = (close + 1..lines.len()).find(|&i| !lines[i].trim().is_empty());
    let block = format!("```output\n{}\n```", shown.trim_end());
    let mut out: Vec<String> = lines[..=close].iter().map(|l| l.to_string()).collect();
    let rest = match next {
        Some(i) if lines[i].trim() == "```output" => {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim() == "```")
                .expect("the output's closing fence");
            end + 1
        }
        _ => close + 1,
    };
    out.push(String::new());
    out.push(block);
    out.extend(lines[rest..].iter().map(|l| l.to_string()));
    out.join("\n") + "\n"
}

#[test]
fn every_cell_prints_its_recorded_output_and_every_solution_passes_its_checks() {
    let catalog = default_catalog().expect("the lessons parse");
    let mut failures = Vec::new();
    for lesson in catalog.lessons() {
        let mut findings = Findings::default();
        run_lesson(lesson, &mut findings);
        failures.extend(findings.failures);
        if !findings.shown.is_empty() {
            record_outputs(&lesson.path, findings.shown);
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn every_starter_fails_a_check_and_says_which() {
    let catalog = default_catalog().expect("the lessons parse");
    let mut failures = Vec::new();
    for lesson in catalog.lessons() {
        for exercise in lesson.exercises() {
            let report = check(&mut Runtime::new(), lesson, exercise, &exercise.starter);
            let failed: Vec<_> = report.checks.iter().filter(|c| !c.passed).collect();
            if failed.is_empty() {
                failures.push(format!(
                    "{}:{}: the starter of `{}` passes every check",
                    lesson.path, exercise.line, exercise.title
                ));
            }
            if failed
                .iter()
                .any(|c| c.message.is_empty() || c.reason.is_none())
            {
                failures.push(format!(
                    "{}: a failed check without message or reason",
                    exercise.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
