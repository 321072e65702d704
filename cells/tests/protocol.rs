//! The message contract: requests and replies keep their JSON shape (the desktop app and the web
//! worker depend on it), and the runtime answers with what really backs the GPU devices.

use tolab_cells::{AdapterReport, BackendReport, DeviceSettings, Reply, Request, Runtime};

fn swiftshader() -> AdapterReport {
    AdapterReport {
        name: String::new(),
        vendor: "google".into(),
        architecture: "swiftshader".into(),
        backend: "WebGPU".into(),
        device_type: "Cpu".into(),
        is_fallback: true,
        driver: String::new(),
        shader_f16: false,
        shader_f64: false,
        max_storage_buffer_binding_size: 134_217_728,
        max_buffer_size: 268_435_456,
    }
}

#[test]
fn messages_keep_their_json_shape() {
    assert_eq!(
        serde_json::to_string(&Request::DescribeBackend).unwrap(),
        r#"{"type":"describe_backend"}"#
    );
    let reply = Reply::Backend(BackendReport::CpuEmulated {
        reason: "this browser has no WebGPU".into(),
    });
    let json = serde_json::to_string(&reply).unwrap();
    assert_eq!(
        json,
        r#"{"type":"backend","kind":"cpu_emulated","reason":"this browser has no WebGPU"}"#
    );
    assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), reply);

    let run = Request::RunCell {
        cell: "<cell 1>".into(),
        source: "print(1)".into(),
    };
    assert_eq!(
        serde_json::to_string(&run).unwrap(),
        r#"{"type":"run_cell","cell":"<cell 1>","source":"print(1)"}"#
    );
    let ran = Reply::Ran(tolab_cells::RunRecord {
        stdout: "1\n".into(),
        stderr: String::new(),
        value: None,
        error: None,
        warnings: Vec::new(),
        trace: Vec::new(),
        trace_dropped: 0,
        timings: tolab_cells::Timings {
            wall_ms: 0.5,
            steps: 1,
        },
    });
    assert_eq!(
        serde_json::to_string(&ran).unwrap(),
        r#"{"type":"ran","stdout":"1\n","stderr":"","value":null,"error":null,"warnings":[],"trace":[],"trace_dropped":0,"timings":{"wall_ms":0.5,"steps":1}}"#
    );
    // An exercise check from an older page (no setup, no budget) still parses.
    let old = r#"{"type":"check_exercise","cell":"<exercise e>","source":"x = 1","checks":[]}"#;
    assert_eq!(
        serde_json::from_str::<Request>(old).unwrap(),
        Request::CheckExercise {
            cell: "<exercise e>".into(),
            source: "x = 1".into(),
            checks: Vec::new(),
            setup: Vec::new(),
            budget: tolab_cells::Budget::default(),
        }
    );

    let gpu = Reply::Backend(BackendReport::Gpu {
        adapter: swiftshader(),
    });
    let back: Reply = serde_json::from_str(&serde_json::to_string(&gpu).unwrap()).unwrap();
    assert_eq!(back, gpu);
}

#[test]
fn headlines_name_the_adapter_or_say_plainly_that_the_cpu_stands_in() {
    assert_eq!(
        BackendReport::Gpu {
            adapter: swiftshader()
        }
        .headline(),
        "GPU: google swiftshader (WebGPU, fallback adapter)"
    );
    assert_eq!(
        BackendReport::CpuEmulated {
            reason: "this browser has no WebGPU".into()
        }
        .headline(),
        "emulated on the CPU: this browser has no WebGPU"
    );
}

#[test]
fn the_runtime_reports_the_native_gpu_adapter() {
    let mut runtime = Runtime::new();
    let Reply::Backend(report) = pollster::block_on(runtime.handle(Request::DescribeBackend))
    else {
        panic!("a backend report")
    };
    match report {
        BackendReport::Gpu { adapter } => assert_ne!(adapter.backend, "WebGPU"),
        BackendReport::CpuEmulated { reason } => {
            panic!("expected lavapipe or another adapter: {reason}")
        }
    }
}

