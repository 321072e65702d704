//! `torch.linalg`'s decompositions and solvers: LU (`det`, `slogdet`, `inv`, `solve`),
//! Cholesky, Householder QR, SVD (one-sided Jacobi) and the symmetric eigensolver (Jacobi), on
//! batches of matrices (the last two dims), with PyTorch's nodes and errors.
//!
//! They run on the host in float64 whatever the dtype, and the result is rounded to it; on a GPU
//! device that is a stand-in the trace labels (PyTorch calls cuSOLVER/MAGMA there). The signs of
//! singular and eigenvectors are the algorithms' own, which may differ from LAPACK's, as they may
//! between LAPACK builds.

use crate::autograd::{self, Backward, SavedTensor};
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{Error, LinalgError};
use crate::tensor::Tensor;

/// A batch of matrices read on the host, each row-major in float64.
struct Matrices {
    batch: Vec<usize>,
    rows: usize,
    cols: usize,
    data: Vec<Vec<f64>>,
}

impl Matrices {
    fn of(t: &Tensor, op: &'static str) -> Result<Matrices, Error> {
        if t.dim() < 2 {
            return Err(LinalgError::Rank { op, ndim: t.dim() }.into());
        }
        if !t.dtype().is_floating_point() {
            return Err(LinalgError::Dtype {
                op,
                dtype: t.dtype().scalar_type_name(),
            }
            .into());
        }
        let n = t.dim();
        let (rows, cols) = (t.shape()[n - 2], t.shape()[n - 1]);
        let values: Vec<f64> = t.scalars()?.into_iter().map(Scalar::as_f64).collect();
        let size = (rows * cols).max(1);
        let data = match rows * cols {
            0 => vec![Vec::new(); t.shape()[..n - 2].iter().product()],
            _ => values.chunks(size).map(<[f64]>::to_vec).collect(),
        };
        Ok(Matrices {
            batch: t.shape()[..n - 2].to_vec(),
            rows,
            cols,
            data,
        })
    }

    /// Square matrices, checked as PyTorch checks them: the rank, the shape, then the dtype.
    fn square_of(t: &Tensor, op: &'static str) -> Result<(Matrices, usize), Error> {
        if t.dim() < 2 {
            return Err(LinalgError::Rank { op, ndim: t.dim() }.into());
        }
        let (rows, cols) = (t.shape()[t.dim() - 2], t.shape()[t.dim() - 1]);
        if rows != cols {
            return Err(LinalgError::NotSquare { op, rows, cols }.into());
        }
        Ok((Matrices::of(t, op)?, rows))
    }
}

/// Host results back as a tensor like `like` (dtype, device), of `batch` + `shape`.
fn tensor_of(
    like: &Tensor,
    batch: &[usize],
    shape: &[usize],
    values: Vec<f64>,
    op: &str,
) -> Result<Tensor, Error> {
    let full: Vec<usize> = batch.iter().chain(shape).copied().collect();
    let scalars: Vec<Scalar> = values.into_iter().map(Scalar::Float).collect();
    Tensor::from_values(
        like.session(),
        &scalars,
        &full,
        like.dtype(),
        like.device(),
        op,
    )
}

/// Solves `L Lᵀ X = B` for one row-major `n × k` right-hand side, with the lower factor `L`
/// (read from the upper triangle's transpose when `upper`): forward, then back substitution.
fn substitute(factor: &[f64], rhs: &[f64], n: usize, k: usize, upper: bool) -> Vec<f64> {
    let low = |r: usize, c: usize| match upper {
        true => factor[c * n + r],
        false => factor[r * n + c],
    };
    let mut x = rhs.to_vec();
    for col in 0..k {
        for r in 0..n {
            let mut s = x[r * k + col];
            for c in 0..r {
                s -= low(r, c) * x[c * k + col];
            }
            x[r * k + col] = s / low(r, r);
        }
        for r in (0..n).rev() {
            let mut s = x[r * k + col];
            for c in r + 1..n {
                s -= low(c, r) * x[c * k + col];
            }
            x[r * k + col] = s / low(r, r);
        }
    }
    x
}

