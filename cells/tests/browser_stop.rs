//! In the browser a running cell hands the thread back to the event loop now and then, so a Stop
//! that arrives while it loops (here from a timer, as a worker's message would) ends it with
//! `KeyboardInterrupt` long before its step or time budget would.
#![cfg(target_arch = "wasm32")]

use tolab_cells::python::Interpreter;
use tolab_engine::Session;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_stop_sent_while_a_cell_loops_ends_it_with_keyboard_interrupt() {
    let mut notebook = Interpreter::notebook(Session::default());
    let stop = notebook.stop_handle();
    let press_stop = Closure::once_into_js(move || stop.stop());
    let global = js_sys::global();
    let set_timeout: js_sys::Function = js_sys::Reflect::get(&global, &"setTimeout".into())
        .expect("setTimeout")
        .unchecked_into();
    set_timeout
        .call2(&global, &press_stop, &100.into())
        .expect("a timer");
    let record = notebook
        .run_cell("<cell>", "n = 0\nwhile True:\n    n += 1\n")
        .await;
    let traceback = record.error.expect("the loop was stopped");
    assert_eq!(
        traceback.lines().last(),
        Some("KeyboardInterrupt"),
        "{traceback}"
    );
    // The notebook goes on: the loop's variable is there.
    let after = notebook.run_cell("<cell 2>", "n > 0").await;
    assert_eq!(after.value.as_deref(), Some("True"));
}
