//! cat / stack / where / gather / index_select / masked_fill against PyTorch 2.15: values, nodes,
//! gradients of a weighted sum, and the errors for bad indices and shapes — CPU `gather` raises on
//! an out-of-range index rather than truncating (`tests/golden/indexing.json`).

use serde_json::Value;
use tolab_engine::backend::cpu::elementwise::Binary;
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor};

fn flat(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(items) => items.iter().flat_map(flat).collect(),
        other => vec![other.as_f64().unwrap()],
    }
}

fn floats(session: &Session, values: &[f64], shape: &[usize], requires_grad: bool) -> Tensor {
    let values: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(session, &values, shape, None, Device::CPU, requires_grad).unwrap()
}

fn ints(session: &Session, values: &[i64], shape: &[usize]) -> Tensor {
    let values: Vec<Scalar> = values.iter().map(|&v| Scalar::Int(v)).collect();
    Tensor::from_scalars(session, &values, shape, None, Device::CPU, false).unwrap()
}

#[test]
fn indexing_ops_match_pytorch() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/indexing.json")).unwrap();
    assert_eq!(cases.len(), 17);
    for case in &cases {
        let s = Session::default();
        let x = floats(&s, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], true);
        let y = floats(&s, &[7.0, 8.0, 9.0], &[1, 3], true);
        let name = case["name"].as_str().unwrap();
        let result: Result<Tensor, Error> = match name {
            "cat0" => Tensor::cat(&[&x, &y], 0),
            "cat1" => Tensor::cat(&[&x, &x], 1),
            "stack0" => x
                .mul(Scalar::Int(2))
                .and_then(|x2| Tensor::stack(&[&x, &x2], 0)),
            "stack2" => Tensor::stack(&[&x, &x], 2),
            "where" => x
                .compare(Binary::Gt, Scalar::Float(2.5))
                .and_then(|c| Tensor::where_(&c, &x, &y)),
            "gather1" => x.gather(1, &ints(&s, &[2, 0, 1, 1], &[2, 2])),
            "gather0" => x.gather(0, &ints(&s, &[1, 0, 1], &[1, 3])),
            "index_select0" => x.index_select(0, &ints(&s, &[1, 1, 0], &[3])),
            "index_select1" => x.index_select(1, &ints(&s, &[2], &[1])),
            "masked_fill" => x
                .compare(Binary::Gt, Scalar::Float(3.5))
                .and_then(|m| x.masked_fill(&m, Scalar::Float(-1.0))),
            "gather_oob" => x.gather(1, &ints(&s, &[0, 5, 1, 2], &[2, 2])),
            "index_select_oob" => x.index_select(0, &ints(&s, &[3], &[1])),
            "cat_sizes" => Tensor::cat(
                &[
                    &x,
                    &Tensor::ones(&s, &[2, 2], DType::Float32, Device::CPU).unwrap(),
                ],
                0,
            ),
            "cat_dims" => Tensor::cat(
                &[
                    &x,
                    &Tensor::ones(&s, &[3], DType::Float32, Device::CPU).unwrap(),
                ],
                0,
            ),
            "stack_sizes" => Tensor::stack(&[&x, &y], 0),
            "where_cond" => Tensor::where_(
                &Tensor::ones(&s, &[2, 3], DType::Float32, Device::CPU).unwrap(),
                &x,
                &y,
            ),
            "masked_fill_mask" => x.masked_fill(
                &Tensor::ones(&s, &[2, 3], DType::Int64, Device::CPU).unwrap(),
                Scalar::Float(0.0),
            ),
            other => panic!("{other}"),
        };
        match (result, case.get("error")) {
            (Err(e), Some(kind)) => {
                assert_eq!(e.to_string(), case["message"].as_str().unwrap(), "{name}");
                assert_eq!(e.python_type().name(), kind, "{name}");
            }
            (Ok(out), None) => {
                assert_eq!(
                    out.scalars()
                        .unwrap()
                        .into_iter()
                        .map(Scalar::as_f64)
                        .collect::<Vec<_>>(),
                    flat(&case["out"]),
                    "{name}"
                );
                assert_eq!(
                    out.grad_fn().map(|g| g.name()),
                    case["grad_fn"].as_str(),
                    "{name}"
                );
                let n = out.numel() as i64;
                let shape: Vec<i64> = out.shape().iter().map(|&d| d as i64).collect();
                let weights = Tensor::arange(
                    &s,
                    Scalar::Float(1.0),
                    Scalar::Int(n + 1),
                    Scalar::Int(1),
                    None,
                    Device::CPU,
                )
                .unwrap()
                .reshape(&shape)
                .unwrap();
                out.mul(&weights)
                    .unwrap()
                    .sum(&[], false)
                    .unwrap()
                    .backward(None, false)
                    .unwrap();
                for (leaf, key) in [(&x, "grad_x"), (&y, "grad_y")] {
                    match (&case[key], leaf.grad()) {
                        (Value::Null, None) => {}
                        (expected, Some(g)) => assert_eq!(
                            g.scalars()
                                .unwrap()
                                .into_iter()
                                .map(Scalar::as_f64)
                                .collect::<Vec<_>>(),
                            flat(expected),
                            "{name} {key}"
                        ),
                        (expected, None) => panic!("{name} {key}: expected {expected}, got none"),
                    }
                }
            }
            (got, _) => panic!("{name}: expected {case}, got {got:?}"),
        }
    }
}
