//! `torch.linalg` and the older `torch` and `Tensor` spellings of its functions (`torch.det`,
//! `Tensor.inverse`, `torch.svd`), including the ones PyTorch has removed and now only explains
//! (`torch.cholesky`, `torch.qr`). The engine computes them (`tolab_engine::ops::{linalg, norm}`).

use tolab_engine::error::ReduceError;
use tolab_engine::{Error, Session, Tensor};

use super::ops::{into_out, out_tensor};
use super::reductions::{Order, matrix_dims, matrix_order, named_tuple, order};
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.linalg.det", Handler::Engine(det)),
    ("torch.det", Handler::Engine(det)),
    ("Tensor.det", Handler::Engine(det)),
    ("torch.logdet", Handler::Engine(logdet)),
    ("Tensor.logdet", Handler::Engine(logdet)),
    ("torch.linalg.slogdet", Handler::Engine(slogdet)),
    ("torch.slogdet", Handler::Engine(slogdet)),
    ("Tensor.slogdet", Handler::Engine(slogdet)),
    ("torch.linalg.inv", Handler::Engine(inv)),
    ("torch.inverse", Handler::Engine(inv)),
    ("Tensor.inverse", Handler::Engine(inv)),
    ("torch.linalg.solve", Handler::Engine(solve)),
    ("torch.cholesky_solve", Handler::Engine(cholesky_solve)),
    ("Tensor.cholesky_solve", Handler::Engine(cholesky_solve)),
    ("torch.linalg.cholesky", Handler::Engine(cholesky)),
    ("torch.cholesky", Handler::Engine(removed)),
    ("Tensor.cholesky", Handler::Engine(removed)),
    ("torch.linalg.qr", Handler::Engine(qr)),
    ("torch.qr", Handler::Engine(removed)),
    ("Tensor.qr", Handler::Engine(removed)),
    ("torch.linalg.svd", Handler::Engine(svd)),
    ("torch.svd", Handler::Engine(svd)),
    ("Tensor.svd", Handler::Engine(svd)),
    ("torch.linalg.svdvals", Handler::Engine(svdvals)),
    ("torch.linalg.eigh", Handler::Engine(eigh)),
    ("torch.linalg.eigvalsh", Handler::Engine(eigh)),
    ("torch.linalg.pinv", Handler::Engine(pinv)),
    ("torch.pinverse", Handler::Engine(pinv)),
    ("Tensor.pinverse", Handler::Engine(pinv)),
    ("torch.linalg.matrix_rank", Handler::Engine(matrix_rank)),
    ("torch.linalg.lstsq", Handler::Engine(lstsq)),
    ("torch.linalg.vector_norm", Handler::Engine(vector_norm)),
    ("torch.linalg.matrix_norm", Handler::Engine(matrix_norm)),
    ("torch.linalg.norm", Handler::Engine(linalg_norm)),
    ("torch.linalg.diagonal", Handler::Engine(diagonal)),
    ("torch.linalg.matmul", Handler::Engine(matmul)),
];

/// The matrix argument: `A` in `torch.linalg`'s schemas, `input` elsewhere.
fn matrix(call: &Call) -> Result<Tensor> {
    match call.signature().position("A") {
        Some(_) => call.tensor("A"),
        None => call.input(),
    }
}

fn det(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.det()?)
}

fn logdet(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    call.finish()?;
    Ok(Value::Tensor(a.logdet()?))
}

fn slogdet(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    call.finish()?;
    let (sign, log) = a.slogdet()?;
    let name = match call.binding.namespace() {
        "torch.linalg" => "torch.return_types.linalg_slogdet",
        _ => "torch.return_types.slogdet",
    };
    Ok(named_tuple(name, vec![("sign", sign), ("logabsdet", log)]))
}

fn inv(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.inv()?)
}

/// `linalg.solve(A, B, *, left=True)`: `X` with `AX = B`, or `XA = B` when not `left`
/// (solved as `AᵀXᵀ = Bᵀ`).
fn solve(call: &Call, _: &Session) -> Result<Value> {
    let (a, b) = (matrix(call)?, call.tensor("B")?);
    let left = call.bool("left")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let x = match left {
        true => a.solve(&b)?,
        false => a
            .matrix_transpose()?
            .solve(&b.matrix_transpose()?)?
            .matrix_transpose()?,
    };
    into_out(call, out, x)
}

/// `torch.cholesky_solve(B, L, upper=False, *, out=None)`.
fn cholesky_solve(call: &Call, _: &Session) -> Result<Value> {
    let b = call.input()?;
    let l = call.tensor("input2")?;
    let upper = call.bool("upper")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, b.cholesky_solve(&l, upper)?)
}

fn cholesky(call: &Call, _: &Session) -> Result<Value> {
    let a = call.input()?;
    let upper = call.bool("upper")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.cholesky(upper)?)
}

