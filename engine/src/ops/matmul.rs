//! `mm`, `bmm`, `mv`, `dot` and `matmul` (`@`), with PyTorch's shape rules, messages and nodes.

use crate::autograd::{self, Backward, SavedTensor};
use crate::backend::cpu::elementwise::{LaneKind, Lanes};
use crate::backend::cpu::matmul;
use crate::backend::gpu::Product;
use crate::device::{Device, DeviceType};
use crate::error::{Error, LinalgError};
use crate::layout::broadcast_shapes;
use crate::tensor::Tensor;

fn check_same_dtype(a: &Tensor, b: &Tensor) -> Result<(), Error> {
    if a.dtype() != b.dtype() {
        return Err(Error::MatmulDtypeMismatch {
            first: a.dtype(),
            second: b.dtype(),
        });
    }
    Ok(())
}

/// `(n, k, m)` of an n×k by k×m product of two matrices, or `op`'s shape error.
fn product_sizes(op: &'static str, a: &Tensor, b: &Tensor) -> Result<(usize, usize, usize), Error> {
    let (n, k, k2, m) = (a.shape()[0], a.shape()[1], b.shape()[0], b.shape()[1]);
    if k != k2 {
        return Err(Error::MmShapes {
            op,
            a: [n, k],
            b: [k2, m],
        });
    }
    Ok((n, k, m))
}

/// `batch` stacked products of a (batch×n×k) and b (batch×k×m), both read row-major. No autograd.
fn product(
    a: &Tensor,
    b: &Tensor,
    (batch, n, k, m): (usize, usize, usize, usize),
    shape: &[usize],
    device: Device,
) -> Result<Tensor, Error> {
    let dtype = a.dtype();
    if device.kind == DeviceType::Meta {
        return super::elementwise::meta_result(a.session(), shape, dtype);
    }
    a.session().check_fits(device, shape, dtype.size())?;
    let sizes = Product { batch, n, k, m };
    if let Some(result) = super::gpu::matmul(a, b, sizes, shape) {
        super::elementwise::record_gpu_kernel(a.session(), device, "matmul");
        return result;
    }
    let kind = LaneKind::of(dtype);
    let lhs = a.read(|cpu| Lanes::gather(cpu, a.layout(), kind))?;
    let rhs = b.read(|cpu| Lanes::gather(cpu, b.layout(), kind))?;
    let out = matmul::bmm(&lhs, &rhs, batch, n, k, m);
    Tensor::from_cpu_data(
        a.session(),
        out.into_storage(dtype),
        shape,
        device,
        "matmul",
    )
}

