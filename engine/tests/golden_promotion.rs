//! Type promotion against PyTorch 2.15's `torch.result_type` for every pair of the lab's dtypes:
//! tensor with tensor, with a 0-dim tensor, and with Python scalars (`tests/golden/promotion.json`).

use serde_json::Value;
use tolab_engine::DType;
use tolab_engine::dtype::{Operand, ScalarKind, result_type};

fn dtype(name: &str) -> DType {
    DType::from_name(name).unwrap_or_else(|| panic!("unknown dtype {name}"))
}

fn scalar(name: &str) -> ScalarKind {
    match name {
        "int" => ScalarKind::Int,
        "float" => ScalarKind::Float,
        "bool" => ScalarKind::Bool,
        other => panic!("unknown scalar kind {other}"),
    }
}

#[test]
fn result_types_match_pytorch_for_every_pair() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/promotion.json")).unwrap();
    assert_eq!(cases.len(), 176);
    for case in &cases {
        let (a, b) = (case["a"].as_str().unwrap(), case["b"].as_str().unwrap());
        let operands = match case["kind"].as_str().unwrap() {
            "tensor-tensor" => [
                Operand::Tensor {
                    dtype: dtype(a),
                    dim: 1,
                },
                Operand::Tensor {
                    dtype: dtype(b),
                    dim: 1,
                },
            ],
            "tensor-zerodim" => [
                Operand::Tensor {
                    dtype: dtype(a),
                    dim: 1,
                },
                Operand::Tensor {
                    dtype: dtype(b),
                    dim: 0,
                },
            ],
            "tensor-scalar" => [
                Operand::Tensor {
                    dtype: dtype(a),
                    dim: 1,
                },
                Operand::Scalar(scalar(b)),
            ],
            "zerodim-scalar" => [
                Operand::Tensor {
                    dtype: dtype(a),
                    dim: 0,
                },
                Operand::Scalar(scalar(b)),
            ],
            other => panic!("unknown case kind {other}"),
        };
        let got = result_type(&operands, DType::Float32).unwrap();
        assert_eq!(got.name(), case["result"], "{case}");
    }
}