#[test]
fn cells_share_a_notebook_until_reset() {
    let mut runtime = tolab_cells::Runtime::new();
    let run = |source: &str| Request::RunCell {
        cell: "<cell>".into(),
        source: source.into(),
    };
    pollster::block_on(runtime.handle(run("x = 41")));
    let Reply::Ran(record) = pollster::block_on(runtime.handle(run("x + 1"))) else {
        panic!("a run record")
    };
    assert_eq!(record.value.as_deref(), Some("42"));
    assert_eq!(
        pollster::block_on(runtime.handle(Request::Reset)),
        Reply::Reset
    );
    let Reply::Ran(after) = pollster::block_on(runtime.handle(run("x"))) else {
        panic!("a run record")
    };
    assert!(
        after
            .error
            .unwrap()
            .ends_with("NameError: name 'x' is not defined")
    );
}

#[test]
fn envelopes_carry_an_id_each_way_and_stop_has_its_own_shape() {
    let envelope = tolab_cells::RequestEnvelope {
        id: 7,
        request: Request::Stop,
    };
    let json = serde_json::to_string(&envelope).unwrap();
    assert_eq!(json, r#"{"id":7,"request":{"type":"stop"}}"#);
    assert_eq!(
        serde_json::from_str::<tolab_cells::RequestEnvelope>(&json).unwrap(),
        envelope
    );
    let reply = tolab_cells::ReplyEnvelope {
        id: 7,
        reply: Reply::Unavailable {
            reason: "no worker".into(),
        },
    };
    assert_eq!(
        serde_json::to_string(&reply).unwrap(),
        r#"{"id":7,"reply":{"type":"unavailable","reason":"no worker"}}"#
    );
}

#[test]
fn a_stop_that_finds_no_cell_running_does_not_end_the_next_one() {
    let mut runtime = Runtime::new();
    runtime.stop_handle().stop();
    assert_eq!(
        pollster::block_on(runtime.handle(Request::Stop)),
        Reply::Stopped
    );
    runtime.stop_handle().stop();
    let Reply::Ran(record) = pollster::block_on(runtime.handle(Request::RunCell {
        cell: "<cell>".into(),
        source: "sum(range(100000))".into(),
    })) else {
        panic!("a run record")
    };
    assert_eq!(record.value.as_deref(), Some("4999950000"));
}

fn step(runtime: &mut Runtime, cell: &str, source: &str) -> tolab_cells::Step {
    let Reply::Stepped(step) = pollster::block_on(runtime.handle(Request::Step {
        cell: cell.into(),
        source: source.into(),
    })) else {
        panic!("a step")
    };
    step
}

fn lines(steps: &[tolab_cells::Step]) -> Vec<Option<usize>> {
    steps
        .iter()
        .map(|s| s.ran.as_ref().map(|p| p.line))
        .collect()
}

#[test]
fn step_runs_a_cell_one_statement_at_a_time() {
    let mut runtime = Runtime::new();
    let source = "import torch\nx = torch.ones(2)\nprint('moved')\ny = x.to('cuda:1')\ny.device\n";
    let steps: Vec<_> = (0..5)
        .map(|_| step(&mut runtime, "<cell 1>", source))
        .collect();
    assert_eq!(lines(&steps), [Some(1), Some(2), Some(3), Some(4), Some(5)]);
    assert_eq!(
        steps.iter().map(|s| s.done).collect::<Vec<_>>(),
        [false, false, false, false, true]
    );
    assert_eq!(steps[0].next.as_ref().map(|p| p.line), Some(2));
    assert_eq!(steps[2].record.stdout, "moved\n");
    assert!(
        steps[3]
            .record
            .trace
            .iter()
            .all(|e| e.span.as_ref().is_some_and(|s| s.line == 4))
    );
    assert!(!steps[3].record.trace.is_empty());
    assert_eq!(
        steps[4].record.value.as_deref(),
        Some("device(type='cuda', index=1)")
    );
    // Done: the next Step starts the cell again.
    assert_eq!(lines(&[step(&mut runtime, "<cell 1>", source)]), [Some(1)]);
}

#[test]
fn step_goes_into_loop_bodies_and_called_functions() {
    let mut runtime = Runtime::new();
    let source = "import torch\ndef move(t):\n    y = t.to('cuda')\n    return y\ntotal = 0\nfor i in range(2):\n    total += i\nx = move(torch.ones(2))\nprint(total, x.device)\n";
    let mut steps = Vec::new();
    while steps.len() < 20 {
        let s = step(&mut runtime, "<cell 1>", source);
        let done = s.done;
        steps.push(s);
        if done {
            break;
        }
    }
    assert_eq!(
        lines(&steps),
        [1, 2, 5, 6, 7, 7, 8, 3, 4, 9].map(Some).to_vec()
    );
    // The copy to the GPU happened in the step that ran line 3, inside `move`.
    assert!(
        steps[7]
            .record
            .trace
            .iter()
            .any(|e| e.span.as_ref().is_some_and(|s| s.line == 3))
    );
    assert_eq!(steps[9].record.stdout, "1 cuda:0\n");
    assert!(steps[9].done && steps[9].next.is_none());
}

#[test]
fn a_stepped_cell_ended_by_stop_or_another_run_unwinds_its_with_blocks() {
    let mut runtime = Runtime::new();
    let source = "import torch\nwith torch.no_grad():\n    a = 1\n    b = 2\n";
    for _ in 0..3 {
        assert!(!step(&mut runtime, "<cell 1>", source).done);
    }
    assert_eq!(
        pollster::block_on(runtime.handle(Request::Stop)),
        Reply::Stopped
    );
    let Reply::Ran(record) = pollster::block_on(runtime.handle(Request::RunCell {
        cell: "<cell 2>".into(),
        source: "(a, torch.is_grad_enabled())".into(),
    })) else {
        panic!("a run record")
    };
    assert_eq!(record.value.as_deref(), Some("(1, True)"));
    // A run while a cell waits ends that cell the same way.
    for _ in 0..3 {
        step(&mut runtime, "<cell 1>", source);
    }
    let Reply::Ran(record) = pollster::block_on(runtime.handle(Request::RunCell {
        cell: "<cell 3>".into(),
        source: "torch.is_grad_enabled()".into(),
    })) else {
        panic!("a run record")
    };
    assert_eq!(record.value.as_deref(), Some("True"));
}

/// Runs `source` as one cell in `runtime`, with every progress report kept.
fn run_collecting_progress(
    runtime: &mut Runtime,
    source: &str,
) -> (tolab_cells::RunRecord, Vec<tolab_cells::Progress>) {
    let reports = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    runtime.on_progress(std::rc::Rc::new({
        let reports = reports.clone();
        move |progress| reports.borrow_mut().push(progress)
    }));
    let Reply::Ran(record) = pollster::block_on(runtime.handle(Request::RunCell {
        cell: "<cell 1>".into(),
        source: source.into(),
    })) else {
        panic!("a run record")
    };
    let reports = reports.take();
    (record, reports)
}

#[test]
fn a_running_cell_streams_its_output_and_events_before_its_record_completes() {
    let mut runtime = Runtime::new();
    let source = "import time, torch\nfor i in range(4):\n    print(i)\n    x = torch.ones(2).to('cuda')\n    time.sleep(0.06)\nprint('done')\n";
    let (record, reports) = run_collecting_progress(&mut runtime, source);
    assert_eq!(record.error, None);
    // Each sleep crosses a reporting interval, so output arrives while the loop still runs.
    assert!(reports.len() >= 3, "{reports:?}");
    assert_eq!(reports[0].stdout, "0\n");
    // Each report hands its part over, in order and without repeats; the record holds the rest,
    // so the runtime keeps no more than one report's worth of a long cell's output.
    let streamed: String = reports.iter().map(|p| p.stdout.as_str()).collect();
    assert!(streamed.starts_with("0\n1\n2\n"), "{streamed:?}");
    assert_eq!(streamed + &record.stdout, "0\n1\n2\n3\ndone\n");
    let events: Vec<_> = reports.iter().flat_map(|p| p.trace.clone()).collect();
    assert!(!events.is_empty());
    let all: Vec<_> = events.iter().chain(&record.trace).collect();
    assert!(all.windows(2).all(|w| w[0].seq < w[1].seq), "in order");
    assert!(
        events
            .iter()
            .all(|e| e.span.as_ref().is_some_and(|s| s.line == 4))
    );
    // `time.sleep` waits for real.
    assert!(record.timings.wall_ms >= 240.0, "{:?}", record.timings);
}

#[test]
fn a_stop_heard_while_a_cell_sleeps_ends_it_with_keyboard_interrupt() {
    let mut runtime = Runtime::new();
    let stop = runtime.stop_handle();
    // The first progress report stands in for the UI pressing Stop while the cell waits.
    let streamed = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
    runtime.on_progress(std::rc::Rc::new({
        let streamed = streamed.clone();
        move |progress: tolab_cells::Progress| {
            streamed.borrow_mut().push_str(&progress.stdout);
            stop.stop()
        }
    }));
    let Reply::Ran(record) = pollster::block_on(runtime.handle(Request::RunCell {
        cell: "<cell 1>".into(),
        source: "import time\nprint('waiting')\ntime.sleep(20)\nprint('never')\n".into(),
    })) else {
        panic!("a run record")
    };
    assert_eq!(streamed.take() + &record.stdout, "waiting\n");
    let error = record.error.unwrap_or_default();
    assert!(
        error.contains("line 3") && error.ends_with("KeyboardInterrupt"),
        "{error}"
    );
    assert!(record.timings.wall_ms < 5_000.0, "{:?}", record.timings);
}

#[test]
fn events_name_the_cell_whose_line_caused_them_even_across_cells() {
    let mut runtime = Runtime::new();
    let run = |runtime: &mut Runtime, cell: &str, source: &str| {
        let Reply::Ran(record) = pollster::block_on(runtime.handle(Request::RunCell {
            cell: cell.into(),
            source: source.into(),
        })) else {
            panic!("a run record")
        };
        record
    };
    run(
        &mut runtime,
        "setup",
        "import torch\n\ndef move(t):\n    return t.to('cuda')\n",
    );
    let record = run(&mut runtime, "use", "x = torch.ones(2)\ny = move(x)\n");
    let spans: Vec<_> = record
        .trace
        .iter()
        .filter_map(|e| e.span.as_ref().map(|s| (&*s.cell, s.line)))
        .collect();
    assert!(spans.contains(&("use", 1)), "{spans:?}");
    // The copy happens on line 4 of the cell that defined `move`.
    assert!(spans.contains(&("setup", 4)), "{spans:?}");
    assert!(!spans.contains(&("use", 4)));
}

#[test]
fn configuring_the_machine_starts_afresh_with_the_gpus_and_visible_devices_asked_for() {
    let mut runtime = Runtime::new();
    let Reply::Devices(before) = pollster::block_on(runtime.handle(Request::DescribeDevices))
    else {
        panic!("a device report")
    };
    let names = |report: &tolab_cells::DeviceReport| -> Vec<String> {
        report.devices.iter().map(|d| d.device.clone()).collect()
    };
    assert_eq!(names(&before), ["cpu", "cuda:0", "cuda:1", "mps"]);
    assert_eq!(before.settings, DeviceSettings::default());

    let run = |source: &str| Request::RunCell {
        cell: "<cell>".into(),
        source: source.into(),
    };
    pollster::block_on(runtime.handle(run("import torch\nx = 1")));
    let settings = DeviceSettings {
        gpu_count: 4,
        cuda_visible_devices: Some("3,1".into()),
    };
    let Reply::Devices(after) = pollster::block_on(runtime.handle(Request::Configure {
        settings: settings.clone(),
    })) else {
        panic!("a device report")
    };
    assert_eq!(names(&after), ["cpu", "cuda:0", "cuda:1", "mps"]);
    let physical: Vec<Option<usize>> = after.devices.iter().map(|d| d.physical).collect();
    assert_eq!(physical, [None, Some(3), Some(1), None]);
    assert_eq!(after.settings, settings);
    // The notebook started afresh, on the new machine.
    let Reply::Ran(record) = pollster::block_on(runtime.handle(run(
        "import torch, os\nprint(torch.cuda.device_count(), os.environ['CUDA_VISIBLE_DEVICES'])\nx",
    ))) else {
        panic!("a run record")
    };
    assert_eq!(record.stdout, "2 3,1\n");
    assert!(
        record
            .error
            .unwrap()
            .ends_with("NameError: name 'x' is not defined")
    );

    let too_many = DeviceSettings {
        gpu_count: 100,
        cuda_visible_devices: None,
    };
    let Reply::Devices(capped) =
        pollster::block_on(runtime.handle(Request::Configure { settings: too_many }))
    else {
        panic!("a device report")
    };
    assert_eq!(capped.settings.gpu_count, DeviceSettings::MAX_GPUS);
    assert_eq!(capped.devices.len(), DeviceSettings::MAX_GPUS + 2);
}

#[test]
fn an_exercise_check_runs_the_code_then_each_check_and_says_why_one_failed() {
    let mut runtime = Runtime::new();
    let checks = vec![
        tolab_cells::CheckSpec {
            message: "x is on cuda:0".into(),
            code: "assert x.device == torch.device('cuda:0'), f'x is on {x.device}'".into(),
        },
        tolab_cells::CheckSpec {
            message: "x holds ones".into(),
            code: "assert x.tolist() == [1.0, 1.0]".into(),
        },
    ];
    let setup = vec![tolab_cells::CellSource {
        cell: "<cell 1>".into(),
        source: "import torch".into(),
    }];
    let check = |runtime: &mut Runtime, source: &str| {
        let request = Request::CheckExercise {
            cell: "<exercise e>".into(),
            source: source.into(),
            checks: checks.clone(),
            setup: setup.clone(),
            budget: tolab_cells::Budget::default(),
        };
        match pollster::block_on(runtime.handle(request)) {
            Reply::Checked(report) => report,
            other => panic!("not a check report: {other:?}"),
        }
    };
    let starter = check(&mut runtime, "x = torch.ones(2)\nx.to('cuda')");
    assert_eq!(
        starter.setup,
        [tolab_cells::SetupRun {
            cell: "<cell 1>".into(),
            error: None
        }]
    );
    let outcomes: Vec<(&str, bool, Option<&str>)> = starter
        .checks
        .iter()
        .map(|c| (c.message.as_str(), c.passed, c.reason.as_deref()))
        .collect();
    assert_eq!(
        outcomes,
        [
            (tolab_cells::RUNS_WITHOUT_ERROR, true, None),
            ("x is on cuda:0", false, Some("AssertionError: x is on cpu")),
            ("x holds ones", true, None),
        ]
    );
    assert!(!starter.passed());
    assert!(
        starter.record.value.is_some(),
        "the code's own run is reported"
    );

    let broken = check(&mut runtime, "x = undefined_name");
    assert!(!broken.checks[0].passed);
    assert_eq!(
        broken.checks[0].reason.as_deref(),
        Some("NameError: name 'undefined_name' is not defined")
    );
    assert!(check(&mut runtime, "x = torch.ones(2).to('cuda')").passed());
}

fn run(runtime: &mut Runtime, cell: &str, source: &str) -> tolab_cells::RunRecord {
    match pollster::block_on(runtime.handle(Request::RunCell {
        cell: cell.into(),
        source: source.into(),
    })) {
        Reply::Ran(record) => record,
        other => panic!("not a run record: {other:?}"),
    }
}

#[test]
fn an_exercise_is_checked_in_a_fresh_notebook_that_runs_the_lesson_cells_first() {
    let mut runtime = Runtime::new();
    // The learner has run nothing: a fresh page. The check still finds `torch` and `x`.
    let setup = vec![
        tolab_cells::CellSource {
            cell: "<cell 1>".into(),
            source: "import torch\nx = torch.ones(2)".into(),
        },
        tolab_cells::CellSource {
            cell: "<cell 2>".into(),
            source: "x + torch.ones(2, device='cuda')".into(),
        },
    ];
    let request = Request::CheckExercise {
        cell: "<exercise e>".into(),
        source: "y = x.to('cuda')".into(),
        checks: vec![tolab_cells::CheckSpec {
            message: "y is on cuda:0".into(),
            code: "assert y.device == torch.device('cuda:0')".into(),
        }],
        setup,
        budget: tolab_cells::Budget::default(),
    };
    let Reply::Checked(report) = pollster::block_on(runtime.handle(request)) else {
        panic!("a check report")
    };
    assert!(report.passed(), "{report:?}");
    // A cell that raises (as the lesson shows) does not stop the ones after it.
    assert_eq!(report.setup[0].error, None);
    assert!(
        report.setup[1]
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("RuntimeError: Expected all tensors")),
        "{:?}",
        report.setup
    );
    // The learner's own notebook was not touched: `y` exists only in the check's.
    let after = run(&mut runtime, "<cell 3>", "y");
    assert!(
        after
            .error
            .as_deref()
            .is_some_and(|e| e.ends_with("NameError: name 'y' is not defined")),
        "{after:?}"
    );
}