impl Tensor {
    /// `torch.mm(self, mat2)`.
    pub fn mm(&self, mat2: &Tensor) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::LowerPrecision, &[self, mat2])?
        {
            return cast[0].mm(&cast[1]);
        }

        let device = super::check_arguments(
            "wrapper_CUDA_mm",
            &[("self", Some(self)), ("mat2", Some(mat2))],
        )?;
        for (name, t) in [("self", self), ("mat2", mat2)] {
            if t.dim() != 2 {
                return Err(Error::MmNeedsMatrix {
                    argument: name,
                    dim: t.dim(),
                });
            }
        }
        check_same_dtype(self, mat2)?;
        let (n, k, m) = product_sizes("mm", self, mat2)?;
        let out = product(self, mat2, (1, n, k, m), &[n, m], device)?;
        let (a, b) = (SavedTensor::new(self), SavedTensor::new(mat2));
        let meta = autograd::record(&[self, mat2], || {
            Backward::saving("MmBackward0", move |grad| {
                let (a, b) = (a.unpack()?, b.unpack()?);
                Ok(vec![Some(grad.mm(&b.t()?)?), Some(a.t()?.mm(grad)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.bmm(self, mat2)`: batches of matrices, the batch sizes equal.
    pub fn bmm(&self, mat2: &Tensor) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::LowerPrecision, &[self, mat2])?
        {
            return cast[0].bmm(&cast[1]);
        }

        let device = super::check_arguments(
            "wrapper_CUDA_bmm",
            &[("self", Some(self)), ("mat2", Some(mat2))],
        )?;
        if self.dim() != 3 {
            return Err(Error::BmmNeeds3D { argument: "batch1" });
        }
        if mat2.dim() != 3 {
            return Err(Error::BmmNeeds3D { argument: "batch2" });
        }
        if self.dtype() != mat2.dtype() {
            return Err(Error::ExpectedScalarType {
                expected: self.dtype(),
                found: mat2.dtype(),
            });
        }
        let (batch, n, k) = (self.shape()[0], self.shape()[1], self.shape()[2]);
        let m = mat2.shape()[2];
        if mat2.shape()[..2] != [batch, k] {
            return Err(Error::BmmShapes {
                expected: [batch, k],
                got: [mat2.shape()[0], mat2.shape()[1]],
            });
        }
        let out = product(self, mat2, (batch, n, k, m), &[batch, n, m], device)?;
        let (a, b) = (SavedTensor::new(self), SavedTensor::new(mat2));
        let meta = autograd::record(&[self, mat2], || {
            Backward::saving("BmmBackward0", move |grad| {
                let (a, b) = (a.unpack()?, b.unpack()?);
                Ok(vec![
                    Some(grad.bmm(&b.transpose(1, 2)?)?),
                    Some(a.transpose(1, 2)?.bmm(grad)?),
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.mv(self, vec)`.
    pub fn mv(&self, vec: &Tensor) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::LowerPrecisionGpu, &[self, vec])?
        {
            return cast[0].mv(&cast[1]);
        }

        let device = super::check_arguments(
            "wrapper_CUDA__mv",
            &[("self", Some(self)), ("vec", Some(vec))],
        )?;
        check_same_dtype(self, vec)?;
        let (n, k) = (self.shape()[0], self.shape()[1]);
        if vec.shape() != [k] {
            return Err(Error::MvShapes {
                input: n,
                mat: [n, k],
                vec: vec.shape().to_vec(),
            });
        }
        let out = product(self, vec, (1, n, k, 1), &[n], device)?;
        let (a, v) = (SavedTensor::new(self), SavedTensor::new(vec));
        let meta = autograd::record(&[self, vec], || {
            Backward::saving("MvBackward0", move |grad| {
                let (a, v) = (a.unpack()?, v.unpack()?);
                let outer = grad.view(&[-1, 1])?.mm(&v.view(&[1, -1])?)?;
                Ok(vec![Some(outer), Some(a.t()?.mv(grad)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.dot(self, other)`.
    /// `torch.outer(self, vec2)`: PyTorch's composite `self.reshape(-1, 1) * vec2`, so its node is
    /// `MulBackward0` and its device check the elementwise one.
    pub fn outer(&self, vec2: &Tensor) -> Result<Tensor, Error> {
        for (argument, t) in [("self", self), ("vec2", vec2)] {
            if t.dim() != 1 {
                return Err(Error::OuterNeeds1D {
                    argument,
                    dim: t.dim(),
                });
            }
        }
        self.reshape(&[-1, 1])?.mul(vec2)
    }

    pub fn dot(&self, other: &Tensor) -> Result<Tensor, Error> {
        self.dot_named(other, "DotBackward0", ("wrapper_CUDA__dot", "tensor"))
    }

    /// `dot` under `node`, checked as ATen's `dot_check` does: 1-D, one dtype, one length.
    /// `(method, argument)` name the CUDA kernel and the second argument for the device check.
    pub(crate) fn dot_named(
        &self,
        other: &Tensor,
        node: &'static str,
        (method, argument): (&'static str, &'static str),
    ) -> Result<Tensor, Error> {
        let device =
            super::check_arguments(method, &[("self", Some(self)), (argument, Some(other))])?;
        if self.dim() != 1 || other.dim() != 1 {
            return Err(LinalgError::DotNeeds1D {
                a: self.dim(),
                b: other.dim(),
            }
            .into());
        }
        if self.dtype() != other.dtype() {
            return Err(Error::DotDtypeMismatch {
                first: self.dtype(),
                second: other.dtype(),
            });
        }
        if self.numel() != other.numel() {
            return Err(Error::DotSizes {
                a: self.numel(),
                b: other.numel(),
            });
        }
        let k = self.numel();
        let out = product(self, other, (1, 1, k, 1), &[], device)?;
        let (a, b) = (SavedTensor::new(self), SavedTensor::new(other));
        let meta = autograd::record(&[self, other], || {
            Backward::saving(node, move |grad| {
                let (a, b) = (a.unpack()?, b.unpack()?);
                Ok(vec![Some(b.mul(grad)?), Some(a.mul(grad)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `torch.matmul(self, other)` / `self @ other`.
    pub fn matmul(&self, other: &Tensor) -> Result<Tensor, Error> {
        if let Some(cast) =
            crate::amp::autocast_inputs(crate::amp::CastPolicy::LowerPrecision, &[self, other])?
        {
            return cast[0].matmul(&cast[1]);
        }

        match (self.dim(), other.dim()) {
            (0, _) | (_, 0) => Err(Error::MatmulZeroDim {
                a: self.dim(),
                b: other.dim(),
            }),
            (1, 1) => self.dot(other),
            (2, 1) => self.mv(other),
            (1, 2) => self
                .unsqueeze(0)?
                .mm(other)?
                .squeeze_named(0, "SqueezeBackward4"),
            (2, 2) => self.mm(other),
            _ => self.batched_matmul(other),
        }
    }

    /// Batched `matmul`: vectors made matrices, batch dimensions broadcast, one `bmm`, and the
    /// result viewed back (`UnsafeViewBackward0`, as PyTorch records it).
    fn batched_matmul(&self, other: &Tensor) -> Result<Tensor, Error> {
        let a = if self.dim() == 1 {
            self.unsqueeze(0)?
        } else {
            self.clone()
        };
        let b = if other.dim() == 1 {
            other.unsqueeze(1)?
        } else {
            other.clone()
        };
        let (n, k) = (a.shape()[a.dim() - 2], a.shape()[a.dim() - 1]);
        let (k2, m) = (b.shape()[b.dim() - 2], b.shape()[b.dim() - 1]);
        if k != k2 {
            return Err(Error::MmShapes {
                op: "mm",
                a: [n, k],
                b: [k2, m],
            });
        }
        let batch_shape = broadcast_shapes(&a.shape()[..a.dim() - 2], &b.shape()[..b.dim() - 2])?;
        let batch: usize = batch_shape.iter().product();
        let sizes = |rows: usize, cols: usize| -> Vec<i64> {
            batch_shape
                .iter()
                .chain(&[rows, cols])
                .map(|&s| s as i64)
                .collect()
        };
        let a3 = a
            .expand(&sizes(n, k))?
            .reshape(&[batch as i64, n as i64, k as i64])?;
        let b3 = b
            .expand(&sizes(k, m))?
            .reshape(&[batch as i64, k as i64, m as i64])?;
        let mut shape: Vec<usize> = batch_shape.clone();
        if self.dim() > 1 {
            shape.push(n);
        }
        if other.dim() > 1 {
            shape.push(m);
        }
        a3.bmm(&b3)?.unsafe_view(&shape)
    }
}
