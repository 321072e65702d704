//! The CPU generator against PyTorch 2.15 value for value: `manual_seed` then `rand`, `randn`
//! (the scalar path under 16 elements, the batched Box–Muller path from 16, ragged ends),
//! `randint`, `randperm`, `uniform_` and `normal_` (contiguous, and in memory order on transposed and
//! sliced tensors), in every float dtype, with sequences that share the generator (`tests/golden/random.json`).

use serde_json::Value;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

fn run(session: &Session, op: &str, args: &[Value]) -> Tensor {
    let int = |i: usize| args[i].as_i64().unwrap();
    let float = |i: usize| args[i].as_f64().unwrap();
    let dtype = |i: usize| DType::from_name(args[i].as_str().unwrap()).unwrap();
    let cpu = Device::CPU;
    match op {
        "rand" => Tensor::rand(session, &[int(0) as usize], dtype(1), cpu),
        "randn" => Tensor::normal(session, &[int(0) as usize], dtype(1), cpu, 0.0, 1.0),
        "randint" => Tensor::randint(session, int(0), int(1), &[int(2) as usize], dtype(3), cpu),
        "randperm" => Tensor::randperm(session, int(0) as usize, DType::Int64, cpu),
        "uniform_" => Tensor::uniform(
            session,
            &[int(0) as usize],
            DType::Float32,
            cpu,
            float(1),
            float(2),
        ),
        "normal_" => Tensor::normal(
            session,
            &[int(0) as usize],
            dtype(3),
            cpu,
            float(1),
            float(2),
        ),
        "normal_t" => {
            let base = Tensor::empty(session, &[int(0), int(1)], dtype(4), cpu).unwrap();
            let t = base.t().unwrap();
            t.normal_(float(2), float(3)).unwrap();
            t.contiguous()
        }
        "uniform_step" => {
            let base = Tensor::empty(session, &[int(0), int(1)], DType::Float32, cpu).unwrap();
            let t = base.slice(1, None, None, 2).unwrap();
            t.uniform_(float(2), float(3)).unwrap();
            t.contiguous()
        }
        other => panic!("unknown op {other}"),
    }
    .unwrap()
}

fn same(got: &Scalar, expected: &Value) -> bool {
    match got {
        Scalar::Float(x) => expected.as_f64() == Some(*x),
        Scalar::Int(i) => expected.as_i64() == Some(*i),
        Scalar::Bool(b) => expected.as_bool() == Some(*b),
    }
}

#[test]
fn seeded_random_values_equal_pytorchs_exactly() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/random.json")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        let session = Session::default();
        session.manual_seed(case["seed"].as_u64().unwrap());
        for step in case["steps"].as_array().unwrap() {
            let op = step["op"].as_str().unwrap();
            let args = step["args"].as_array().unwrap();
            checked += 1;
            let got = run(&session, op, args).scalars().unwrap();
            let expected = step["values"].as_array().unwrap();
            let wrong = got
                .iter()
                .zip(expected)
                .filter(|(g, e)| !same(g, e))
                .count();
            if got.len() != expected.len() || wrong > 0 {
                let first = got.iter().zip(expected).find(|(g, e)| !same(g, e));
                failures.push(format!(
                    "seed {} {op}{args:?}: {wrong} of {} differ, first {first:?}",
                    case["seed"],
                    expected.len()
                ));
            }
        }
    }
    assert!(checked >= 169, "{checked} steps checked");
    assert!(
        failures.is_empty(),
        "{} sequences differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_default_seed_is_pytorchs() {
    assert_eq!(Session::default().initial_seed(), 67_280_421_310_721);
}

#[test]
fn in_place_uniform_draws_what_rand_draws() {
    let session = Session::default();
    session.manual_seed(0);
    let t = Tensor::zeros(&session, &[3], DType::Float32, Device::CPU).unwrap();
    t.uniform_(0.0, 1.0).unwrap();
    assert_eq!(t.repr().unwrap(), "tensor([0.4963, 0.7682, 0.0885])");
    assert_eq!(t.version(), 1);
}
