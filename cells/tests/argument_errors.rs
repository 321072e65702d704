//! Every binding of the signature table, called wrongly (unknown keywords, too many or missing
//! arguments, an argument of the wrong type by position and by keyword, None where a value is
//! needed), raises what real PyTorch 2.15 raised for the same call, type and text word for word
//! (`tests/golden/argument_errors.json`, from `cells/src/torch/signatures/generate.py`).

#![cfg(not(target_arch = "wasm32"))]

use tolab_cells::python::Interpreter;
use tolab_engine::Session;

#[derive(serde::Deserialize)]
struct Golden {
    setup: String,
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    binding: String,
    code: String,
    error: String,
}

fn golden() -> Golden {
    let text = include_str!("../../tests/golden/argument_errors.json");
    serde_json::from_str(text).expect("the golden file is JSON")
}

#[test]
fn every_wrong_call_raises_what_pytorch_raises() {
    let golden = golden();
    assert!(golden.cases.len() > 1000, "{} cases", golden.cases.len());
    let mut notebook = Interpreter::notebook(Session::default());
    let setup = pollster::block_on(notebook.run_cell("<setup>", &golden.setup));
    assert_eq!(setup.error, None, "the setup cell runs");
    let mut failures = Vec::new();
    for case in &golden.cases {
        let record = pollster::block_on(notebook.run_cell("<cell>", &case.code));
        let got = record.error.unwrap_or_else(|| "(no error)".into());
        // The traceback ends with the exception's line(s): `TypeError: message`.
        let tail = got
            .find(&format!("\n{}", case.error.split(':').next().unwrap_or("")))
            .map_or(got.as_str(), |at| &got[at + 1..]);
        if tail.trim_end() != case.error.trim_end() {
            failures.push(format!(
                "{} — {}\n  expected: {}\n  got:      {}",
                case.binding,
                case.code,
                case.error.replace('\n', "\n            "),
                tail.trim_end().replace('\n', "\n            ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} wrong calls differ from PyTorch:\n{}",
        failures.len(),
        golden.cases.len(),
        failures.join("\n")
    );
}
