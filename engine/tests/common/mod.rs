//! Helpers the engine's integration tests share.
#![allow(dead_code)]

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
