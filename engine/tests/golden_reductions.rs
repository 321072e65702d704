//! softmax / log_softmax / max / min / argmax / prod against PyTorch 2.15: values, shapes, nodes
//! and gradients (`tests/golden/reductions.json`).

use serde_json::Value;
use tolab_engine::{Device, Scalar, Session, Tensor};

fn flat(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(items) => items.iter().flat_map(flat).collect(),
        other => vec![other.as_f64().unwrap()],
    }
}

fn matrix(session: &Session, v: &Value, requires_grad: bool) -> Tensor {
    let values: Vec<Scalar> = flat(v).into_iter().map(Scalar::Float).collect();
    Tensor::from_scalars(session, &values, &[2, 3], None, Device::CPU, requires_grad).unwrap()
}

#[test]
fn reductions_match_pytorch_with_gradients() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/reductions.json")).unwrap();
    for case in &cases {
        let session = Session::default();
        let t = matrix(&session, &case["x"], true);
        let weights = matrix(
            &session,
            &serde_json::json!([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
            false,
        );
        let op = case["op"].as_str().unwrap();
        let out = match op {
            "softmax0" => t.softmax(0),
            "softmax1" => t.softmax(1),
            "log_softmax1" => t.log_softmax(1),
            "max" => t.max(),
            "min" => t.min(),
            "max_dim1" => t.max_dim(1, false).map(|(v, i)| {
                let indices: Vec<f64> = i
                    .scalars()
                    .unwrap()
                    .into_iter()
                    .map(Scalar::as_f64)
                    .collect();
                assert_eq!(indices, flat(&case["indices"]));
                v
            }),
            "min_dim0" => t.min_dim(0, false).map(|(v, _)| v),
            "max_dim1_keep" => t.max_dim(1, true).map(|(v, _)| v),
            "prod" => t.prod(),
            "argmax" => t.argmax(None, false),
            "argmax_dim1" => t.argmax(Some(1), false),
            other => panic!("{other}"),
        }
        .unwrap();
        let shape: Vec<usize> = case["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(out.shape(), shape.as_slice(), "{op}");
        let got: Vec<f64> = out
            .scalars()
            .unwrap()
            .into_iter()
            .map(Scalar::as_f64)
            .collect();
        let expected = flat(&case["out"]);
        assert!(
            got.iter().zip(&expected).all(|(g, e)| (g - e).abs() < 1e-6),
            "{op}: {got:?} vs {expected:?}"
        );
        assert_eq!(
            out.grad_fn().map(|g| g.name()),
            case["grad_fn"].as_str(),
            "{op}"
        );
        if let Some(grad) = case.get("grad") {
            let weighted = if out.dim() == 2 && out.shape()[1] == 3 {
                out.mul(&weights).unwrap()
            } else {
                out.clone()
            };
            weighted
                .sum(&[], false)
                .unwrap()
                .backward(None, false)
                .unwrap();
            let got: Vec<f64> = t
                .grad()
                .unwrap()
                .scalars()
                .unwrap()
                .into_iter()
                .map(Scalar::as_f64)
                .collect();
            let expected = flat(grad);
            assert!(
                got.iter().zip(&expected).all(|(g, e)| (g - e).abs() < 1e-5),
                "{op} grad: {got:?} vs {expected:?}"
            );
        }
    }
}

#[test]
fn reductions_refuse_what_pytorch_refuses() {
    let session = Session::default();
    let empty = Tensor::from_scalars(&session, &[], &[0], None, Device::CPU, false).unwrap();
    assert_eq!(
        empty.max().unwrap_err().to_string(),
        "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
    );
    let ints = Tensor::from_scalars(
        &session,
        &[Scalar::Int(1), Scalar::Int(2)],
        &[2],
        None,
        Device::CPU,
        false,
    )
    .unwrap();
    let error = ints.softmax(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"
    );
    assert_eq!(error.python_type().name(), "NotImplementedError");
}
