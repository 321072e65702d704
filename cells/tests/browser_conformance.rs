//! The conformance programs run by the evaluator compiled to WebAssembly, in headless Chromium
//! (`wasm-bindgen-test-runner`): the browser prints what PyTorch prints, as the native CLI does.
//! The tests run a debug build, whose nested futures take far more of V8's native stack than the
//! site's optimised build: `webdriver.json` gives V8 4 MiB of the renderer's 8 MiB (its default,
//! 984 KiB, overflowed now and then in the WebGPU run).
#![cfg(target_arch = "wasm32")]

mod common;

use std::rc::Rc;

use tolab_cells::python::Interpreter;
use tolab_engine::backend::gpu::GpuContext;
use tolab_engine::{Session, SessionConfig};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn every_conformance_program_prints_in_the_browser_what_pytorch_prints() {
    run_every_program(Session::default).await;
}

/// The same programs with `cuda` tensors in WebGPU buffers: every read of GPU memory in the
/// browser awaits its readback, and what they print does not change.
#[wasm_bindgen_test]
async fn every_conformance_program_prints_the_same_with_cuda_tensors_on_webgpu() {
    let gpu = Rc::new(GpuContext::new().await.expect("WebGPU"));
    run_every_program(|| Session::with_gpu(SessionConfig::default(), Rc::clone(&gpu))).await;
}

async fn run_every_program(session: impl Fn() -> Session) {
    assert!(common::PROGRAMS.len() >= 60);
    let mut failures = Vec::new();
    for (name, source, expected) in common::PROGRAMS {
        // A notebook per program, as the CLI runs each file on its own.
        let mut notebook = Interpreter::notebook(session());
        let record = notebook.run_cell(name, source).await;
        let got = common::shaped_record(source, &record);
        failures.extend(common::mismatch(name, expected, &got));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