#[test]
fn an_exercise_that_loops_for_ever_ends_at_its_budget_with_a_verdict() {
    let mut runtime = Runtime::new();
    let request = Request::CheckExercise {
        cell: "<exercise e>".into(),
        source: "while True:\n    pass".into(),
        checks: Vec::new(),
        setup: Vec::new(),
        budget: tolab_cells::Budget {
            steps: 10_000,
            seconds: 60,
        },
    };
    let Reply::Checked(report) = pollster::block_on(runtime.handle(request)) else {
        panic!("a check report")
    };
    assert!(!report.passed());
    assert_eq!(
        report.checks[0].reason.as_deref(),
        Some(
            "RuntimeError: the cell ran out of its step budget (10000 statements and loop items: an infinite loop?)"
        )
    );
}

#[test]
fn interactive_cells_have_no_step_budget() {
    let mut runtime = Runtime::new();
    // Past the check budget's 5 million steps: a notebook runs it to the end, as Jupyter does.
    let record = run(
        &mut runtime,
        "<cell 1>",
        "total = 0\nfor i in range(6_000_000):\n    total += i\ntotal",
    );
    assert_eq!(record.error, None);
    assert_eq!(record.value.as_deref(), Some("17999997000000"));
}

#[test]
fn a_name_error_is_traced_to_the_cell_above_that_binds_the_name() {
    let mut runtime = Runtime::new();
    let cells = |sources: &[&str]| {
        sources
            .iter()
            .enumerate()
            .map(|(i, s)| tolab_cells::CellSource {
                cell: format!("<cell {}>", i + 1),
                source: (*s).into(),
            })
            .collect::<Vec<_>>()
    };
    let find = |runtime: &mut Runtime, name: &str, sources: &[&str]| match pollster::block_on(
        runtime.handle(Request::FindDefinition {
            name: name.into(),
            cells: cells(sources),
        }),
    ) {
        Reply::Definition { cell } => cell,
        other => panic!("not a definition: {other:?}"),
    };
    let above = [
        "import torch",
        "x = torch.ones(2)",
        "print(x)",
        "x = x.to('cuda')",
    ];
    assert_eq!(find(&mut runtime, "x", &above).as_deref(), Some("<cell 4>"));
    assert_eq!(
        find(&mut runtime, "torch", &above).as_deref(),
        Some("<cell 1>")
    );
    assert_eq!(find(&mut runtime, "model", &above), None);
}

