//! The products PyTorch composes from `mm`, `mul` and `sum` — `tensordot`, `inner`, `kron`,
//! `linalg.vecdot`, `linalg.multi_dot`, `chain_matmul`, `matrix_power` — built here from the
//! same ops in the same order (ATen's `Linear.cpp`, `LinearAlgebra.cpp`), so their graphs
//! (`ViewBackward0` over `MmBackward0` …) and their rounding are PyTorch's; and the two with
//! nodes of their own, `vdot` (`VdotBackward0`) and `linalg.cross` (`LinalgCrossBackward0`).

use crate::autograd::{self, Backward, SavedTensor};
use crate::error::{Error, LinalgError, ShapeError};
use crate::layout::{broadcast_shapes, wrap_dim};
use crate::tensor::Tensor;

fn as_i64(sizes: &[usize]) -> Vec<i64> {
    sizes.iter().map(|&s| s as i64).collect()
}

impl Tensor {
    /// `tensordot(a, b, dims_a, dims_b)`: `dims_a` of `self` contracted with `dims_b` of
    /// `other`, as one `mm` of the permuted, flattened operands.
    pub fn tensordot(
        &self,
        other: &Tensor,
        dims_a: &[i64],
        dims_b: &[i64],
    ) -> Result<Tensor, Error> {
        if dims_a.len() != dims_b.len() {
            return Err(LinalgError::TensordotLengths.into());
        }
        if self.dtype() != other.dtype() {
            return Err(LinalgError::TensordotDtype.into());
        }
        let (mut a, mut b) = (self.clone(), other.clone());
        let mut contracted = 1i64;
        for (&da, &db) in dims_a.iter().zip(dims_b) {
            let sa = self.shape()[wrap_dim(da, self.dim())?];
            let sb = other.shape()[wrap_dim(db, other.dim())?];
            if sb == 1 {
                // A broadcast dimension is summed right away.
                a = a.sum(&[da], true)?;
            } else if sa == 1 {
                b = b.sum(&[db], true)?;
            } else if sa != sb {
                return Err(LinalgError::TensordotSizes {
                    first: sa,
                    first_dim: da,
                    second: sb,
                    second_dim: db,
                }
                .into());
            } else {
                contracted *= sa as i64;
            }
        }
        let in_a = dim_set(dims_a, self.dim())?;
        let in_b = dim_set(dims_b, other.dim())?;
        let (mut order_a, mut order_b, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
        let (mut rows, mut cols) = (1i64, 1i64);
        for i in (0..self.dim()).filter(|&i| !in_a[i]) {
            order_a.push(i as i64);
            rows *= a.shape()[i] as i64;
            sizes.push(a.shape()[i] as i64);
        }
        order_a.extend(dims_a);
        order_b.extend(dims_b);
        for i in (0..other.dim()).filter(|&i| !in_b[i]) {
            order_b.push(i as i64);
            cols *= b.shape()[i] as i64;
            sizes.push(b.shape()[i] as i64);
        }
        let a = a.permute(&order_a)?.reshape(&[rows, contracted])?;
        let b = b.permute(&order_b)?.reshape(&[contracted, cols])?;
        a.mm(&b)?.reshape(&sizes)
    }

    /// `inner(other)`: the last dimensions contracted (`tensordot(…, [-1], [-1])`); a 0-dim side
    /// multiplies.
    pub fn inner(&self, other: &Tensor) -> Result<Tensor, Error> {
        super::common_device(&[self, other])?;
        if self.dim() == 0 || other.dim() == 0 {
            return self.mul(other);
        }
        if self.shape().last() != other.shape().last() {
            return Err(LinalgError::InnerSizes {
                a: self.shape().to_vec(),
                b: other.shape().to_vec(),
            }
            .into());
        }
        self.tensordot(other, &[-1], &[-1])
    }

    /// `kron(other)`: every pair of dimensions interleaved (`self`'s sizes at even places,
    /// `other`'s at odd), multiplied, and flattened pairwise, each step an `_unsafe_view` as in
    /// ATen. (PyTorch's last view fails for some non-contiguous inputs, `kron(a.t(), b)`, where
    /// TensorIterator lays the product out transposed; the lab's product is always
    /// row-major, so it answers them.)
    pub fn kron(&self, other: &Tensor) -> Result<Tensor, Error> {
        let dims = self.dim().max(other.dim());
        let (pad_a, pad_b) = (dims - self.dim(), dims - other.dim());
        let (mut shape_a, mut shape_b, mut shape) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..dims {
            let sa = if i >= pad_a {
                self.shape()[i - pad_a]
            } else {
                1
            };
            let sb = if i >= pad_b {
                other.shape()[i - pad_b]
            } else {
                1
            };
            shape_a.extend([sa, 1]);
            shape_b.extend([1, sb]);
            shape.push(sa * sb);
        }
        let a = self.unsafe_view(&shape_a)?;
        let b = other.unsafe_view(&shape_b)?;
        a.mul(&b)?.unsafe_view(&shape)
    }

    /// `vdot(other)`: `dot` with the first vector conjugated; for the real dtypes the lab has,
    /// `dot` under its own node.
    pub fn vdot(&self, other: &Tensor) -> Result<Tensor, Error> {
        self.dot_named(other, "VdotBackward0", ("wrapper_CUDA__vdot", "other"))
    }

    /// `linalg.vecdot(x, y, dim)`: `(x.conj() * y).sum(dim)`.
    pub fn vecdot(&self, other: &Tensor, dim: i64) -> Result<Tensor, Error> {
        for t in [self, other] {
            if !t.dtype().is_floating_point() {
                return Err(LinalgError::Dtype {
                    op: "linalg.vecdot",
                    dtype: t.dtype().scalar_type_name(),
                }
                .into());
            }
        }
        if self.dtype() != other.dtype() {
            return Err(LinalgError::VecdotDtype {
                x: self.dtype(),
                y: other.dtype(),
            }
            .into());
        }
        self.mul(other)?.sum(&[dim], false)
    }

    /// `linalg.multi_dot(tensors)`: a chain of `mm`s in the cheapest order (ATen's: two
    /// directly, three by comparing the two orders' costs, more by the textbook dynamic
    /// programme), a 1-D first or last tensor a row or a column, viewed away at the end.
    pub fn multi_dot(tensors: &[&Tensor]) -> Result<Tensor, Error> {
        let n = tensors.len();
        if n < 2 {
            return Err(LinalgError::MultiDotCount { n }.into());
        }
        let mut out_shape = Vec::new();
        let mut chain: Vec<Tensor> = Vec::with_capacity(n);
        for (i, t) in tensors.iter().enumerate() {
            let end = match i {
                0 => Some("first"),
                _ if i == n - 1 => Some("last"),
                _ => None,
            };
            let matrix = match (t.dim(), end) {
                (1, Some("first")) => t.unsqueeze(0)?,
                (1, Some(_)) => t.unsqueeze(-1)?,
                (2, Some("first")) => {
                    out_shape.push(t.shape()[0] as i64);
                    (*t).clone()
                }
                (2, Some(_)) => {
                    out_shape.push(t.shape()[1] as i64);
                    (*t).clone()
                }
                (2, None) => (*t).clone(),
                (dim, Some(which)) => return Err(LinalgError::MultiDotEnd { which, dim }.into()),
                (dim, None) => return Err(LinalgError::MultiDotMiddle { index: i, dim }.into()),
            };
            chain.push(matrix);
        }
        for i in 1..n {
            if chain[i].dtype() != chain[0].dtype() {
                return Err(LinalgError::MultiDotDtype {
                    first: chain[0].dtype(),
                    index: i,
                    other: chain[i].dtype(),
                }
                .into());
            }
            if chain[i].device() != chain[0].device() {
                return Err(LinalgError::MultiDotDevice {
                    first: chain[0].device(),
                    index: i,
                    other: chain[i].device(),
                }
                .into());
            }
            if chain[i - 1].shape()[1] != chain[i].shape()[0] {
                return Err(LinalgError::MultiDotShapes {
                    index: i,
                    a: tensors[i - 1].shape().to_vec(),
                    b: tensors[i].shape().to_vec(),
                }
                .into());
            }
        }
        let product = match n {
            2 => chain[0].mm(&chain[1])?,
            3 => {
                let size = |t: &Tensor, i: usize| t.shape()[i] as u128;
                let (a, b) = (size(&chain[0], 0), size(&chain[1], 0));
                let (c, d) = (size(&chain[2], 0), size(&chain[2], 1));
                let cost_left = (a * c).saturating_mul(b + d);
                let cost_right = (b * d).saturating_mul(a + c);
                if cost_left > cost_right {
                    chain[0].mm(&chain[1].mm(&chain[2])?)?
                } else {
                    chain[0].mm(&chain[1])?.mm(&chain[2])?
                }
            }
            _ => {
                let order = chain_order(&chain);
                multiply_chain(&chain, &order, 0, n - 1)?
            }
        };
        product.view(&out_shape)
    }

    /// `torch.chain_matmul(*matrices)` (deprecated): matrices only; one is cloned.
    pub fn chain_matmul(matrices: &[&Tensor]) -> Result<Tensor, Error> {
        if let Some(t) = matrices.iter().find(|t| t.dim() != 2) {
            return Err(LinalgError::ChainMatmulDim { dim: t.dim() }.into());
        }
        match matrices {
            [] => Err(LinalgError::ChainMatmulEmpty.into()),
            [one] => one.clone_tensor(),
            _ => Tensor::multi_dot(matrices),
        }
    }

    /// `linalg.matrix_power(n)`: the identity for 0 (`CopyBackwards`, as ATen copies `eye`
    /// into a clone), a clone for 1, `linalg.inv` first for a negative `n`, then products by
    /// binary decomposition, least significant bit first.
    pub fn matrix_power(&self, n: i64) -> Result<Tensor, Error> {
        let op = "linalg.matrix_power";
        if self.dim() < 2 {
            return Err(LinalgError::Rank {
                op,
                ndim: self.dim(),
            }
            .into());
        }
        let (rows, cols) = (self.shape()[self.dim() - 2], self.shape()[self.dim() - 1]);
        if rows != cols {
            return Err(LinalgError::NotSquare { op, rows, cols }.into());
        }
        if n == 0 {
            let eye = Tensor::eye(
                self.session(),
                rows as i64,
                None,
                self.dtype(),
                self.device(),
            )?;
            let identity = self.clone_tensor()?;
            identity.copy_(&eye.expand(&as_i64(self.shape()))?)?;
            return Ok(identity);
        }
        let a = if n < 0 { self.inv()? } else { self.clone() };
        let mut n = n.unsigned_abs();
        match n {
            1 => return a.clone_tensor(),
            2 => return a.matmul(&a),
            3 => return a.matmul(&a)?.matmul(&a),
            _ => {}
        }
        let (mut z, mut result): (Option<Tensor>, Option<Tensor>) = (None, None);
        while n > 0 {
            let bit = n % 2;
            n /= 2;
            let square = match &z {
                Some(z) => z.matmul(z)?,
                None => a.clone(),
            };
            if bit == 1 {
                result = Some(match &result {
                    Some(r) => r.matmul(&square)?,
                    None => square.clone(),
                });
            }
            z = Some(square);
        }
        Ok(result.expect("n > 3 has a set bit"))
    }

    /// `linalg.cross(other, dim)`: the cross product of the 3-vectors along `dim`, the other
    /// dimensions broadcast (`LinalgCrossBackward0`).
    pub fn linalg_cross(&self, other: &Tensor, dim: i64) -> Result<Tensor, Error> {
        if self.dim() != other.dim() {
            return Err(LinalgError::CrossRank.into());
        }
        let d = wrap_dim(dim, self.dim())?;
        let (la, lb) = (self.shape()[d], other.shape()[d]);
        if la != 3 || lb != 3 {
            return Err(LinalgError::CrossLength { dim, a: la, b: lb }.into());
        }
        if self.dtype() != other.dtype() {
            return Err(Error::ExpectedScalarType {
                expected: self.dtype(),
                found: other.dtype(),
            });
        }
        let shape = as_i64(&broadcast_shapes(self.shape(), other.shape())?);
        let value = self.session().no_grad(|| -> Result<Tensor, Error> {
            let (a, b) = (self.expand(&shape)?, other.expand(&shape)?);
            let at = |t: &Tensor, i: i64| t.select(d as i64, i);
            let component = |i: i64, j: i64| -> Result<Tensor, Error> {
                at(&a, i)?
                    .mul(&at(&b, j)?)?
                    .sub(&at(&a, j)?.mul(&at(&b, i)?)?)
            };
            let parts = [component(1, 2)?, component(2, 0)?, component(0, 1)?];
            Tensor::stack(&parts.iter().collect::<Vec<_>>(), d as i64)
        })?;
        let (x, y) = (SavedTensor::new(self), SavedTensor::new(other));
        let (x_shape, y_shape) = (self.shape().to_vec(), other.shape().to_vec());
        let (x_dtype, y_dtype) = (self.dtype(), other.dtype());
        let meta = autograd::record(&[self, other], || {
            Backward::saving("LinalgCrossBackward0", move |grad| {
                let (x, y) = (x.unpack()?, y.unpack()?);
                let to_x = y.linalg_cross(grad, dim)?;
                let to_y = grad.linalg_cross(x, dim)?;
                Ok(vec![
                    Some(super::reduce_grad(&to_x, &x_shape, x_dtype)?),
                    Some(super::reduce_grad(&to_y, &y_shape, y_dtype)?),
                ])
            })
        });
        Ok(value.with_autograd(meta))
    }

    /// `torch.cross(other, dim=None)`: without `dim`, the first dimension of size 3 (PyTorch
    /// warns that this default will change).
    pub fn cross_default_dim(&self) -> Result<i64, Error> {
        match self.shape().iter().position(|&s| s == 3) {
            Some(d) => Ok(d as i64),
            None => Err(LinalgError::CrossNoDim.into()),
        }
    }
}

/// Which of `ndim` dimensions `dims` names, each once.
fn dim_set(dims: &[i64], ndim: usize) -> Result<Vec<bool>, Error> {
    let mut set = vec![false; ndim];
    for &d in dims {
        let w = wrap_dim(d, ndim)?;
        if std::mem::replace(&mut set[w], true) {
            return Err(ShapeError::RepeatedDim { dim: w }.into());
        }
    }
    Ok(set)
}

/// The cheapest split of every sub-chain `i..=j` of matrices (Cormen et al., 15.2, as ATen's
/// `matrix_chain_order`): `split[i][j] = k` multiplies `i..=k` and `k+1..=j` first.
fn chain_order(chain: &[Tensor]) -> Vec<Vec<usize>> {
    let n = chain.len();
    let mut p: Vec<u128> = chain.iter().map(|t| t.shape()[0] as u128).collect();
    p.push(chain[n - 1].shape()[1] as u128);
    let mut cost = vec![vec![0u128; n]; n];
    let mut split = vec![vec![0usize; n]; n];
    for l in 1..n {
        for i in 0..n - l {
            let j = i + l;
            cost[i][j] = u128::MAX;
            for k in i..j {
                let q = cost[i][k]
                    .saturating_add(cost[k + 1][j])
                    .saturating_add(p[i].saturating_mul(p[k + 1]).saturating_mul(p[j + 1]));
                if q < cost[i][j] {
                    cost[i][j] = q;
                    split[i][j] = k;
                }
            }
        }
    }
    split
}

fn multiply_chain(
    chain: &[Tensor],
    split: &[Vec<usize>],
    i: usize,
    j: usize,
) -> Result<Tensor, Error> {
    if i == j {
        return Ok(chain[i].clone());
    }
    let k = split[i][j];
    multiply_chain(chain, split, i, k)?.mm(&multiply_chain(chain, split, k + 1, j)?)
}
