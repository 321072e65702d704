//! Helpers the engine's integration tests share.
#![allow(dead_code)]

use tolab_engine::nn::{Factory, Layer, Module};
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

/// The elements in row-major order, as f64.
pub fn values(t: &Tensor) -> Vec<f64> {
    t.scalars()
        .unwrap()
        .into_iter()
        .map(Scalar::as_f64)
        .collect()
}

/// A CPU tensor of `dtype` holding `values` in `shape`.
pub fn tensor(session: &Session, values: &[f64], shape: &[usize], dtype: DType) -> Tensor {
    let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(session, &scalars, shape, Some(dtype), Device::CPU, false).unwrap()
}

/// A JSON array of numbers.
pub fn json_floats(value: &serde_json::Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// `nn.Linear(inputs, outputs, bias=bias)` on the CPU.
pub fn linear(session: &Session, inputs: usize, outputs: usize, bias: bool) -> Module {
    let layer = Layer::Linear {
        in_features: inputs,
        out_features: outputs,
    };
    Module::build(
        session,
        layer,
        &Factory {
            bias,
            ..Factory::default()
        },
    )
    .unwrap()
}

/// A built-in layer with the default factory arguments.
pub fn layer(session: &Session, layer: Layer) -> Result<Module, tolab_engine::Error> {
    Module::build(session, layer, &Factory::default())
}

/// An error against a golden `{"error": type(e).__name__, "message": text}` record (the engine
/// names non-builtin exceptions as tracebacks print them, `_pickle.UnpicklingError`).
pub fn assert_pytorch_error(error: &tolab_engine::Error, expected: &serde_json::Value, case: &str) {
    assert_eq!(
        error.to_string(),
        expected["message"].as_str().unwrap(),
        "{case}"
    );
    let name = error.python_type().name();
    assert_eq!(
        name.rsplit('.').next().unwrap_or(name),
        expected["error"].as_str().unwrap(),
        "{case}"
    );
}

/// `(y * weights).sum().backward()` with golden float64 `weights` placed like `y`.
pub fn backward_weighted(y: &Tensor, weights: &serde_json::Value) {
    let weights = tensor(
        y.session(),
        &json_floats(weights),
        y.shape(),
        DType::Float64,
    )
    .to(tolab_engine::To::device(y.device().to_string()))
    .unwrap();
    y.mul(&weights)
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
}

/// A golden file's element: JSON numbers and bools, and the floats JSON has no numbers for as
/// strings (`"nan"`, `"inf"`).
pub fn golden_scalar(v: &serde_json::Value) -> Scalar {
    match v {
        serde_json::Value::Bool(b) => Scalar::Bool(*b),
        serde_json::Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap()),
        serde_json::Value::Number(n) => Scalar::Float(n.as_f64().unwrap()),
        serde_json::Value::String(s) => Scalar::Float(s.parse().unwrap()),
        other => panic!("{other}"),
    }
}

/// A golden file's list of elements, as f64.
pub fn golden_values(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| golden_scalar(x).as_f64())
        .collect()
}

/// Within `ulps` units in the last place of `dtype` (relative), NaN equal to NaN.
pub fn within_ulps(got: &[f64], expected: &[f64], dtype: DType, ulps: f64) -> bool {
    let eps = match dtype {
        DType::Float64 => f64::EPSILON,
        DType::Float16 => 2f64.powi(-10),
        DType::BFloat16 => 2f64.powi(-7),
        _ => f64::from(f32::EPSILON),
    };
    got.len() == expected.len()
        && got.iter().zip(expected).all(|(&g, &e)| {
            g == e
                || (g.is_nan() && e.is_nan())
                || (g - e).abs() <= ulps * eps * e.abs().max(1e-300)
        })
}

/// Compares an op's `result` with a golden case: PyTorch's error (`message`, and its exception
/// `type` when `check_type`), or its value (`ok`: dtype, values to `ulps`, repr). Differences go
/// to `failures`; the result comes back when it matched PyTorch's value well enough to go on
/// (its gradients), with the expected `ok` object.
pub fn golden_outcome<'a>(
    label: &str,
    result: Result<Tensor, tolab_engine::Error>,
    case: &'a serde_json::Value,
    ulps: f64,
    check_type: bool,
    failures: &mut Vec<String>,
) -> Option<(Tensor, &'a serde_json::Value)> {
    let Some(expected) = case.get("ok") else {
        match result {
            Err(e) => {
                let same_type = !check_type
                    || format!("{:?}", e.python_type()) == case["error"].as_str().unwrap();
                if e.to_string() != case["message"].as_str().unwrap() || !same_type {
                    failures.push(format!(
                        "{label}: raised {:?} {e}, PyTorch {} {}",
                        e.python_type(),
                        case["error"],
                        case["message"]
                    ));
                }
            }
            Ok(t) => failures.push(format!(
                "{label}: gave {}, PyTorch raised {}",
                t.repr().unwrap(),
                case["message"]
            )),
        }
        return None;
    };
    let out = match result {
        Ok(out) => out,
        Err(e) => {
            failures.push(format!(
                "{label}: raised {e}, PyTorch gave {}",
                expected["repr"]
            ));
            return None;
        }
    };
    if out.dtype().to_string() != expected["dtype"].as_str().unwrap() {
        failures.push(format!(
            "{label}: dtype {} vs {}",
            out.dtype(),
            expected["dtype"]
        ));
        return None;
    }
    let got = values(&out);
    if !within_ulps(&got, &golden_values(&expected["values"]), out.dtype(), ulps) {
        failures.push(format!("{label}: {got:?} vs {}", expected["values"]));
    }
    let repr = out.repr().unwrap();
    if repr != expected["repr"].as_str().unwrap() {
        failures.push(format!(
            "{label}: repr\n{repr}\nvs\n{}",
            expected["repr"].as_str().unwrap()
        ));
    }
    Some((out, expected))
}
