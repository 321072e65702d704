//! Matrix products on the CPU: float32/float64 through the `gemm` crate (blocked, SIMD kernels,
//! single-threaded so the browser and the native build behave alike), other lanes by a plain
//! loop (integer matmul is rare and exact either way).

use super::elementwise::Lanes;

/// `batch` products of row-major `n×k` and `k×m` matrices, stacked: a `batch×n×m` result.
pub fn bmm(a: &Lanes, b: &Lanes, batch: usize, n: usize, k: usize, m: usize) -> Lanes {
    match (a, b) {
        (Lanes::F32(x), Lanes::F32(y)) => Lanes::F32(gemm_batches(x, y, batch, n, k, m)),
        (Lanes::F64(x), Lanes::F64(y)) => Lanes::F64(gemm_batches(x, y, batch, n, k, m)),
        (Lanes::I64(x), Lanes::I64(y)) => {
            Lanes::I64(loop_batches(x, y, batch, n, k, m, 0, |acc, p, q| {
                acc.wrapping_add(p.wrapping_mul(q))
            }))
        }
        (Lanes::Bool(x), Lanes::Bool(y)) => {
            Lanes::Bool(loop_batches(x, y, batch, n, k, m, false, |acc, p, q| {
                acc || (p && q)
            }))
        }
        // Callers give both operands one lane kind.
        _ => a.clone(),
    }
}

fn gemm_batches<T: Copy + Default + num_like::One + 'static>(
    a: &[T],
    b: &[T],
    batch: usize,
    n: usize,
    k: usize,
    m: usize,
) -> Vec<T> {
    let mut out = vec![T::default(); batch * n * m];
    if n == 0 || m == 0 || a.len() < batch * n * k || b.len() < batch * k * m {
        return out;
    }
    for i in 0..batch {
        let (lhs, rhs) = (
            &a[i * n * k..(i + 1) * n * k],
            &b[i * k * m..(i + 1) * k * m],
        );
        let dst = &mut out[i * n * m..(i + 1) * n * m];
        // `gemm` is fastest on column-major operands, and a row-major matrix read column-major is
        // its transpose: so it computes dstᵀ (m×n) = rhsᵀ (m×k) · lhsᵀ (k×n), all column-major.
        // SAFETY: `dst`, `lhs` and `rhs` are row-major n×m, n×k and k×m slices of exactly that
        // many elements (checked above), and the strides below stay inside them.
        unsafe {
            gemm::gemm(
                m,
                n,
                k,
                dst.as_mut_ptr(),
                m as isize,
                1,
                false,
                rhs.as_ptr(),
                m as isize,
                1,
                lhs.as_ptr(),
                k as isize,
                1,
                T::default(),
                T::one(),
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn loop_batches<T: Copy>(
    a: &[T],
    b: &[T],
    batch: usize,
    n: usize,
    k: usize,
    m: usize,
    zero: T,
    fma: impl Fn(T, T, T) -> T,
) -> Vec<T> {
    let mut out = vec![zero; batch * n * m];
    for i in 0..batch {
        for r in 0..n {
            for p in 0..k {
                let x = a[(i * n + r) * k + p];
                for c in 0..m {
                    let o = (i * n + r) * m + c;
                    out[o] = fma(out[o], x, b[(i * k + p) * m + c]);
                }
            }
        }
    }
    out
}

/// The multiplicative identity `gemm` scales the product by.
mod num_like {
    pub trait One {
        fn one() -> Self;
    }

    impl One for f32 {
        fn one() -> Self {
            1.0
        }
    }

    impl One for f64 {
        fn one() -> Self {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemm_and_the_plain_loop_agree_on_a_batch() {
        let a: Vec<f64> = (0..2 * 3 * 4).map(|v| f64::from(v) - 7.0).collect();
        let b: Vec<f64> = (0..2 * 4 * 5).map(|v| f64::from(v) * 0.5).collect();
        let Lanes::F64(fast) = bmm(&Lanes::F64(a.clone()), &Lanes::F64(b.clone()), 2, 3, 4, 5)
        else {
            panic!()
        };
        let slow = loop_batches(&a, &b, 2, 3, 4, 5, 0.0, |acc, p, q| acc + p * q);
        assert_eq!(fast, slow);
    }
}
