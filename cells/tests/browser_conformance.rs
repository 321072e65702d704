//! The conformance programs run by the evaluator compiled to WebAssembly, in headless Chromium
//! (`wasm-bindgen-test-runner`): the browser prints what PyTorch prints, as the native CLI does.
#![cfg(target_arch = "wasm32")]

mod common;

use tolab_cells::python::Interpreter;
use tolab_engine::Session;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn every_conformance_program_prints_in_the_browser_what_pytorch_prints() {
    assert!(common::PROGRAMS.len() >= 60);
    let mut failures = Vec::new();
    for (name, source, expected) in common::PROGRAMS {
        // A notebook per program, as the CLI runs each file on its own.
        let mut notebook = Interpreter::notebook(Session::default());
        let record = notebook.run_cell(name, source).await;
        let got = common::shaped(&record.stdout, record.error.as_deref());
        failures.extend(common::mismatch(name, expected, &got));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
