//! `nn.DataParallel` on the logical GPUs, from torch/nn/parallel/data_parallel.py: the batch is
//! split across the GPUs and the outputs gathered on the first; results and gradients equal a
//! single-device run; the module must live on `device_ids[0]`; scalar outputs become a vector;
//! and the `module.` prefix of its `state_dict` (checked against torch 2.15 on the CPU).

mod common;

use std::cell::RefCell;
use std::sync::LazyLock;

use common::{assert_pytorch_error, layer, linear, values};
use serde_json::Value as Json;
use tolab_engine::nn::functional::Reduction;
use tolab_engine::nn::{Layer, Module};
use tolab_engine::trace::EventKind;
use tolab_engine::{DType, Device, Session, SessionConfig, Tensor, To};

static GOLDEN: LazyLock<Json> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../tests/golden/layers.json"))
        .expect("layers.json parses")
});

fn batch(session: &Session, rows: usize) -> Tensor {
    let values: Vec<f64> = (0..rows * 3).map(|i| (i as f64 * 0.37).sin()).collect();
    common::tensor(session, &values, &[rows, 3], DType::Float32)
}

fn gradients(model: &Module) -> Vec<Vec<f64>> {
    model
        .parameters()
        .iter()
        .map(|p| values(&p.tensor().grad().unwrap()))
        .collect()
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-6)
}

#[test]
fn a_batch_split_across_both_gpus_gives_the_single_gpu_results_and_gradients() {
    let session = Session::default();
    session.manual_seed(3);
    let model = Module::sequential(&[
        linear(&session, 3, 4, true),
        layer(&session, Layer::ReLU).unwrap(),
        linear(&session, 4, 2, true),
    ]);
    model.to(&To::device("cuda:0")).unwrap();
    let x = batch(&session, 5);

    let single = model
        .forward(&[x.to(To::device("cuda:0")).unwrap()])
        .unwrap();
    single
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    let expected_grads = gradients(&model);
    model.zero_grad(true).unwrap();

    let parallel = Module::data_parallel(&session, &model, None, None, 0).unwrap();
    session.set_tracing(true);
    let out = parallel.forward(std::slice::from_ref(&x)).unwrap();
    let trace = session.take_trace();
    assert_eq!(out.device(), Device::cuda(0));
    assert_eq!(out.shape(), [5, 2]);
    assert_eq!(out.grad_fn().unwrap().name(), "GatherBackward");
    assert!(close(&values(&out), &values(&single)));
    let kernels_on = |device| {
        trace
            .iter()
            .any(|e| e.device == Some(device) && matches!(e.kind, EventKind::Kernel { .. }))
    };
    assert!(
        kernels_on(Device::cuda(0)) && kernels_on(Device::cuda(1)),
        "a replica ran on each GPU"
    );
    assert_eq!(
        session.current_device().unwrap(),
        0,
        "the current device is restored"
    );

    out.sum(&[], false).unwrap().backward(None, false).unwrap();
    for (got, want) in gradients(&model).iter().zip(&expected_grads) {
        assert!(close(got, want), "{got:?} vs {want:?}");
    }
    assert!(
        model
            .parameters()
            .iter()
            .all(|p| p.tensor().grad().unwrap().device() == Device::cuda(0))
    );
}

#[test]
fn the_module_must_live_on_the_first_device() {
    let session = Session::default();
    let model = linear(&session, 3, 2, true);
    let parallel = Module::data_parallel(&session, &model, None, None, 0).unwrap();
    let error = parallel.forward(&[batch(&session, 4)]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "module must have its parameters and buffers on device cuda:0 (device_ids[0]) but found one of them on device: cpu"
    );
    // The fix: move it there first.
    model.cuda(Some(0)).unwrap();
    assert!(parallel.forward(&[batch(&session, 4)]).is_ok());
}

#[test]
fn scalar_outputs_are_gathered_into_a_vector_with_pytorchs_warning() {
    let session = Session::default();
    let loss = layer(
        &session,
        Layer::MSELoss {
            reduction: Reduction::Mean,
        },
    )
    .unwrap();
    let parallel = Module::data_parallel(&session, &loss, None, None, 0).unwrap();
    let out = parallel
        .forward(&[
            batch(&session, 4),
            batch(&session, 4)
                .mul(tolab_engine::Scalar::Int(2))
                .unwrap(),
        ])
        .unwrap();
    assert_eq!(out.shape(), [2], "one loss per GPU");
    assert_eq!(
        session.take_warnings(),
        [
            "Was asked to gather along dimension 0, but all input tensors were scalars; will instead unsqueeze and return a vector."
        ]
    );
}

#[test]
fn a_learners_module_runs_as_replicas_that_know_their_original() {
    let session = Session::default();
    let net = Module::custom("Net");
    net.add_module("fc", Some(linear(&session, 3, 2, true)));
    net.cuda(Some(0)).unwrap();
    let parallel = Module::data_parallel(&session, &net, None, None, 0).unwrap();
    let seen = RefCell::new(Vec::new());
    let out = parallel
        .forward_with(&[batch(&session, 4)], &mut |replica, inputs| {
            assert!(replica.original().is_some_and(|o| o.is(&net)));
            seen.borrow_mut()
                .push((session.current_device().unwrap(), inputs[0].device()));
            replica.child("fc").unwrap().forward(inputs)
        })
        .unwrap();
    assert_eq!(out.shape(), [4, 2]);
    assert_eq!(*seen.borrow(), [(0, Device::cuda(0)), (1, Device::cuda(1))]);
}

#[test]
fn without_gpus_it_runs_the_module_and_its_checkpoint_keys_carry_the_module_prefix() {
    let laptop = Session::new(SessionConfig {
        gpu_count: 0,
        ..SessionConfig::default()
    });
    let model = linear(&laptop, 3, 2, true);
    let parallel = Module::data_parallel(&laptop, &model, None, None, 0).unwrap();
    let out = parallel.forward(&[batch(&laptop, 4)]).unwrap();
    assert_eq!(out.device(), Device::CPU);
    let golden = &GOLDEN["data_parallel"];
    assert_eq!(parallel.repr(), golden["repr"].as_str().unwrap());
    let state = parallel.state_dict();
    let keys: Vec<&str> = state.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(Json::from(keys), golden["state_keys"]);
    let plain = linear(&laptop, 3, 2, true);
    let error = plain.load_state_dict(&state, true).unwrap_err();
    assert_pytorch_error(&error, &golden["load_into_plain"], "load_into_plain");
}
