//! `matmul` over every rank pairing against PyTorch 2.15 (float64): values, the node recorded,
//! the gradients of `out.sum()`, and the shape errors (`tests/golden/matmul.json`). Values agree to
//! rounding: `gemm` and PyTorch's BLAS may add in different orders.

use serde_json::Value;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

fn tensor(session: &Session, values: &Value, shape: &Value) -> Tensor {
    let values: Vec<Scalar> = values
        .as_array()
        .unwrap()
        .iter()
        .map(|v| Scalar::Float(v.as_f64().unwrap()))
        .collect();
    let shape: Vec<usize> = shape
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    Tensor::from_scalars(
        session,
        &values,
        &shape,
        Some(DType::Float64),
        Device::CPU,
        true,
    )
    .unwrap()
}

fn close(got: &Tensor, expected: &Value) -> bool {
    let got: Vec<f64> = got
        .scalars()
        .unwrap()
        .into_iter()
        .map(Scalar::as_f64)
        .collect();
    let expected: Vec<f64> = expected
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    got.len() == expected.len()
        && got
            .iter()
            .zip(&expected)
            .all(|(g, e)| (g - e).abs() <= 1e-12 * (1.0 + e.abs()))
}

#[test]
fn matmul_matches_pytorch_for_every_rank_pairing() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/matmul.json")).unwrap();
    assert_eq!(cases.len(), 17);
    for case in &cases {
        let session = Session::default();
        let a = tensor(&session, &case["a"], &case["a_shape"]);
        let b = tensor(&session, &case["b"], &case["b_shape"]);
        let label = format!("{} @ {}", case["a_shape"], case["b_shape"]);
        match (a.matmul(&b), case.get("error")) {
            (Err(e), Some(message)) => {
                assert_eq!(e.to_string(), message.as_str().unwrap(), "{label}")
            }
            (Ok(out), None) => {
                let shape: Vec<usize> = case["out_shape"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_u64().unwrap() as usize)
                    .collect();
                assert_eq!(out.shape(), shape.as_slice(), "{label}");
                assert!(close(&out, &case["out"]), "{label}: values");
                assert_eq!(out.grad_fn().unwrap().name(), case["grad_fn"], "{label}");
                out.sum(&[], false).unwrap().backward(None, false).unwrap();
                assert!(
                    close(&a.grad().unwrap(), &case["grad_a"]),
                    "{label}: grad of a"
                );
                assert!(
                    close(&b.grad().unwrap(), &case["grad_b"]),
                    "{label}: grad of b"
                );
            }
            (got, expected) => panic!("{label}: expected {expected:?}, got {got:?}"),
        }
    }
}

#[test]
fn mm_names_the_argument_on_another_device() {
    let session = Session::default();
    let a = Tensor::full(
        &session,
        &[2, 2],
        Scalar::Float(1.0),
        DType::Float32,
        Device::cuda(0),
    )
    .unwrap();
    let b = Tensor::full(
        &session,
        &[2, 2],
        Scalar::Float(1.0),
        DType::Float32,
        Device::CPU,
    )
    .unwrap();
    assert_eq!(
        a.mm(&b).unwrap_err().to_string(),
        // PyTorch 2.15's wording (aten/src/ATen/core/adaption.cpp, common_device_check_failure).
        "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)"
    );
    let half = b.to_dtype(DType::Float64).unwrap();
    assert_eq!(
        b.mm(&half).unwrap_err().to_string(),
        "expected m1 and m2 to have the same dtype, but got: float != double"
    );
}
