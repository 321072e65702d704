//! Reductions over some dimensions (`sum`, `mean`, `amax`, `amin`, `prod`), on lanes.
//!
//! Floating sums add in PyTorch's order ([`cascade`]); products accumulate in f64.

use super::cascade;
use super::elementwise::Lanes;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    Sum,
    Prod,
    Max,
    Min,
}

/// Reduces `x` (row-major over `shape`) over `dims`; the result is row-major over the remaining
/// dimensions (reduced ones kept as size 1).
pub fn reduce(op: Reduction, x: &Lanes, shape: &[usize], dims: &[usize]) -> Lanes {
    let out_shape: Vec<usize> = shape
        .iter()
        .enumerate()
        .map(|(d, &s)| if dims.contains(&d) { 1 } else { s })
        .collect();
    let out_len: usize = out_shape.iter().product();
    let out_strides = crate::layout::contiguous_strides(&out_shape);
    // Where each input element lands: its coordinates with the reduced ones zeroed.
    let targets: Vec<usize> = {
        let mut position = vec![0usize; shape.len()];
        let n: usize = shape.iter().product();
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(
                position
                    .iter()
                    .zip(&out_strides)
                    .enumerate()
                    .map(|(d, (&p, &s))| if dims.contains(&d) { 0 } else { p * s })
                    .sum(),
            );
            for d in (0..shape.len()).rev() {
                position[d] += 1;
                if position[d] < shape[d] {
                    break;
                }
                position[d] = 0;
            }
        }
        out
    };
    macro_rules! fold {
        ($v:expr, $acc:ty, $init:expr, $f:expr, $wrap:expr) => {{
            let mut acc: Vec<$acc> = vec![$init; out_len];
            for (&value, &t) in $v.iter().zip(&targets) {
                acc[t] = $f(acc[t], value);
            }
            $wrap(acc)
        }};
    }
    match (x, op) {
        // 32-byte vectors: 8 float32 lanes, 4 float64 ones.
        (Lanes::F32(v), Reduction::Sum) => Lanes::F32(cascade::sum::<f32, 8>(v, shape, dims)),
        (Lanes::F32(v), Reduction::Prod) => fold!(
            v,
            f64,
            1.0,
            |a: f64, x: f32| a * f64::from(x),
            |a: Vec<f64>| Lanes::F32(a.into_iter().map(|s| s as f32).collect())
        ),
        (Lanes::F32(v), Reduction::Max) => fold!(
            v,
            f32,
            f32::NEG_INFINITY,
            |a: f32, x: f32| if x.is_nan() || x > a { x } else { a },
            Lanes::F32
        ),
        (Lanes::F32(v), Reduction::Min) => fold!(
            v,
            f32,
            f32::INFINITY,
            |a: f32, x: f32| if x.is_nan() || x < a { x } else { a },
            Lanes::F32
        ),
        (Lanes::F64(v), Reduction::Sum) => Lanes::F64(cascade::sum::<f64, 4>(v, shape, dims)),
        (Lanes::F64(v), Reduction::Prod) => fold!(v, f64, 1.0, |a: f64, x: f64| a * x, Lanes::F64),
        (Lanes::F64(v), Reduction::Max) => fold!(
            v,
            f64,
            f64::NEG_INFINITY,
            |a: f64, x: f64| if x.is_nan() || x > a { x } else { a },
            Lanes::F64
        ),
        (Lanes::F64(v), Reduction::Min) => fold!(
            v,
            f64,
            f64::INFINITY,
            |a: f64, x: f64| if x.is_nan() || x < a { x } else { a },
            Lanes::F64
        ),
        (Lanes::I64(v), Reduction::Sum) => {
            fold!(v, i64, 0, |a: i64, x: i64| a.wrapping_add(x), Lanes::I64)
        }
        (Lanes::I64(v), Reduction::Prod) => {
            fold!(v, i64, 1, |a: i64, x: i64| a.wrapping_mul(x), Lanes::I64)
        }
        (Lanes::I64(v), Reduction::Max) => {
            fold!(v, i64, i64::MIN, |a: i64, x: i64| a.max(x), Lanes::I64)
        }
        (Lanes::I64(v), Reduction::Min) => {
            fold!(v, i64, i64::MAX, |a: i64, x: i64| a.min(x), Lanes::I64)
        }
        (Lanes::Bool(v), Reduction::Sum) => {
            fold!(v, i64, 0, |a: i64, x: bool| a + i64::from(x), Lanes::I64)
        }
        (Lanes::Bool(v), Reduction::Prod | Reduction::Min) => {
            fold!(v, bool, true, |a: bool, x: bool| a && x, Lanes::Bool)
        }
        (Lanes::Bool(v), Reduction::Max) => {
            fold!(v, bool, false, |a: bool, x: bool| a || x, Lanes::Bool)
        }
    }
}

/// The position of the largest (or smallest) element along `dim` for every other position, first
/// occurrence on ties, NaN counting as the extreme (as PyTorch's `max(dim)` / `argmax`).
pub fn arg_extreme(x: &Lanes, shape: &[usize], dim: usize, largest: bool) -> Vec<i64> {
    let values: Vec<f64> = match x {
        Lanes::F32(v) => v.iter().map(|&a| f64::from(a)).collect(),
        Lanes::F64(v) => v.clone(),
        Lanes::I64(v) => v.iter().map(|&a| a as f64).collect(),
        Lanes::Bool(v) => v.iter().map(|&a| f64::from(u8::from(a))).collect(),
    };
    let size = shape[dim];
    let inner: usize = shape[dim + 1..].iter().product();
    let outer: usize = shape[..dim].iter().product();
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| values[(o * size + k) * inner + i];
            let mut best = 0;
            for k in 1..size {
                let (candidate, current) = (at(k), at(best));
                if current.is_nan() {
                    break;
                }
                let better = if largest {
                    candidate > current
                } else {
                    candidate < current
                };
                if candidate.is_nan() || better {
                    best = k;
                }
            }
            out.push(best as i64);
        }
    }
    out
}
