//! Mixed precision against PyTorch 2.15 (`tests/golden/amp.json`): the dtype each op returns inside
//! a CPU autocast region, the graph of a linear layer under autocast, GradScaler's scale and skipped
//! steps over a short training run, and their errors and warnings. CUDA autocast follows PyTorch's
//! documented op lists (`docs/source/amp.rst`), checked on the logical GPU.

mod common;
#[cfg(not(target_arch = "wasm32"))]
mod gpu_support;

use std::sync::LazyLock;

use common::{assert_pytorch_error, json_floats, linear, tensor, values};
use serde_json::Value as Json;
use tolab_engine::amp::{Autocast, GradScaler};
use tolab_engine::nn::functional::{self, Reduction};
use tolab_engine::optim::{Algorithm, Hyper, Optimizer};
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

static GOLDEN: LazyLock<Json> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../tests/golden/amp.json")).expect("amp.json parses")
});

/// The dtype every op in the golden file returns under autocast on `device`.
fn dtypes_under_autocast(session: &Session, device: Device, fast: DType) -> Vec<(String, String)> {
    let on = |t: Tensor| t.to(tolab_engine::To::device(device.to_string())).unwrap();
    let a = on(Tensor::randn_like(
        &Tensor::zeros(session, &[4, 4], DType::Float32, Device::CPU).unwrap(),
    )
    .unwrap());
    let b = on(Tensor::randn_like(&a.cpu().unwrap()).unwrap());
    let h = a.to_dtype(fast).unwrap();
    let targets = on(Tensor::arange(
        session,
        Scalar::Int(0),
        Scalar::Int(4),
        Scalar::Int(1),
        None,
        Device::CPU,
    )
    .unwrap());
    let row = |t: &Tensor| t.select(0, 0).unwrap();
    let region = Autocast::enter(session, device.kind.name(), Some(fast), true).unwrap();
    let results: Vec<(&str, Tensor)> = vec![
        ("mm", a.mm(&b).unwrap()),
        ("matmul", a.matmul(&b).unwrap()),
        ("addmm", row(&a).addmm(&a, &b).unwrap()),
        (
            "bmm",
            a.unsqueeze(0)
                .unwrap()
                .bmm(&b.unsqueeze(0).unwrap())
                .unwrap(),
        ),
        ("mv", a.mv(&row(&b)).unwrap()),
        (
            "linear",
            functional::linear(&a, &b, Some(&row(&b))).unwrap(),
        ),
        (
            "mm_float64",
            a.to_dtype(DType::Float64)
                .unwrap()
                .mm(&b.to_dtype(DType::Float64).unwrap())
                .unwrap(),
        ),
        ("sum", h.sum(&[], false).unwrap()),
        ("prod", h.prod().unwrap()),
        ("softmax", h.softmax(0).unwrap()),
        ("exp", h.exp().unwrap()),
        ("add_mixed", h.add(&a).unwrap()),
        ("relu", h.relu().unwrap()),
        (
            "mse_loss",
            functional::mse_loss(&h, &h, Reduction::Mean).unwrap(),
        ),
        (
            "cross_entropy",
            functional::cross_entropy(&h, &targets, Reduction::Mean, -100).unwrap(),
        ),
        (
            "nll_loss",
            functional::nll_loss(&h, &targets, Reduction::Mean, -100).unwrap(),
        ),
        (
            "bce_with_logits",
            functional::binary_cross_entropy_with_logits(&h, &h, Reduction::Mean).unwrap(),
        ),
    ];
    region.exit();
    results
        .into_iter()
        .map(|(name, t)| (name.to_owned(), t.dtype().to_string()))
        .collect()
}

#[test]
fn cpu_autocast_casts_the_ops_pytorch_casts() {
    let session = Session::default();
    for fast in [DType::BFloat16, DType::Float16] {
        let expected = &GOLDEN["dtypes"][fast.name()];
        for (op, dtype) in dtypes_under_autocast(&session, Device::CPU, fast) {
            assert_eq!(dtype, expected[&op].as_str().unwrap(), "{fast:?} {op}");
        }
    }
    assert_eq!(
        session.autocast_dtype(tolab_engine::DeviceType::Cpu),
        None,
        "the region ended"
    );
}

