//! Unary math against PyTorch 2.15: values, printed reprs, node names and gradients
//! (`tests/golden/unary.json`). Transcendental results may differ from PyTorch's vectorised
//! kernels in the last bit, so values compare to 2 ulps while reprs compare exactly.

use serde_json::Value;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn close(got: &[f64], expected: &[f64], dtype: DType) -> bool {
    let eps = if dtype == DType::Float32 {
        f64::from(f32::EPSILON)
    } else {
        f64::EPSILON
    };
    got.len() == expected.len()
        && got
            .iter()
            .zip(expected)
            .all(|(g, e)| (g - e).abs() <= 2.0 * eps * e.abs().max(1e-30))
}

#[test]
fn unary_ops_match_pytorch_with_their_gradients() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/unary.json")).unwrap();
    assert_eq!(cases.len(), 16);
    for case in &cases {
        let session = Session::default();
        let dtype = DType::from_name(case["dtype"].as_str().unwrap()).unwrap();
        let values: Vec<Scalar> = floats(&case["x"]).into_iter().map(Scalar::Float).collect();
        let x = Tensor::from_scalars(
            &session,
            &values,
            &[values.len()],
            Some(dtype),
            Device::CPU,
            true,
        )
        .unwrap();
        let out = match case["op"].as_str().unwrap() {
            "exp" => x.exp(),
            "log" => x.log(),
            "sqrt" => x.sqrt(),
            "abs" => x.abs(),
            "relu" => x.relu(),
            "sigmoid" => x.sigmoid(),
            "tanh" => x.tanh(),
            "clamp" => x.clamp(Some(Scalar::Float(-0.5)), Some(Scalar::Float(1.0))),
            other => panic!("{other}"),
        }
        .unwrap();
        let label = format!("{} {}", case["op"], case["dtype"]);
        assert_eq!(
            out.repr().unwrap(),
            case["repr"].as_str().unwrap(),
            "{label}"
        );
        assert_eq!(out.grad_fn().unwrap().name(), case["grad_fn"], "{label}");
        let got: Vec<f64> = out
            .scalars()
            .unwrap()
            .into_iter()
            .map(Scalar::as_f64)
            .collect();
        assert!(
            close(&got, &floats(&case["out"]), dtype),
            "{label}: {got:?} vs {}",
            case["out"]
        );
        out.sum(&[], false).unwrap().backward(None, false).unwrap();
        let grad: Vec<f64> = x
            .grad()
            .unwrap()
            .scalars()
            .unwrap()
            .into_iter()
            .map(Scalar::as_f64)
            .collect();
        assert!(
            close(&grad, &floats(&case["grad"]), dtype),
            "{label}: grad {grad:?} vs {}",
            case["grad"]
        );
    }
}