fn qr(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    let mode = call.string("mode")?.unwrap_or_else(|| "reduced".into());
    call.finish()?;
    if !matches!(mode.as_str(), "reduced" | "complete" | "r") {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"
            ),
        ));
    }
    let (q, r) = a.qr(&mode)?;
    Ok(named_tuple(
        "torch.return_types.linalg_qr",
        vec![("Q", q), ("R", r)],
    ))
}

/// `linalg.svd(A, full_matrices=True)` (`U, S, Vh`) and the older `svd(some=True,
/// compute_uv=True)` (`U, S, V`, zeros for `U` and `V` without `compute_uv`).
fn svd(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    if call.binding.namespace() == "torch.linalg" {
        let full = call.bool("full_matrices")?;
        if call.string("driver")?.is_some() {
            return Err(driver_on_cpu());
        }
        call.finish()?;
        let (u, s, vh) = a.svd(full)?;
        return Ok(named_tuple(
            "torch.return_types.linalg_svd",
            vec![("U", u), ("S", s), ("Vh", vh)],
        ));
    }
    let (some, compute_uv) = (call.bool("some")?, call.bool("compute_uv")?);
    call.finish()?;
    let (u, s, vh) = a.svd(!some)?;
    let v = vh.matrix_transpose()?;
    let (u, v) = match compute_uv {
        true => (u, v),
        false => (zeros_like(&u)?, zeros_like(&v)?),
    };
    Ok(named_tuple(
        "torch.return_types.svd",
        vec![("U", u), ("S", s), ("V", v)],
    ))
}

fn zeros_like(t: &Tensor) -> Result<Tensor> {
    let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    Ok(Tensor::zeros(t.session(), &shape, t.dtype(), t.device())?)
}

/// `driver=` chooses among cuSOLVER's algorithms; PyTorch refuses it on the CPU
/// (aten/src/ATen/native/BatchLinearAlgebra.cpp, `linalg_svd`).
fn driver_on_cpu() -> PyException {
    PyException::new(
        ExcType::RuntimeError,
        "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.",
    )
}

fn svdvals(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    if call.string("driver")?.is_some() {
        return Err(driver_on_cpu());
    }
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.svdvals()?)
}

/// `eigh(A, UPLO='L')` and `eigvalsh`: the triangle named by `UPLO` is the one read.
fn eigh(call: &Call, _: &Session) -> Result<Value> {
    let a = call.input()?;
    let uplo = call.string("UPLO")?.unwrap_or_else(|| "L".into());
    let out = out_tensor(call)?;
    call.finish()?;
    let a = match uplo.as_str() {
        "L" | "l" => a,
        "U" | "u" => a.matrix_transpose()?,
        _ => {
            return Err(PyException::new(
                ExcType::RuntimeError,
                format!("Expected UPLO argument to be 'L' or 'U', but got {uplo}"),
            ));
        }
    };
    let (values, vectors) = a.eigh()?;
    match call.binding.name() {
        "eigvalsh" => into_out(call, out, values),
        _ => Ok(named_tuple(
            "torch.return_types.linalg_eigh",
            vec![("eigenvalues", values), ("eigenvectors", vectors)],
        )),
    }
}

/// `linalg.pinv(A, *, rtol=None, hermitian=False)` and `pinverse(rcond=1e-15)` (a relative
/// cut-off under either name); `atol=` and tensor tolerances are not in the lab yet, and the
/// parser refuses them as unread.
fn pinv(call: &Call, _: &Session) -> Result<Value> {
    let a = call.input()?;
    let rtol = match call.signature().position("rcond") {
        Some(_) if call.binding.namespace() != "torch.linalg" => Some(call.float("rcond")?),
        _ if call.signature().position("rtol").is_some() && call.overload == 1 => {
            match call.get("rtol").map(Value::resolved).as_deref() {
                None | Some(Value::None) => None,
                Some(_) => Some(call.float("rtol")?),
            }
        }
        _ => None,
    };
    // hermitian=True reads only the lower triangle, as PyTorch's eigh path does; the
    // pseudo-inverse of that symmetric matrix is the SVD's.
    let a = match call.signature().position("hermitian").is_some() && call.bool("hermitian")? {
        true => a
            .triangle(false, 0)?
            .add(&a.triangle(false, -1)?.matrix_transpose()?)?,
        false => a,
    };
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.pinv(rtol)?)
}

fn matrix_rank(call: &Call, _: &Session) -> Result<Value> {
    let a = call.input()?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.matrix_rank()?)
}

/// `lstsq(A, B)`: on the CPU PyTorch's default driver `gelsy` gives the solution and the rank,
/// and empty residuals and singular values.
fn lstsq(call: &Call, _: &Session) -> Result<Value> {
    let (a, b) = (call.input()?, call.tensor("b")?);
    call.finish()?;
    let solution = a.lstsq(&b)?;
    let rank = a.matrix_rank()?;
    let empty = |t: &Tensor| Tensor::zeros(t.session(), &[0], t.dtype(), t.device());
    Ok(named_tuple(
        "torch.return_types.linalg_lstsq",
        vec![
            ("solution", solution),
            ("residuals", empty(&a)?),
            ("rank", rank),
            ("singular_values", empty(&a)?),
        ],
    ))
}