#[test]
fn cuda_autocast_follows_the_documented_gpu_lists() {
    let session = Session::default();
    let results = dtypes_under_autocast(&session, Device::cuda(0), DType::Float16);
    let expected = |op: &str| -> &str {
        match op {
            "mm" | "matmul" | "addmm" | "bmm" | "mv" | "linear" | "relu" => "torch.float16",
            "mm_float64" => "torch.float64",
            _ => "torch.float32",
        }
    };
    for (op, dtype) in results {
        assert_eq!(dtype, expected(&op), "{op}");
    }
    // A region on one device type leaves tensors elsewhere alone.
    let region = Autocast::enter(&session, "cuda", None, true).unwrap();
    let cpu = Tensor::ones(&session, &[2, 2], DType::Float32, Device::CPU).unwrap();
    assert_eq!(cpu.mm(&cpu).unwrap().dtype(), DType::Float32);
    region.exit();
}

#[test]
fn a_linear_layer_under_autocast_casts_its_inputs_in_the_graph() {
    let session = Session::default();
    let golden = &GOLDEN["linear_graph"];
    let lin = linear(&session, 4, 2, true);
    let x = tensor(&session, &[0.5; 12], &[3, 4], DType::Float32);
    x.set_requires_grad(true).unwrap();
    let region = Autocast::enter(&session, "cpu", None, true).unwrap();
    let z = lin.forward(std::slice::from_ref(&x)).unwrap();
    region.exit();
    let root = z.grad_fn().unwrap();
    assert_eq!(root.name(), golden["root"].as_str().unwrap());
    let inputs: Vec<Json> = root
        .next_functions()
        .iter()
        .map(|f| {
            let f = f.as_ref().unwrap();
            let next: Vec<Json> = f
                .next_functions()
                .iter()
                .map(|g| g.as_ref().map_or(Json::Null, |g| Json::from(g.name())))
                .collect();
            serde_json::json!([f.name(), next])
        })
        .collect();
    assert_eq!(Json::Array(inputs), golden["inputs"]);
    z.to_dtype(DType::Float32)
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    let grad = lin.parameter("weight").unwrap().tensor().grad().unwrap();
    assert_eq!(
        grad.dtype().to_string(),
        golden["weight_grad_dtype"].as_str().unwrap()
    );
}

#[test]
fn autocast_warnings_and_errors_are_pytorchs() {
    let session = Session::default();
    Autocast::enter(&session, "cpu", Some(DType::Float32), true)
        .unwrap()
        .exit();
    assert_eq!(
        Json::from(session.take_warnings()),
        GOLDEN["unsupported_dtype_warning"]
    );
    let error = Autocast::enter(&session, "gpu", None, true).unwrap_err();
    assert_eq!(
        error.to_string(),
        GOLDEN["bad_device"]["message"].as_str().unwrap()
    );

    let laptop = Session::new(tolab_engine::SessionConfig {
        gpu_count: 0,
        ..Default::default()
    });
    Autocast::enter(&laptop, "cuda", None, true).unwrap().exit();
    assert_eq!(
        laptop.take_warnings(),
        ["CUDA is not available or torch_xla is imported. Disabling autocast."]
    );
    let scaler = GradScaler::new(&laptop, "cuda", true, None, None).unwrap();
    assert!(!scaler.is_enabled());
    assert_eq!(
        laptop.take_warnings(),
        ["torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."]
    );
}

