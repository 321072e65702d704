//! The device checks of ops whose CUDA kernels compare their tensor arguments one by one, against
//! `tests/golden/device_checks.json`: the wrapper name and the checked arguments as torchgen (in the
//! PyTorch 2.15 wheel) generates them from `native_functions.yaml`. Each op gets one argument on
//! the other device, in turn; the message is PyTorch 2.15's (`aten/src/ATen/core/adaption.cpp`,
//! `common_device_check_failure`): "but got <argument> is on <device>, different from other
//! tensors on <common>". Ops without the check (`mse_loss`, `where`) fail with TensorIterator's
//! wording instead, `masked_fill_` with its kernel's own, and indexing moves CPU indices to the
//! tensor's device.

use serde_json::Value;
use tolab_engine::nn::functional::{self as f, Reduction};
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor, TensorIndex};

fn full(session: &Session, shape: &[usize], value: Scalar, dtype: DType, on: Device) -> Tensor {
    Tensor::full(session, shape, value, dtype, on).unwrap()
}

/// Runs `op` with its arguments on the devices given, in the table's order.
fn run(op: &str, session: &Session, on: &[Device]) -> Result<Tensor, Error> {
    let float =
        |shape: &[usize], i: usize| full(session, shape, Scalar::Float(1.0), DType::Float32, on[i]);
    let long =
        |shape: &[usize], i: usize| full(session, shape, Scalar::Int(0), DType::Int64, on[i]);
    match op {
        "mm" => float(&[2, 2], 0).mm(&float(&[2, 2], 1)),
        "addmm" => float(&[2], 0).addmm(&float(&[2, 2], 1), &float(&[2, 2], 2)),
        "bmm" => float(&[1, 2, 2], 0).bmm(&float(&[1, 2, 2], 1)),
        "mv" => float(&[2, 2], 0).mv(&float(&[2], 1)),
        "dot" => float(&[2], 0).dot(&float(&[2], 1)),
        "index_select" => float(&[3, 2], 0).index_select(0, &long(&[2], 1)),
        "gather" => float(&[3, 2], 0).gather(1, &long(&[3, 1], 1)),
        "nll_loss_forward" => {
            f::nll_loss(&float(&[2, 3], 0), &long(&[2], 1), Reduction::Mean, -100)
        }
        "nll_loss2d_forward" => f::nll_loss(
            &float(&[2, 3, 2, 2], 0),
            &long(&[2, 2, 2], 1),
            Reduction::Mean,
            -100,
        ),
        "cat" => Tensor::cat(&[&float(&[2], 0), &float(&[2], 1)], 0),
        "mse_loss" => f::mse_loss(&float(&[2], 0), &float(&[2], 1), Reduction::Mean),
        "where.self" => {
            let condition = full(session, &[2], Scalar::Bool(true), DType::Bool, on[0]);
            Tensor::where_(&condition, &float(&[2], 1), &float(&[2], 2))
        }
        "masked_fill_.Scalar" => {
            let mask = full(session, &[2], Scalar::Bool(true), DType::Bool, on[1]);
            float(&[2], 0).masked_fill(&mask, Scalar::Float(0.0))
        }
        "index.Tensor" => float(&[3], 0).index(&[TensorIndex::Tensor(long(&[2], 1))]),
        other => panic!("no case for {other}"),
    }
}

#[test]
fn each_checked_argument_on_another_device_is_named_with_its_kernel_wrapper() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/device_checks.json")).unwrap();
    let (gpu, cpu) = (Device::cuda(0), Device::CPU);
    for case in &cases {
        let op = case["op"].as_str().unwrap();
        let method = case["method"].as_str().unwrap();
        // The lab has no optional `weight` for these losses: the tensors it takes are checked.
        let arguments: Vec<&str> = case["arguments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .filter(|&a| a != "weight")
            .collect();
        let count = if op == "cat" { 2 } else { arguments.len() };
        for odd in 1..count {
            let session = Session::default();
            let mut on = vec![gpu; count];
            on[odd] = cpu;
            let result = run(op, &session, &on);
            let label = format!("{op} with argument {odd} on the CPU");
            match (case["checks"].as_bool().unwrap(), op) {
                (true, _) => {
                    let argument = if op == "cat" {
                        "tensors"
                    } else {
                        arguments[odd]
                    };
                    assert_eq!(
                        result.unwrap_err().to_string(),
                        format!(
                            "Expected all tensors to be on the same device, but got {argument} is on cpu, different from other tensors on cuda:0 (when checking argument in method {method})"
                        ),
                        "{label}"
                    );
                }
                // Advanced indexing copies CPU indices to the tensor's device.
                (false, "index.Tensor") => assert_eq!(result.unwrap().device(), gpu, "{label}"),
                // The kernel's own check (`masked_fill__cuda` in Indexing.cu).
                (false, "masked_fill_.Scalar") => assert_eq!(
                    result.unwrap_err().to_string(),
                    "expected self and mask to be on the same device, but got mask on cpu and self on cuda:0",
                    "{label}"
                ),
                (false, _) => assert_eq!(
                    result.unwrap_err().to_string(),
                    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
                    "{label}"
                ),
            }
        }
    }
}

#[test]
fn a_model_on_the_gpu_names_the_cpu_batch_as_mat1_of_addmm_and_indices_on_another_gpu_fail() {
    let session = Session::default();
    let weight = full(
        &session,
        &[2, 3],
        Scalar::Float(0.5),
        DType::Float32,
        Device::cuda(0),
    );
    let bias = full(
        &session,
        &[2],
        Scalar::Float(0.0),
        DType::Float32,
        Device::cuda(0),
    );
    let batch = full(
        &session,
        &[4, 3],
        Scalar::Float(1.0),
        DType::Float32,
        Device::CPU,
    );
    assert_eq!(
        f::linear(&batch, &weight, Some(&bias))
            .unwrap_err()
            .to_string(),
        "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)"
    );
    // Embedding is index_select of the weight's rows: the indices are its `index`.
    let table = full(
        &session,
        &[5, 2],
        Scalar::Float(1.0),
        DType::Float32,
        Device::cuda(0),
    );
    let tokens = full(&session, &[3], Scalar::Int(1), DType::Int64, Device::CPU);
    assert_eq!(
        f::embedding(&tokens, &table, None).unwrap_err().to_string(),
        "Expected all tensors to be on the same device, but got index is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)"
    );
    let other_gpu = full(
        &session,
        &[2],
        Scalar::Int(0),
        DType::Int64,
        Device::cuda(1),
    );
    let indexed = full(
        &session,
        &[3],
        Scalar::Float(1.0),
        DType::Float32,
        Device::cuda(0),
    );
    let error = indexed
        .index(&[TensorIndex::Tensor(other_gpu.clone())])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "indices should be either on cpu or on the same device as the indexed tensor (cuda:0)"
    );
}