#[test]
fn a_long_loop_keeps_a_bounded_trace_and_counts_the_events_past_it() {
    let mut runtime = Runtime::new();
    let record = run(
        &mut runtime,
        "<cell 1>",
        "import torch\nfor i in range(15_000):\n    x = torch.ones(1) + 1",
    );
    assert_eq!(record.error, None);
    assert_eq!(record.trace.len(), 20_000);
    assert!(record.trace_dropped > 10_000, "{}", record.trace_dropped);
    // The next run starts a new count.
    let next = run(&mut runtime, "<cell 2>", "y = torch.ones(1)");
    assert_eq!(next.trace_dropped, 0);
    assert!(!next.trace.is_empty());
}

#[test]
fn completion_offers_names_attributes_and_keyword_arguments_from_the_live_namespace() {
    let mut runtime = Runtime::new();
    run(
        &mut runtime,
        "<cell 1>",
        "import torch\nx = torch.ones(2)\ndef train(model, epochs=3, *, lr=0.1):\n    pass",
    );
    let complete = |runtime: &mut Runtime, before: &str| match pollster::block_on(runtime.handle(
        Request::Complete {
            before: before.into(),
        },
    )) {
        Reply::Completions(c) => c,
        other => panic!("not completions: {other:?}"),
    };
    let labels = |c: &tolab_cells::Completions| -> Vec<String> {
        c.items.iter().map(|i| i.label.clone()).collect()
    };
    let after_dot = complete(&mut runtime, "y = x.");
    assert!(
        labels(&after_dot).contains(&"to".to_owned()),
        "{after_dot:?}"
    );
    assert!(labels(&after_dot).contains(&"device".to_owned()));
    assert_eq!(after_dot.replace, 0);
    let typed = complete(&mut runtime, "x.cud");
    assert_eq!(labels(&typed), ["cuda"]);
    assert_eq!(typed.replace, 3);
    assert!(labels(&complete(&mut runtime, "torch.ze")).contains(&"zeros".to_owned()));
    assert!(labels(&complete(&mut runtime, "torch.nn.Lin")).contains(&"Linear".to_owned()));
    let call = complete(&mut runtime, "train(net, ");
    assert_eq!(
        call.signature.as_deref(),
        Some("train(model, epochs=…, *, lr=…)")
    );
    assert!(labels(&call).starts_with(&[
        "model=".to_owned(),
        "epochs=".to_owned(),
        "lr=".to_owned()
    ]));
    let names = labels(&complete(&mut runtime, "pri"));
    assert!(names.contains(&"print".to_owned()));
    assert!(
        complete(&mut runtime, "s = 'x.").items.is_empty(),
        "not inside a string"
    );
}