/// The golden GradScaler run: a 3→1 linear model, SGD, a scaler with growth every 2 clean steps,
/// and an overflowing loss at step 2. Returns each step's record as the golden file writes it.
fn scaler_run(session: Session, device: Device) -> Vec<Json> {
    let golden = &GOLDEN["scaler"];
    let model = linear(&session, 3, 1, true);
    let start = vec![
        (
            "weight".to_owned(),
            tensor(
                &session,
                &json_floats(&golden["start"]["weight"]),
                &[1, 3],
                DType::Float32,
            ),
        ),
        (
            "bias".to_owned(),
            tensor(
                &session,
                &json_floats(&golden["start"]["bias"]),
                &[1],
                DType::Float32,
            ),
        ),
    ];
    model.load_state_dict(&start, true).unwrap();
    model
        .to(&tolab_engine::To::device(device.to_string()))
        .unwrap();
    let data = tensor(
        &session,
        &json_floats(&golden["data"]),
        &[8, 3],
        DType::Float32,
    )
    .to(tolab_engine::To::device(device.to_string()))
    .unwrap();
    let optimizer = Optimizer::new(
        Algorithm::Sgd,
        vec![(model.parameters(), Vec::new())],
        &[("lr".to_owned(), Hyper::Float(0.1))],
    )
    .unwrap();
    let scaler =
        GradScaler::new(&session, device.kind.name(), true, Some(1024.0), Some(2)).unwrap();
    (0..6)
        .map(|i| {
            optimizer.zero_grad(true).unwrap();
            let out = model.forward(std::slice::from_ref(&data)).unwrap();
            let mut loss = out
                .pow_scalar(Scalar::Int(2))
                .unwrap()
                .mean(&[], false)
                .unwrap();
            if i == 2 {
                loss = loss.mul(Scalar::Float(f64::INFINITY)).unwrap();
            }
            let scaled = scaler.scale(&loss).unwrap();
            scaled.backward(None, false).unwrap();
            let stepped = scaler.step(&optimizer).unwrap();
            scaler.update().unwrap();
            serde_json::json!({
                "scaled_loss_is_finite": scaled.item().unwrap().as_f64().is_finite(),
                "stepped": stepped,
                "scale": scaler.get_scale().unwrap(),
                "weight": values(&model.parameter("weight").unwrap().tensor()),
            })
        })
        .collect()
}

#[test]
fn grad_scaler_skips_overflowing_steps_and_adapts_its_scale_as_pytorch_does() {
    let expected = GOLDEN["scaler"]["steps"].as_array().unwrap();
    // The GPU's unscale and overflow check run as kernels where the session has an adapter.
    #[allow(unused_mut)]
    let mut runs = vec![
        (Session::default(), Device::CPU),
        (Session::default(), Device::cuda(0)),
    ];
    #[cfg(not(target_arch = "wasm32"))]
    runs.push((gpu_support::gpu_session(), Device::cuda(0)));
    for (session, device) in runs {
        for (step, (got, want)) in scaler_run(session.clone(), device)
            .iter()
            .zip(expected)
            .enumerate()
        {
            for key in ["scaled_loss_is_finite", "stepped", "scale"] {
                assert_eq!(got[key], want[key], "{device} step {step} {key}");
            }
            let (g, w) = (json_floats(&got["weight"]), json_floats(&want["weight"]));
            assert!(
                g.iter()
                    .zip(&w)
                    .all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)),
                "{device} step {step}: {g:?} vs {w:?}"
            );
        }
        #[cfg(not(target_arch = "wasm32"))]
        if session.adapter().is_some() {
            gpu_support::assert_no_stand_ins(&session, &["tensor"]);
        }
    }
}

#[test]
fn grad_scaler_errors_are_pytorchs() {
    let golden = &GOLDEN["scaler_errors"];
    let session = Session::default();
    let model = linear(&session, 2, 1, true);
    let optimizer = Optimizer::new(
        Algorithm::Sgd,
        vec![(model.parameters(), Vec::new())],
        &[("lr".to_owned(), Hyper::Float(0.1))],
    )
    .unwrap();
    let scaler = GradScaler::new(&session, "cpu", true, None, None).unwrap();
    let ones = Tensor::ones(&session, &[1, 2], DType::Float32, Device::CPU).unwrap();
    let loss = model.forward(&[ones]).unwrap().sum(&[], false).unwrap();
    scaler.scale(&loss).unwrap().backward(None, false).unwrap();
    scaler.unscale_(&optimizer).unwrap();
    let check =
        |error: tolab_engine::Error, key: &str| assert_pytorch_error(&error, &golden[key], key);
    check(scaler.unscale_(&optimizer).unwrap_err(), "unscale_twice");
    scaler.step(&optimizer).unwrap();
    check(scaler.step(&optimizer).unwrap_err(), "step_twice");
    check(
        scaler.unscale_(&optimizer).unwrap_err(),
        "unscale_after_step",
    );
    scaler.update().unwrap();
    check(scaler.update().unwrap_err(), "update_without_checks");
}