/// LU with partial pivoting of a square row-major matrix: the factors in place, the row order,
/// the permutation's sign, and the first zero pivot (1-based) if the matrix is singular.
fn lu(a: &[f64], n: usize) -> (Vec<f64>, Vec<usize>, f64, Option<usize>) {
    let mut m = a.to_vec();
    let mut perm: Vec<usize> = (0..n).collect();
    let mut sign = 1.0;
    let mut singular = None;
    for k in 0..n {
        let pivot = (k..n)
            .max_by(|&i, &j| m[i * n + k].abs().total_cmp(&m[j * n + k].abs()))
            .unwrap_or(k);
        if pivot != k {
            for c in 0..n {
                m.swap(k * n + c, pivot * n + c);
            }
            perm.swap(k, pivot);
            sign = -sign;
        }
        let p = m[k * n + k];
        if p == 0.0 {
            singular.get_or_insert(k + 1);
            continue;
        }
        for i in k + 1..n {
            let f = m[i * n + k] / p;
            m[i * n + k] = f;
            for c in k + 1..n {
                m[i * n + c] -= f * m[k * n + c];
            }
        }
    }
    (m, perm, sign, singular)
}

/// Solves `A X = B` from A's LU factors (`B` row-major, `k` columns).
fn lu_solve(factors: &[f64], perm: &[usize], n: usize, b: &[f64], k: usize) -> Vec<f64> {
    let mut x = vec![0.0; n * k];
    for (i, &p) in perm.iter().enumerate() {
        x[i * k..(i + 1) * k].copy_from_slice(&b[p * k..(p + 1) * k]);
    }
    for c in 0..k {
        for i in 0..n {
            let mut s = x[i * k + c];
            for j in 0..i {
                s -= factors[i * n + j] * x[j * k + c];
            }
            x[i * k + c] = s;
        }
        for i in (0..n).rev() {
            let mut s = x[i * k + c];
            for j in i + 1..n {
                s -= factors[i * n + j] * x[j * k + c];
            }
            x[i * k + c] = s / factors[i * n + i];
        }
    }
    x
}

fn identity(n: usize) -> Vec<f64> {
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        m[i * n + i] = 1.0;
    }
    m
}

fn transposed(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut t = vec![0.0; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            t[j * rows + i] = a[i * cols + j];
        }
    }
    t
}

/// One-sided Jacobi SVD of a `rows × cols` matrix: `(U, S, V)` with `U` `rows × k`, `S` of
/// `k = min(rows, cols)` values in descending order, `V` `cols × k`.
fn svd(a: &[f64], rows: usize, cols: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    if rows < cols {
        let (u, s, v) = svd(&transposed(a, rows, cols), cols, rows);
        return (v, s, u);
    }
    let (m, n) = (rows, cols);
    let mut w = a.to_vec();
    let mut v = identity(n);
    for _ in 0..60 {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (mut alpha, mut beta, mut gamma) = (0.0, 0.0, 0.0);
                for i in 0..m {
                    let (x, y) = (w[i * n + p], w[i * n + q]);
                    alpha += x * x;
                    beta += y * y;
                    gamma += x * y;
                }
                if gamma.abs() <= 1e-15 * (alpha * beta).sqrt() || gamma == 0.0 {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let t = if zeta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                rotate_columns(&mut w, m, n, (p, q), (c, s));
                rotate_columns(&mut v, n, n, (p, q), (c, s));
            }
        }
        if !rotated {
            break;
        }
    }
    let norms: Vec<f64> = (0..n)
        .map(|j| {
            (0..m)
                .map(|i| w[i * n + j] * w[i * n + j])
                .sum::<f64>()
                .sqrt()
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| norms[j].total_cmp(&norms[i]));
    let mut u = vec![0.0; m * n];
    let mut vs = vec![0.0; n * n];
    let mut s = vec![0.0; n];
    for (k, &j) in order.iter().enumerate() {
        s[k] = norms[j];
        for i in 0..m {
            u[i * n + k] = if norms[j] > 0.0 {
                w[i * n + j] / norms[j]
            } else {
                0.0
            };
        }
        for i in 0..n {
            vs[i * n + k] = v[i * n + j];
        }
    }
    (u, s, vs)
}

