//! Syntax errors print as CPython prints them: the line, the caret and the message, for the
//! mistakes learners make (unclosed brackets, strings, indentation, colons, Python 2's print).
//! The expected texts come from CPython's own `compile` (`tests/golden/syntax_errors.py`).

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

#[derive(serde::Deserialize)]
struct Golden {
    python: String,
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    source: String,
    error: String,
}

#[test]
fn syntax_errors_read_as_cpython_prints_them() {
    let text = include_str!("../../tests/golden/syntax_errors.json");
    let golden: Golden = serde_json::from_str(text).expect("the golden file");
    let mut notebook = Interpreter::notebook(Session::default());
    let mut wrong = Vec::new();
    for case in &golden.cases {
        let record = pollster::block_on(notebook.run_cell("<cell 1>", &case.source));
        let shown = record.error.unwrap_or_default();
        if shown != case.error {
            wrong.push(format!(
                "{:?}\n--- CPython {}:\n{}\n--- the lab:\n{shown}",
                case.source, golden.python, case.error
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n\n{}",
        wrong.len(),
        golden.cases.len(),
        wrong.join("\n\n")
    );
}

#[test]
fn input_raises_a_clear_error_instead_of_waiting_for_ever() {
    let mut notebook = Interpreter::notebook(Session::default());
    let record = pollster::block_on(notebook.run_cell("<cell 1>", "name = input('name? ')"));
    let error = record.error.unwrap_or_default();
    assert!(
        error.ends_with(
            "OSError: input() reads from the keyboard, which lab cells do not have: set the value in the code instead"
        ),
        "{error}"
    );
}