/// The input cast to `dtype=` first, as the norms take it.
fn norm_input(call: &Call) -> Result<Tensor> {
    let t = call.input()?;
    Ok(t.cast_for_reduction(call.dtype("dtype")?)?)
}

fn vector_norm(call: &Call, _: &Session) -> Result<Value> {
    let t = norm_input(call)?;
    let ord = call.scalar("ord")?.as_f64();
    let dims = call.opt_int_list("dim")?.unwrap_or_default();
    let keepdim = call.bool("keepdim")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, t.vector_norm(ord, &dims, keepdim)?)
}

fn matrix_norm(call: &Call, _: &Session) -> Result<Value> {
    let t = norm_input(call)?;
    let ord = order(call, "ord")?.unwrap_or_else(|| Order::Named("fro".into()));
    let dims = matrix_dims(&call.int_list("dim")?)?;
    let keepdim = call.bool("keepdim")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(
        call,
        out,
        t.matrix_norm(matrix_order(&ord)?, dims, keepdim)?,
    )
}

/// `linalg.norm(A, ord=None, dim=None)`: without `ord`, the 2-norm of every element (over
/// `dim` when given); with `ord`, a vector norm for one dim (or a 1-D input) and a matrix norm
/// for two (or a 2-D input).
fn linalg_norm(call: &Call, _: &Session) -> Result<Value> {
    let t = norm_input(call)?;
    let ord = order(call, "ord")?;
    let dims = call.opt_int_list("dim")?;
    let keepdim = call.bool("keepdim")?;
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match (ord, dims) {
        (None, dims) => t.vector_norm(2.0, dims.as_deref().unwrap_or(&[]), keepdim)?,
        (Some(ord), Some(dims)) if dims.len() == 2 => {
            t.matrix_norm(matrix_order(&ord)?, matrix_dims(&dims)?, keepdim)?
        }
        (Some(Order::Number(p)), Some(dims)) => t.vector_norm(p, &dims, keepdim)?,
        (Some(ord), None) if t.dim() == 2 => {
            t.matrix_norm(matrix_order(&ord)?, (-2, -1), keepdim)?
        }
        (Some(Order::Number(p)), None) if t.dim() == 1 => t.vector_norm(p, &[], keepdim)?,
        // A named order is a matrix norm's, whatever the dims.
        (Some(ord @ Order::Named(_)), Some(dims)) => {
            if t.dim() < 2 {
                return Err(Error::from(ReduceError::MatrixNormRank).into());
            }
            t.matrix_norm(matrix_order(&ord)?, matrix_dims(&dims)?, keepdim)?
        }
        (Some(_), _) => {
            return Err(Error::from(ReduceError::NormRank { ndim: t.dim() }).into());
        }
    };
    into_out(call, out, result)
}

fn diagonal(call: &Call, _: &Session) -> Result<Value> {
    let a = matrix(call)?;
    let (offset, dim1, dim2) = (call.int("offset")?, call.int("dim1")?, call.int("dim2")?);
    call.finish()?;
    Ok(Value::Tensor(a.diagonal(offset, dim1, dim2)?))
}

fn matmul(call: &Call, _: &Session) -> Result<Value> {
    let (a, b) = (call.input()?, call.tensor("other")?);
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, a.matmul(&b)?)
}

/// What PyTorch says for a function it removed in favour of `torch.linalg`'s
/// (torch/_linalg_utils.py).
fn removed(call: &Call, _: &Session) -> Result<Value> {
    let text = match call.binding.name() {
        "cholesky" => "This function was deprecated since version 1.9 and is now removed. `torch.cholesky` is deprecated in favor of `torch.linalg.cholesky`.\nL = torch.cholesky(A) should be replaced with:\nL = torch.linalg.cholesky(A)\nU = torch.cholesky(A, upper=True) should be replaced with:\nU = torch.linalg.cholesky(A).mH".to_owned(),
        _ => {
            let some = call.truthy("some")?;
            format!(
                "This function was deprecated since version 1.9 and is now removed. `torch.qr` is deprecated in favor of `torch.linalg.qr` and the boolean parameter `some` has been replaced with a string parameter `mode`.\n\nQ, R = torch.qr(A) should be replaced with:\nQ, R = torch.linalg.qr(A, mode='reduced')\n\nand\n\nQ, R = torch.qr(A, some=False) should be replaced with:\nQ, R = torch.linalg.qr(A, mode='complete')\n\nSince `some` was set to {}, use mode='{}'.",
                if some { "True" } else { "False" },
                if some { "reduced" } else { "complete" }
            )
        }
    };
    Err(PyException::new(ExcType::RuntimeError, text))
}