/// Jacobi eigensolver of a symmetric `n × n` matrix: eigenvalues ascending and the eigenvectors
/// as columns.
fn eigh(a: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut m = a.to_vec();
    let mut v = identity(n);
    for _ in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| m[i * n + j] * m[i * n + j])
            .sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = m[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (m[q * n + q] - m[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                rotate_columns(&mut m, n, n, (p, q), (c, s));
                for k in 0..n {
                    let (x, y) = (m[p * n + k], m[q * n + k]);
                    m[p * n + k] = c * x - s * y;
                    m[q * n + k] = s * x + c * y;
                }
                rotate_columns(&mut v, n, n, (p, q), (c, s));
            }
        }
    }
    let values: Vec<f64> = (0..n).map(|i| m[i * n + i]).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut vectors = vec![0.0; n * n];
    for (k, &j) in order.iter().enumerate() {
        for i in 0..n {
            vectors[i * n + k] = v[i * n + j];
        }
    }
    (order.iter().map(|&j| values[j]).collect(), vectors)
}

impl Tensor {
    /// `linalg.det` (`LinalgDetBackward0`: `grad · det · A⁻ᵀ`).
    pub fn det(&self) -> Result<Tensor, Error> {
        let (m, n) = Matrices::square_of(self, "linalg.det")?;
        let dets: Vec<f64> = m
            .data
            .iter()
            .map(|a| {
                let (f, _, sign, singular) = lu(a, n);
                match singular {
                    Some(_) => 0.0,
                    None => sign * (0..n).map(|i| f[i * n + i]).product::<f64>(),
                }
            })
            .collect();
        let out = tensor_of(self, &m.batch, &[], dets, "linalg_det")?;
        let (saved, value) = (SavedTensor::new(self), out.detach());
        let meta = autograd::record(&[self], || {
            Backward::saving("LinalgDetBackward0", move |grad| {
                let a = saved.unpack()?;
                let inverse_t = a.inv()?.matrix_transpose()?;
                let scale = grad.mul(&value)?.unsqueeze(-1)?.unsqueeze(-1)?;
                Ok(vec![Some(inverse_t.mul(&scale)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `linalg.slogdet`: the sign and the log of the absolute determinant
    /// (`LinalgSlogdetBackward0`).
    pub fn slogdet(&self) -> Result<(Tensor, Tensor), Error> {
        let (m, n) = Matrices::square_of(self, "linalg.slogdet")?;
        let (mut signs, mut logs) = (Vec::new(), Vec::new());
        for a in &m.data {
            let (f, _, sign, singular) = lu(a, n);
            if singular.is_some() {
                signs.push(0.0);
                logs.push(f64::NEG_INFINITY);
                continue;
            }
            let diagonal: Vec<f64> = (0..n).map(|i| f[i * n + i]).collect();
            signs.push(sign * diagonal.iter().map(|d| d.signum()).product::<f64>());
            logs.push(diagonal.iter().map(|d| d.abs().ln()).sum());
        }
        let sign = tensor_of(self, &m.batch, &[], signs, "linalg_slogdet")?;
        let log = tensor_of(self, &m.batch, &[], logs, "linalg_slogdet")?;
        let saved = SavedTensor::new(self);
        let meta = autograd::record(&[self], || {
            Backward::saving("LinalgSlogdetBackward0", move |grad| {
                let a = saved.unpack()?;
                let scale = grad.unsqueeze(-1)?.unsqueeze(-1)?;
                Ok(vec![Some(a.inv()?.matrix_transpose()?.mul(&scale)?)])
            })
        });
        let log = log.with_autograd(meta);
        Ok((
            autograd::renamed(&sign.detach(), "LinalgSlogdetBackward0"),
            log,
        ))
    }

    /// `logdet`: NaN for a negative determinant.
    pub fn logdet(&self) -> Result<Tensor, Error> {
        let (sign, log) = self.slogdet()?;
        let negative =
            sign.compare(crate::backend::cpu::elementwise::Binary::Lt, Scalar::Int(0))?;
        let nan = Tensor::full(
            self.session(),
            &[],
            Scalar::Float(f64::NAN),
            log.dtype(),
            crate::Device::CPU,
        )?;
        Tensor::where_(&negative, &nan, &log)
    }

    /// `linalg.inv` (`LinalgInvExBackward0`: `-A⁻ᵀ · grad · A⁻ᵀ`).
    pub fn inv(&self) -> Result<Tensor, Error> {
        let (m, n) = Matrices::square_of(self, "linalg.inv")?;
        let mut values = Vec::with_capacity(m.data.len() * n * n);
        for a in &m.data {
            let (f, perm, _, singular) = lu(a, n);
            if let Some(k) = singular {
                return Err(LinalgError::Singular {
                    op: "linalg.inv",
                    diagonal: k,
                }
                .into());
            }
            values.extend(lu_solve(&f, &perm, n, &identity(n), n));
        }
        let out = tensor_of(self, &m.batch, &[n, n], values, "linalg_inv")?;
        let value = SavedTensor::result(&out, "LinalgInvExBackward0");
        let meta = autograd::record(&[self], || {
            Backward::saving("LinalgInvExBackward0", move |grad| {
                let inverse_t = value.unpack()?.matrix_transpose()?;
                // In derivatives.yaml's order: -A⁻ᴴ (grad A⁻ᴴ).
                Ok(vec![Some(
                    inverse_t.matmul(&grad.matmul(&inverse_t)?)?.neg()?,
                )])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `linalg.solve(A, B)`: `X` with `A X = B` (`B` a vector or matrices;
    /// `LinalgSolveExBackward0`).
    pub fn solve(&self, b: &Tensor) -> Result<Tensor, Error> {
        let (a, n) = Matrices::square_of(self, "linalg.solve")?;
        let vector = b.dim() == 1
            || (b.dim() == self.dim() - 1 && b.shape() == &self.shape()[..self.dim() - 1]);
        let b_matrix = match vector {
            true => b.unsqueeze(-1)?,
            false => b.clone(),
        };
        let bm = Matrices::of(&b_matrix, "linalg.solve")?;
        if bm.rows != n {
            return Err(LinalgError::SolveShapes {
                a: self.shape().to_vec(),
                b: b_matrix.shape().to_vec(),
            }
            .into());
        }
        let k = bm.cols;
        let mut values = Vec::new();
        for (i, a) in a.data.iter().enumerate() {
            let (f, perm, _, singular) = lu(a, n);
            if singular.is_some() {
                return Err(LinalgError::SolveSingular.into());
            }
            values.extend(lu_solve(
                &f,
                &perm,
                n,
                &bm.data[i % bm.data.len().max(1)],
                k,
            ));
        }
        let out = tensor_of(self, &a.batch, &[n, k], values, "linalg_solve")?;
        let out = match vector {
            true => out.squeeze(Some(-1))?.detach(),
            false => out,
        };
        let (saved_a, x) = (SavedTensor::new(self), out.detach());
        let meta = autograd::record(&[self, b], || {
            Backward::saving("LinalgSolveExBackward0", move |grad| {
                let a = saved_a.unpack()?;
                let gb = a.matrix_transpose()?.solve(grad)?;
                let ga = match vector {
                    true => gb.unsqueeze(-1)?.matmul(&x.unsqueeze(-2)?)?.neg()?,
                    false => gb.matmul(&x.matrix_transpose()?)?.neg()?,
                };
                Ok(vec![Some(ga), Some(gb)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `linalg.cholesky`: the lower factor `L` with `A = L Lᵀ` (`LinalgCholeskyExBackward0`).
    pub fn cholesky(&self, upper: bool) -> Result<Tensor, Error> {
        let (m, n) = Matrices::square_of(self, "linalg.cholesky")?;
        let mut values = Vec::new();
        for a in &m.data {
            let mut l = vec![0.0; n * n];
            for j in 0..n {
                let mut d = a[j * n + j];
                for k in 0..j {
                    d -= l[j * n + k] * l[j * n + k];
                }
                if d <= 0.0 || d.is_nan() {
                    return Err(LinalgError::NotPositiveDefinite { order: j + 1 }.into());
                }
                let d = d.sqrt();
                l[j * n + j] = d;
                for i in j + 1..n {
                    let mut s = a[i * n + j];
                    for k in 0..j {
                        s -= l[i * n + k] * l[j * n + k];
                    }
                    l[i * n + j] = s / d;
                }
            }
            values.extend(if upper { transposed(&l, n, n) } else { l });
        }
        let out = tensor_of(self, &m.batch, &[n, n], values, "linalg_cholesky")?;
        let value = SavedTensor::result(&out, "LinalgCholeskyExBackward0");
        let meta = autograd::record(&[self], || {
            Backward::saving("LinalgCholeskyExBackward0", move |grad| {
                // PyTorch's cholesky_backward: A's gradient from L and L's, symmetrized.
                let l = value.unpack()?;
                let (l, grad) = match upper {
                    true => (l.matrix_transpose()?, grad.matrix_transpose()?),
                    false => (l.clone(), grad.clone()),
                };
                let phi = l.matrix_transpose()?.matmul(&grad)?;
                let diagonal = phi.diagonal(0, -2, -1)?.diag_embed(0, -2, -1)?;
                let phi = phi
                    .triangle(false, -1)?
                    .add(&diagonal.mul(Scalar::Float(0.5))?)?;
                let l_inv = l.inv()?;
                let ga = l_inv.matrix_transpose()?.matmul(&phi)?.matmul(&l_inv)?;
                let sym = ga.add(&ga.matrix_transpose()?)?.mul(Scalar::Float(0.5))?;
                Ok(vec![Some(sym)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.cholesky_solve(self, L, upper)`: `X` with `L Lᵀ X = self` (or `Uᵀ U X = self`),
    /// by forward then back substitution (`CholeskySolveBackward0`), batches broadcast.
    pub fn cholesky_solve(&self, factor: &Tensor, upper: bool) -> Result<Tensor, Error> {
        if self.dim() < 2 {
            return Err(LinalgError::SolveRhsRank { ndim: self.dim() }.into());
        }
        if factor.dim() < 2 {
            return Err(LinalgError::Rank {
                op: "cholesky_solve",
                ndim: factor.dim(),
            }
            .into());
        }
        // linearSolveCheckInputs (BatchLinearAlgebra.cpp), in its order.
        if self.device() != factor.device() {
            return Err(LinalgError::SolveDevices {
                b: self.device(),
                a: factor.device(),
            }
            .into());
        }
        if self.dtype() != factor.dtype() {
            return Err(LinalgError::SolveDtypes {
                b: self.dtype(),
                a: factor.dtype(),
            }
            .into());
        }
        let (rows, cols) = (
            factor.shape()[factor.dim() - 2],
            factor.shape()[factor.dim() - 1],
        );
        if rows != cols {
            return Err(LinalgError::SquareBatches { rows, cols }.into());
        }
        let n = rows;
        let (b_rows, k) = (self.shape()[self.dim() - 2], self.shape()[self.dim() - 1]);
        if b_rows != n {
            return Err(LinalgError::CholeskySolveSizes {
                n,
                rows: b_rows,
                cols: k,
            }
            .into());
        }
        if !self.dtype().is_floating_point() {
            return Err(Error::KernelNotForDtype {
                kernel: format!("cholesky_solve_{}", self.device().kind.name()),
                dtype: self.dtype(),
            });
        }
        // The batch dimensions broadcast against each other (`_linalg_broadcast_batch_dims`).
        let batch = crate::layout::broadcast_shapes(
            &self.shape()[..self.dim() - 2],
            &factor.shape()[..factor.dim() - 2],
        )?;
        let expand = |t: &Tensor, tail: [usize; 2]| -> Result<Tensor, Error> {
            let sizes: Vec<i64> = batch.iter().chain(&tail).map(|&d| d as i64).collect();
            t.expand(&sizes)
        };
        let l = Matrices::of(&expand(factor, [n, n])?, "cholesky_solve")?;
        let b = Matrices::of(&expand(self, [n, k])?, "cholesky_solve")?;
        let mut values = Vec::with_capacity(b.data.len() * n * k);
        for (i, rhs) in b.data.iter().enumerate() {
            let factor = &l.data[i];
            let x = substitute(factor, rhs, n, k, upper);
            values.extend(x);
        }
        let out = tensor_of(self, &b.batch, &[n, k], values, "cholesky_solve")?;
        let (saved_l, x) = (SavedTensor::new(factor), out.detach());
        let (b_shape, l_shape) = (self.shape().to_vec(), factor.shape().to_vec());
        let meta = autograd::record(&[self, factor], || {
            Backward::saving("CholeskySolveBackward0", move |grad| {
                // torch/csrc/autograd/FunctionsManual.cpp, cholesky_solve_backward.
                let l = saved_l.unpack()?;
                let grad_b = grad.cholesky_solve(l, upper)?;
                let common = grad_b.matmul(&x.matrix_transpose()?)?;
                let common = common.add(&common.matrix_transpose()?)?;
                let grad_l = match upper {
                    true => l.matmul(&common)?.neg()?,
                    false => common.matmul(l)?.neg()?,
                };
                // A batch that was broadcast gets the sum over the copies.
                Ok(vec![
                    Some(grad_b.sum_to_shape(&b_shape)?),
                    Some(grad_l.sum_to_shape(&l_shape)?),
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `linalg.qr(mode)`: Householder QR (`'reduced'`, `'complete'`, or `'r'`: `Q` empty), as
    /// LAPACK's `geqrf` signs it (`LinalgQrBackward0`).
    pub fn qr(&self, mode: &str) -> Result<(Tensor, Tensor), Error> {
        let m = Matrices::of(self, "linalg.qr")?;
        let (rows, cols) = (m.rows, m.cols);
        let k = rows.min(cols);
        let complete = mode == "complete";
        let q_cols = if complete { rows } else { k };
        let r_rows = if complete { rows } else { k };
        let (mut qs, mut rs) = (Vec::new(), Vec::new());
        for a in &m.data {
            let mut r = a.clone();
            let mut q = identity(rows);
            for j in 0..k {
                // LAPACK's dlarfg: nothing below the diagonal means no reflection (tau = 0),
                // whatever the diagonal's sign.
                let below: f64 = (j + 1..rows)
                    .map(|i| r[i * cols + j] * r[i * cols + j])
                    .sum();
                if below == 0.0 {
                    continue;
                }
                let norm = (r[j * cols + j] * r[j * cols + j] + below).sqrt();
                let alpha = r[j * cols + j];
                let beta = if alpha >= 0.0 { -norm } else { norm };
                let mut v = vec![0.0; rows];
                v[j] = alpha - beta;
                for i in j + 1..rows {
                    v[i] = r[i * cols + j];
                }
                let vv: f64 = v.iter().map(|x| x * x).sum();
                if vv == 0.0 {
                    continue;
                }
                for c in 0..cols {
                    let dot: f64 = (j..rows).map(|i| v[i] * r[i * cols + c]).sum();
                    for i in j..rows {
                        r[i * cols + c] -= 2.0 * v[i] * dot / vv;
                    }
                }
                for row in 0..rows {
                    let dot: f64 = (j..rows).map(|i| q[row * rows + i] * v[i]).sum();
                    for i in j..rows {
                        q[row * rows + i] -= 2.0 * dot * v[i] / vv;
                    }
                }
            }
            for i in 0..r_rows {
                for c in 0..cols {
                    rs.push(if c < i { 0.0 } else { r[i * cols + c] });
                }
            }
            for row in 0..rows {
                qs.extend_from_slice(&q[row * rows..row * rows + q_cols]);
            }
        }
        let r = tensor_of(self, &m.batch, &[r_rows, cols], rs, "linalg_qr")?;
        let q = match mode {
            "r" => tensor_of(self, &[], &[0], Vec::new(), "linalg_qr")?,
            _ => tensor_of(self, &m.batch, &[rows, q_cols], qs, "linalg_qr")?,
        };
        let meta = |t: &Tensor| -> Tensor {
            let meta = autograd::record(&[self], || {
                Backward::new("LinalgQrBackward0", |_| {
                    Err(Error::GradientNotInLab { op: "linalg_qr" })
                })
            });
            t.detach().with_autograd(meta)
        };
        Ok((meta(&q), meta(&r)))
    }

    /// `linalg.svd(full_matrices)`: `U`, `S`, `Vh` (`LinalgSvdBackward0`; its gradient through
    /// `U` and `Vh` is not in the lab).
    pub fn svd(&self, full_matrices: bool) -> Result<(Tensor, Tensor, Tensor), Error> {
        let m = Matrices::of(self, "linalg.svd")?;
        let k = m.rows.min(m.cols);
        let (u_cols, v_cols) = match full_matrices {
            true => (m.rows, m.cols),
            false => (k, k),
        };
        let (mut us, mut ss, mut vhs) = (Vec::new(), Vec::new(), Vec::new());
        for a in &m.data {
            let (u, s, v) = svd(a, m.rows, m.cols);
            us.extend(completed(&u, m.rows, k, u_cols));
            ss.extend(s);
            vhs.extend(transposed(
                &completed(&v, m.cols, k, v_cols),
                m.cols,
                v_cols,
            ));
        }
        let u = tensor_of(self, &m.batch, &[m.rows, u_cols], us, "linalg_svd")?;
        let s = tensor_of(self, &m.batch, &[k], ss, "linalg_svd")?;
        let vh = tensor_of(self, &m.batch, &[v_cols, m.cols], vhs, "linalg_svd")?;
        let s = s.with_autograd(svd_history(self, &u, &vh));
        let untracked = |t: &Tensor| -> Tensor {
            let meta = autograd::record(&[self], || {
                Backward::new("LinalgSvdBackward0", |_| {
                    Err(Error::GradientNotInLab {
                        op: "linalg_svd (U and Vh)",
                    })
                })
            });
            t.detach().with_autograd(meta)
        };
        Ok((untracked(&u), s, untracked(&vh)))
    }

    /// `linalg.svdvals`: the singular values, descending (`LinalgSvdBackward0`:
    /// `U · diag(grad) · Vh`).
    pub fn svdvals(&self) -> Result<Tensor, Error> {
        let (u, s, vh) = self.session().no_grad(|| self.svd(false))?;
        Ok(s.detach().with_autograd(svd_history(self, &u, &vh)))
    }

    /// `linalg.eigh`: eigenvalues ascending and eigenvectors as columns, of a symmetric matrix
    /// (its lower triangle, as LAPACK reads it; `LinalgEighBackward0`).
    pub fn eigh(&self) -> Result<(Tensor, Tensor), Error> {
        let (m, n) = Matrices::square_of(self, "linalg.eigh")?;
        let (mut values, mut vectors) = (Vec::new(), Vec::new());
        for a in &m.data {
            let mut lower = a.clone();
            for i in 0..n {
                for j in i + 1..n {
                    lower[i * n + j] = a[j * n + i];
                }
            }
            let (w, v) = eigh(&lower, n);
            values.extend(w);
            vectors.extend(v);
        }
        let w = tensor_of(self, &m.batch, &[n], values, "linalg_eigh")?;
        let v = tensor_of(self, &m.batch, &[n, n], vectors, "linalg_eigh")?;
        let saved_v = v.detach();
        let meta = autograd::record(&[self], || {
            Backward::new("LinalgEighBackward0", move |grad| {
                // Through the eigenvalues: V · diag(grad) · Vᵀ.
                let scaled = saved_v.mul(&grad.unsqueeze(-2)?)?;
                Ok(vec![Some(scaled.matmul(&saved_v.matrix_transpose()?)?)])
            })
        });
        let w = w.with_autograd(meta);
        let v = {
            let meta = autograd::record(&[self], || {
                Backward::new("LinalgEighBackward0", |_| {
                    Err(Error::GradientNotInLab {
                        op: "linalg_eigh (eigenvectors)",
                    })
                })
            });
            v.detach().with_autograd(meta)
        };
        Ok((w, v))
    }

    /// `linalg.pinv(rtol=)`: the pseudo-inverse, from the SVD, dropping singular values below
    /// `rtol · largest` (by default `rtol = max(rows, cols) · eps`; `LinalgPinvBackward0`).
    pub fn pinv(&self, rtol: Option<f64>) -> Result<Tensor, Error> {
        let m = Matrices::of(self, "linalg.pinv")?;
        let k = m.rows.min(m.cols);
        let eps = match self.dtype() {
            DType::Float64 => f64::EPSILON,
            _ => f64::from(f32::EPSILON),
        };
        let mut values = Vec::new();
        for a in &m.data {
            let (u, s, v) = svd(a, m.rows, m.cols);
            let rtol = rtol.unwrap_or(m.rows.max(m.cols) as f64 * eps);
            let cutoff = rtol * s.first().copied().unwrap_or(0.0);
            for i in 0..m.cols {
                for j in 0..m.rows {
                    let mut x = 0.0;
                    for t in 0..k {
                        if s[t] > cutoff {
                            x += v[i * k + t] * u[j * k + t] / s[t];
                        }
                    }
                    values.push(x);
                }
            }
        }
        let out = tensor_of(self, &m.batch, &[m.cols, m.rows], values, "linalg_pinv")?;
        let meta = autograd::record(&[self], || {
            Backward::new("LinalgPinvBackward0", |_| {
                Err(Error::GradientNotInLab { op: "linalg_pinv" })
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `linalg.matrix_rank`: how many singular values pass the default tolerance (int64).
    pub fn matrix_rank(&self) -> Result<Tensor, Error> {
        let values = self.session().no_grad(|| self.svdvals())?;
        let m = Matrices::of(self, "linalg.matrix_rank")?;
        let eps = match self.dtype() {
            DType::Float64 => f64::EPSILON,
            _ => f64::from(f32::EPSILON),
        };
        let largest = values.amax(&[-1], true)?;
        let tolerance = largest.mul(Scalar::Float(m.rows.max(m.cols) as f64 * eps))?;
        values
            .compare(crate::backend::cpu::elementwise::Binary::Gt, &tolerance)?
            .sum(&[-1], false)
    }

    /// `linalg.lstsq(A, B).solution`: the least-squares solution, through the pseudo-inverse.
    pub fn lstsq(&self, b: &Tensor) -> Result<Tensor, Error> {
        let solution = self.session().no_grad(|| self.pinv(None)?.matmul(b))?;
        let meta = autograd::record(&[self, b], || {
            Backward::new("LinalgLstsqBackward0", |_| {
                Err(Error::GradientNotInLab { op: "linalg_lstsq" })
            })
        });
        Ok(solution.with_autograd(meta))
    }
}

/// Columns `p` and `q` of the `rows × n` matrix `a` turned by the rotation `(c, s)`.
fn rotate_columns(
    a: &mut [f64],
    rows: usize,
    n: usize,
    (p, q): (usize, usize),
    (c, s): (f64, f64),
) {
    for i in 0..rows {
        let (x, y) = (a[i * n + p], a[i * n + q]);
        a[i * n + p] = c * x - s * y;
        a[i * n + q] = s * x + c * y;
    }
}

/// `n × k` orthonormal columns extended to `n × cols` by Gram-Schmidt on the unit vectors (the
/// full `U` or `V` of a non-square SVD).
fn completed(q: &[f64], n: usize, k: usize, cols: usize) -> Vec<f64> {
    let mut columns: Vec<Vec<f64>> = (0..k)
        .map(|j| (0..n).map(|i| q[i * k + j]).collect())
        .collect();
    for e in 0..n {
        if columns.len() >= cols {
            break;
        }
        let mut v: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == e))).collect();
        for c in &columns {
            let dot: f64 = c.iter().zip(&v).map(|(a, b)| a * b).sum();
            for (x, y) in v.iter_mut().zip(c) {
                *x -= dot * y;
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 1e-10 {
            columns.push(v.into_iter().map(|x| x / norm).collect());
        }
    }
    let mut out = vec![0.0; n * cols];
    for (j, c) in columns.iter().enumerate().take(cols) {
        for i in 0..n {
            out[i * cols + j] = c[i];
        }
    }
    out
}

/// `LinalgSvdBackward0` through the singular values: `U · diag(grad) · Vh`.
fn svd_history(a: &Tensor, u: &Tensor, vh: &Tensor) -> crate::autograd::AutogradMeta {
    let (u, vh) = (u.detach(), vh.detach());
    autograd::record(&[a], || {
        Backward::new("LinalgSvdBackward0", move |grad| {
            Ok(vec![Some(u.mul(&grad.unsqueeze(-2)?)?.matmul(&vh)?)])
        })
    })
}
