//! sort, topk, kthvalue, median, nanmedian and mode against PyTorch 2.15 on rows full of ties and
//! NaNs, 1 to 300 long (`tests/golden/order_statistics.json`): the indices, which show the order
//! PyTorch's CPU algorithms (libstdc++'s introsort, introselect and heap selection, and
//! Sedgewick's quickselect) leave equal values in.

mod common;

use common::golden_scalar;
use serde_json::Value;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

fn ints(t: &Tensor) -> Vec<i64> {
    t.scalars()
        .unwrap()
        .into_iter()
        .map(|s| match s {
            Scalar::Int(i) => i,
            other => panic!("{other:?}"),
        })
        .collect()
}

fn same_value(got: Scalar, want: &Value) -> bool {
    let (got, want) = (got.as_f64(), golden_scalar(want).as_f64());
    got == want || (got.is_nan() && want.is_nan())
}

/// `"topk k=3 largest=True sorted=False"` → its `key=value` settings.
fn setting<'a>(key: &'a str, name: &str) -> &'a str {
    key.split(' ')
        .find_map(|part| part.strip_prefix(name)?.strip_prefix('='))
        .unwrap()
}

#[test]
fn order_statistics_return_pytorchs_indices_for_ties_and_nans() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/order_statistics.json")).unwrap();
    let session = Session::default();
    let mut checked = 0;
    for case in &cases {
        let values: Vec<Scalar> = case["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(golden_scalar)
            .collect();
        let dtype = if case["kind"] == "ints" {
            DType::Int64
        } else {
            DType::Float32
        };
        let n = values.len();
        let t =
            Tensor::from_scalars(&session, &values, &[n], Some(dtype), Device::CPU, false).unwrap();
        let label = |op: &str| format!("{} n={n}: {op}", case["kind"]);
        for (op, want) in case["ops"].as_object().unwrap() {
            let flag = |name: &str| setting(op, name) == "True";
            match op.split(' ').next().unwrap() {
                "sort" => {
                    let (_, indices) = t
                        .sort(-1, flag("descending"), Some(flag("stable")))
                        .unwrap();
                    let want: Vec<i64> = serde_json::from_value(want.clone()).unwrap();
                    assert_eq!(ints(&indices), want, "{}", label(op));
                }
                "topk" => {
                    let k: i64 = setting(op, "k").parse().unwrap();
                    let (_, indices) = t.topk(k, -1, flag("largest"), flag("sorted")).unwrap();
                    let want: Vec<i64> = serde_json::from_value(want.clone()).unwrap();
                    assert_eq!(ints(&indices), want, "{}", label(op));
                }
                name => {
                    let (value, index) = match name {
                        "kthvalue" => t.kthvalue(setting(op, "k").parse().unwrap(), 0, false),
                        "median" => t.median_dim(0, false, false),
                        "nanmedian" => t.median_dim(0, false, true),
                        "mode" => t.mode(0, false),
                        other => panic!("{other}"),
                    }
                    .unwrap();
                    assert!(
                        same_value(value.item().unwrap(), &want[0]),
                        "{} value",
                        label(op)
                    );
                    assert_eq!(
                        ints(&index),
                        [want[1].as_i64().unwrap()],
                        "{} index",
                        label(op)
                    );
                }
            }
            checked += 1;
        }
    }
    // Every setting of the 38 rows: a golden file that lost cases fails here rather than passing.
    assert_eq!(checked, 946);
}
