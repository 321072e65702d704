//! Floating sums in the order PyTorch's CPU kernel adds (`aten/src/ATen/native/cpu/SumKernel.cpp`,
//! `cascade_sum`, as PyTorch's x86 wheels run it: the AVX2 build, 32-byte vectors, which the
//! dispatcher picks on AVX-512 machines too), so that a float32 loss printed to every digit is
//! PyTorch's, not merely as close.
//!
//! PyTorch's reduction iterator puts the reduced dimensions first (innermost), then the kept ones,
//! each group by stride, merges neighbours it can, and runs a two-dimensional loop over the first
//! two; the rest are outer loops whose partial sums are added into the output in turn. The loop adds
//! with two building blocks:
//! - a *cascade* of 4 levels over a run of values: `2^p` values (p ≥ 4) go into level 0, which is
//!   then carried into level 1, and so on, so rounding errors grow with log n, not n;
//! - a *row sum*: 4 interleaved cascades (element `i` goes to the `i % 4`-th), added together at the
//!   end, to keep four adders busy.
//!
//! Contiguous runs are summed lane-wise in vectors of 32 bytes, and the lanes added at the end.
//! The order is the single-threaded one (PyTorch splits reductions of 32,768 elements and more
//! across threads).

/// The floats a sum runs in.
pub trait Float: Copy + std::ops::Add<Output = Self> + Default {}
impl Float for f32 {}
impl Float for f64 {}

const LEVELS: usize = 4;
const ILP: usize = 4;

/// `ceil(log2(n))` for `n >= 1`.
fn ceil_log2(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

/// A vector of `W` lanes, or a plain value (`W == 1`).
#[derive(Clone, Copy)]
struct Lanes<T, const W: usize>([T; W]);

impl<T: Float, const W: usize> Lanes<T, W> {
    fn zero() -> Self {
        Lanes([T::default(); W])
    }

    fn add(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = *a + *b;
        }
    }
}

/// PyTorch's `multi_row_sum`: `R` cascades side by side over `size` rows; `load(i, r)` is row
/// `i`'s value for cascade `r`.
fn multi_row_sum<T: Float, const W: usize, const R: usize>(
    size: usize,
    load: impl Fn(usize, usize) -> Lanes<T, W>,
) -> [Lanes<T, W>; R] {
    let level_power = (ceil_log2(size) as usize / LEVELS).max(4);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let mut acc = [[Lanes::<T, W>::zero(); R]; LEVELS];
    let mut i = 0;
    while i + level_step <= size {
        for _ in 0..level_step {
            for (r, a) in acc[0].iter_mut().enumerate() {
                a.add(&load(i, r));
            }
            i += 1;
        }
        for j in 1..LEVELS {
            let (lower, upper) = acc.split_at_mut(j);
            for (low, up) in lower[j - 1].iter_mut().zip(upper[0].iter_mut()) {
                up.add(low);
                *low = Lanes::zero();
            }
            let mask = level_mask << (j * level_power);
            if i & mask != 0 {
                break;
            }
        }
    }
    while i < size {
        for (r, a) in acc[0].iter_mut().enumerate() {
            a.add(&load(i, r));
        }
        i += 1;
    }
    let mut out = acc[0];
    for level in &acc[1..] {
        for (o, a) in out.iter_mut().zip(level) {
            o.add(a);
        }
    }
    out
}

/// PyTorch's `row_sum`: `size` values as 4 interleaved cascades, added together.
fn row_sum<T: Float, const W: usize>(
    size: usize,
    load: impl Fn(usize) -> Lanes<T, W>,
) -> Lanes<T, W> {
    let rows = size / ILP;
    let mut partial = multi_row_sum::<T, W, ILP>(rows, |i, r| load(i * ILP + r));
    for i in rows * ILP..size {
        partial[0].add(&load(i));
    }
    let [mut total, rest @ ..] = partial;
    for p in &rest {
        total.add(p);
    }
    total
}

/// The two-dimensional loop over `size0` reduced values (stride `in0`) for each of `size1`
/// (stride `in1`), adding each result into `out[j * out1]`.
#[allow(clippy::too_many_arguments)]
fn loop2d<T: Float, const W: usize>(
    x: &[T],
    base: usize,
    (size0, in0): (usize, usize),
    (size1, in1): (usize, usize),
    out: &mut [T],
    out_base: usize,
    out1: usize,
) {
    let at = |i: usize| x[base + i];
    let mut store = |j: usize, v: T| {
        let o = &mut out[out_base + j * out1];
        *o = *o + v;
    };
    let scalar = |i: usize| Lanes::<T, 1>([at(i)]);
    if in0 == 1 && size0 >= W {
        // A contiguous inner reduction: vectors along the run, then its tail, then the lanes.
        let vectors = size0 / W;
        for j in 0..size1 {
            let row = j * in1;
            let acc = row_sum::<T, W>(vectors, |v| {
                Lanes(std::array::from_fn(|l| at(row + v * W + l)))
            });
            let mut total = T::default();
            for k in vectors * W..size0 {
                total = total + at(row + k);
            }
            for lane in acc.0 {
                total = total + lane;
            }
            store(j, total);
        }
    } else if in1 == 1 && size1 >= W {
        // A contiguous outer reduction: 4 vectors of kept values at a time, then single vectors,
        // then single values.
        let mut j = 0;
        while j + ILP * W <= size1 {
            let sums = multi_row_sum::<T, W, ILP>(size0, |i, r| {
                Lanes(std::array::from_fn(|l| at(i * in0 + j + r * W + l)))
            });
            for (r, s) in sums.iter().enumerate() {
                for (l, &v) in s.0.iter().enumerate() {
                    store(j + r * W + l, v);
                }
            }
            j += ILP * W;
        }
        while j + W <= size1 {
            let s = row_sum::<T, W>(size0, |i| {
                Lanes(std::array::from_fn(|l| at(i * in0 + j + l)))
            });
            for (l, &v) in s.0.iter().enumerate() {
                store(j + l, v);
            }
            j += W;
        }
        for j in j..size1 {
            store(j, row_sum::<T, 1>(size0, |i| scalar(i * in0 + j)).0[0]);
        }
    } else if in0 < in1 {
        for j in 0..size1 {
            store(
                j,
                row_sum::<T, 1>(size0, |i| scalar(i * in0 + j * in1)).0[0],
            );
        }
    } else {
        let mut j = 0;
        while j + ILP <= size1 {
            let sums = multi_row_sum::<T, 1, ILP>(size0, |i, r| scalar(i * in0 + (j + r) * in1));
            for (r, s) in sums.iter().enumerate() {
                store(j + r, s.0[0]);
            }
            j += ILP;
        }
        for j in j..size1 {
            store(
                j,
                row_sum::<T, 1>(size0, |i| scalar(i * in0 + j * in1)).0[0],
            );
        }
    }
}

