//! In the browser, with the event loop turning between pauses: a stepped cell waits at its gate
//! across requests (its run kept alive by the runtime while `setTimeout` yields come and go), and a
//! running cell's progress arrives while it still runs.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use tolab_cells::{Reply, Request, Runtime};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_stepped_loop_waits_between_steps_and_progress_streams_while_a_cell_runs() {
    let mut runtime = Runtime::new();
    let reports = Rc::new(RefCell::new(Vec::new()));
    runtime.on_progress(Rc::new({
        let reports = reports.clone();
        move |progress| reports.borrow_mut().push(progress)
    }));

    let source =
        "import time\ntotal = 0\nfor i in range(3):\n    total += i\n    time.sleep(0.05)\ntotal\n";
    let mut lines = Vec::new();
    for _ in 0..20 {
        let Reply::Stepped(step) = runtime
            .handle(Request::Step {
                cell: "<cell 1>".into(),
                source: source.into(),
            })
            .await
        else {
            panic!("a step")
        };
        lines.push(step.ran.map(|p| p.line));
        if step.done {
            assert_eq!(step.record.value.as_deref(), Some("3"));
            break;
        }
    }
    assert_eq!(
        lines,
        [1, 2, 3, 4, 5, 4, 5, 4, 5, 6].map(Some).to_vec(),
        "statement by statement, into the loop body"
    );

    let Reply::Ran(record) = runtime
        .handle(Request::RunCell {
            cell: "<cell 2>".into(),
            source: "for i in range(4):\n    print(i)\n    time.sleep(0.06)\n".into(),
        })
        .await
    else {
        panic!("a run record")
    };
    // Progress hands the output over as it comes; the record holds what came after.
    let reports = reports.borrow();
    let streamed: String = reports.iter().map(|p| p.stdout.as_str()).collect();
    assert_eq!(streamed + &record.stdout, "0\n1\n2\n3\n");
    assert!(reports.len() >= 3, "{reports:?}");
    assert_eq!(reports[0].stdout, "0\n");
}

#[wasm_bindgen_test]
async fn spawned_ranks_sleep_and_meet_in_collectives_without_the_event_loop() {
    let mut runtime = Runtime::new();
    let source = "import time, torch\nimport torch.distributed as dist\nimport torch.multiprocessing as mp\ndef work(rank):\n    dist.init_process_group('gloo')\n    time.sleep(0.05 * rank)\n    t = torch.ones(1) * (rank + 1)\n    dist.all_reduce(t)\n    if rank == 0:\n        print(t.item())\nmp.spawn(work, nprocs=2)\n";
    let Reply::Ran(record) = runtime
        .handle(Request::RunCell {
            cell: "<cell 1>".into(),
            source: source.into(),
        })
        .await
    else {
        panic!("a run record")
    };
    assert_eq!(record.error, None);
    assert_eq!(record.stdout, "3.0\n");
}
