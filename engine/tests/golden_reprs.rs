//! `repr(tensor)` against PyTorch 2.15 for 110 tensors: float modes (fixed, int-valued,
//! scientific), nan/inf, -0., every dtype, 0-dim, empty, wrapped and summarised (2,000 and
//! 40×40 elements) tensors, `requires_grad`, and `meta` (`tests/golden/reprs.json`).

use serde_json::Value;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

fn scalar(v: &Value, dtype: DType) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::String(s) => Scalar::Float(s.parse().unwrap()),
        Value::Number(n) if dtype.is_floating_point() => Scalar::Float(n.as_f64().unwrap()),
        Value::Number(n) => Scalar::Int(n.as_i64().unwrap()),
        other => panic!("unexpected value {other}"),
    }
}

#[test]
fn every_repr_matches_pytorch_word_for_word() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/reprs.json")).unwrap();
    assert_eq!(cases.len(), 110);
    let session = Session::default();
    let mut failures = Vec::new();
    for case in &cases {
        let dtype = DType::from_name(case["dtype"].as_str().unwrap()).unwrap();
        let shape: Vec<usize> = case["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap() as usize)
            .collect();
        let device =
            Device::parse(case.get("device").and_then(Value::as_str).unwrap_or("cpu")).unwrap();
        let requires_grad = case
            .get("requires_grad")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let tensor = if device == Device::META {
            Tensor::full(&session, &shape, Scalar::Int(0), dtype, device).unwrap()
        } else {
            let values: Vec<Scalar> = case["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| scalar(v, dtype))
                .collect();
            Tensor::from_scalars(
                &session,
                &values,
                &shape,
                Some(dtype),
                device,
                requires_grad,
            )
            .unwrap()
        };
        let got = tensor.repr().unwrap();
        if got != case["repr"].as_str().unwrap() {
            failures.push(format!(
                "{} ({}):\nexpected:\n{}\ngot:\n{got}",
                case["name"],
                case["dtype"],
                case["repr"].as_str().unwrap()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} reprs differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