/// One dimension of the iteration: its size, and its strides in the input and the output (0 for a
/// reduced one).
#[derive(Clone, Copy, Debug)]
struct Dim {
    size: usize,
    input: usize,
    output: usize,
}

/// Sums row-major `x` of `shape` over `dims`, in PyTorch's order; the result is row-major over the
/// kept dimensions.
pub fn sum<T: Float, const W: usize>(x: &[T], shape: &[usize], dims: &[usize]) -> Vec<T> {
    let input = crate::layout::contiguous_strides(shape);
    let kept: Vec<usize> = (0..shape.len())
        .map(|d| if dims.contains(&d) { 1 } else { shape[d] })
        .collect();
    let output = crate::layout::contiguous_strides(&kept);
    let out_len: usize = kept.iter().product();
    let mut out = vec![T::default(); out_len];
    if x.is_empty() {
        return out;
    }
    // Reduced dimensions first, then kept ones, each innermost first; sizes of 1 drop out.
    let mut order: Vec<Dim> = (0..shape.len())
        .rev()
        .filter(|&d| shape[d] > 1)
        .map(|d| Dim {
            size: shape[d],
            input: input[d],
            output: if dims.contains(&d) { 0 } else { output[d] },
        })
        .collect();
    order.sort_by_key(|d| (d.output != 0, d.input));
    // Neighbours merge where stepping the outer one is stepping past the whole inner one.
    let mut merged: Vec<Dim> = Vec::new();
    for d in order {
        match merged.last_mut() {
            Some(last)
                if last.input * last.size == d.input && last.output * last.size == d.output =>
            {
                last.size *= d.size;
            }
            _ => merged.push(d),
        }
    }
    let dim = |k: usize| {
        merged.get(k).copied().unwrap_or(Dim {
            size: 1,
            input: 0,
            output: 0,
        })
    };
    let (d0, d1) = (dim(0), dim(1));
    let outer = &merged[merged.len().min(2)..];
    let blocks: usize = outer.iter().map(|d| d.size).product();
    for block in 0..blocks {
        // The block's position in the outer loops, the first changing fastest.
        let (mut rest, mut base, mut out_base) = (block, 0, 0);
        for d in outer {
            base += (rest % d.size) * d.input;
            out_base += (rest % d.size) * d.output;
            rest /= d.size;
        }
        if d0.output != 0 {
            // No reduced dimension inside the block: each value is added to its own output.
            for i in 0..d0.size {
                for j in 0..d1.size {
                    let o = &mut out[out_base + i * d0.output + j * d1.output];
                    *o = *o + x[base + i * d0.input + j * d1.input];
                }
            }
            continue;
        }
        loop2d::<T, W>(
            x,
            base,
            (d0.size, d0.input),
            (d1.size, d1.input),
            &mut out,
            out_base,
            d1.output,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers whose float32 sum depends on the order they are added in.
    fn values(n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| ((i * 7919 % 1000) as f32 - 500.0) / 37.0 + 1e4 * f32::from(i % 97 == 0))
            .collect()
    }

    #[test]
    fn every_reduction_keeps_the_exact_total_of_small_integers() {
        let x: Vec<f32> = (0..6000).map(|i| (i % 13) as f32).collect();
        let total: f32 = (0..6000).map(|i| (i % 13) as f32).sum();
        assert_eq!(sum::<f32, 8>(&x, &[6000], &[0]), vec![total]);
        let by_rows = sum::<f32, 8>(&x, &[60, 100], &[1]);
        let by_columns = sum::<f32, 8>(&x, &[60, 100], &[0]);
        assert_eq!(by_rows.len(), 60);
        assert_eq!(by_columns.len(), 100);
        assert_eq!(by_rows.iter().sum::<f32>(), total);
        assert_eq!(by_columns.iter().sum::<f32>(), total);
        let both = sum::<f32, 8>(&x, &[10, 6, 100], &[0, 2]);
        assert_eq!(both.iter().sum::<f32>(), total);
    }

    #[test]
    fn a_contiguous_sum_adds_in_vectors_and_cascades_not_one_by_one() {
        let x = values(2000);
        let sequential: f32 = x.iter().sum();
        let exact: f64 = x.iter().map(|&v| f64::from(v)).sum();
        let ours = sum::<f32, 8>(&x, &[2000], &[0])[0];
        assert_ne!(ours, sequential);
        assert!((f64::from(ours) - exact).abs() <= (f64::from(sequential) - exact).abs());
    }
}
