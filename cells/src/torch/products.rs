//! The products beyond `@`: `torch.einsum` (equation strings and the sublist form),
//! `tensordot`, `inner`, `kron`, `vdot`, `linalg.vecdot`, `linalg.multi_dot`, `chain_matmul`,
//! `matrix_power`, `cross`, and the products added to an input (`addmm`, `addmv`, `addr`,
//! `baddbmm`, `addbmm`, with `beta`, `alpha`, in place and `out=`). The engine composes them as ATen does
//! (`tolab_engine::ops::{einsum, products}`); this module reads PyTorch's Python-level
//! arguments (`torch/functional.py` for `einsum`, `tensordot`, `chain_matmul`).

use tolab_engine::ops::AddProduct;
use tolab_engine::{Session, Tensor};

use super::ops::{into_out, out_tensor, tensor_value};
use super::parse::{tensor_items, tp_name};
use super::{Call, Handler};
use crate::python::exception::{ExcType, PyException};
use crate::python::operators::iterate;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.einsum", Handler::Engine(einsum)),
    ("torch.tensordot", Handler::Engine(tensordot)),
    ("torch.inner", Handler::Engine(pair)),
    ("Tensor.inner", Handler::Engine(pair)),
    ("torch.kron", Handler::Engine(pair)),
    ("Tensor.kron", Handler::Engine(pair)),
    ("torch.vdot", Handler::Engine(pair)),
    ("Tensor.vdot", Handler::Engine(pair)),
    ("torch.linalg.vecdot", Handler::Engine(vecdot)),
    ("torch.linalg.multi_dot", Handler::Engine(multi_dot)),
    ("torch.chain_matmul", Handler::Engine(chain_matmul)),
    ("torch.matrix_power", Handler::Engine(matrix_power)),
    ("Tensor.matrix_power", Handler::Engine(matrix_power)),
    ("torch.linalg.matrix_power", Handler::Engine(matrix_power)),
    ("torch.cross", Handler::Engine(cross)),
    ("Tensor.cross", Handler::Engine(cross)),
    ("torch.linalg.cross", Handler::Engine(cross)),
    ("torch.addmm", Handler::Engine(add_product)),
    ("Tensor.addmm", Handler::Engine(add_product)),
    ("Tensor.addmm_", Handler::Engine(add_product)),
    ("torch.addmv", Handler::Engine(add_product)),
    ("Tensor.addmv", Handler::Engine(add_product)),
    ("torch.addmv_", Handler::Engine(add_product)),
    ("Tensor.addmv_", Handler::Engine(add_product)),
    ("torch.addr", Handler::Engine(add_product)),
    ("Tensor.addr", Handler::Engine(add_product)),
    ("Tensor.addr_", Handler::Engine(add_product)),
    ("torch.baddbmm", Handler::Engine(add_product)),
    ("Tensor.baddbmm", Handler::Engine(add_product)),
    ("Tensor.baddbmm_", Handler::Engine(add_product)),
    ("torch.addbmm", Handler::Engine(add_product)),
    ("Tensor.addbmm", Handler::Engine(add_product)),
    ("Tensor.addbmm_", Handler::Engine(add_product)),
];

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// `torch.einsum(*args)`: `(equation, *operands)`, `(equation, [operands])`, or the sublist
/// form `(op, [0, 1], op, [1, 2], [0, 2])` turned into an equation as `torch/functional.py`
/// turns it (subscripts 0–25 are `A`–`Z`, 26–51 `a`–`z`, `...` is `Ellipsis`).
fn einsum(call: &Call, _: &Session) -> Result<Value> {
    let args = call.rest().to_vec();
    call.finish()?;
    if args.len() < 2 {
        return Err(PyException::new(
            ExcType::ValueError,
            "einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list",
        ));
    }
    let (equation, mut operands) = match &*args[0].resolved() {
        Value::Tensor(_) => {
            let lists: Vec<String> = args[1..]
                .iter()
                .step_by(2)
                .map(sublist)
                .collect::<Result<_>>()?;
            let mut equation = lists.join(",");
            if args.len() % 2 == 1 {
                equation.push_str("->");
                equation.push_str(&sublist(&args[args.len() - 1])?);
            }
            let end = args.len() - args.len() % 2;
            (equation, args[..end].iter().step_by(2).cloned().collect())
        }
        Value::Str(s) => (s.to_string(), args[1..].to_vec()),
        other => {
            return Err(type_error(format!(
                "einsum(): argument 'equation' (position 1) must be str, not {}",
                tp_name(other)
            )));
        }
    };
    if let [one] = operands.as_slice()
        && matches!(&*one.resolved(), Value::List(_) | Value::Tuple(_))
    {
        operands = iterate(one)?;
    }
    let tensors = tensor_items(&operands, 1)?;
    tensor_value(Tensor::einsum(&equation, &tensors)?)
}

/// One subscript list of einsum's sublist form, as equation letters.
fn sublist(list: &Value) -> Result<String> {
    let mut letters = String::new();
    for item in iterate(list)? {
        match &*item.resolved() {
            v if v.is_ellipsis() => letters.push_str("..."),
            Value::Int(n) if (0..26).contains(n) => letters.push(char::from(b'A' + *n as u8)),
            Value::Int(n) if (26..52).contains(n) => {
                letters.push(char::from(b'a' + (*n - 26) as u8));
            }
            Value::Int(_) | Value::BigInt(_) => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "einsum(): subscript in subscript list is not within the valid range [0, 52)",
                ));
            }
            other => {
                return Err(type_error(format!(
                    "'>=' not supported between instances of '{}' and 'int'",
                    tp_name(other)
                )));
            }
        }
    }
    Ok(letters)
}

/// `torch.tensordot(a, b, dims=2, out=None)`: `dims` an int (the last `dims` of `a` with the
/// first of `b`), a pair of lists, or a tensor of either.
fn tensordot(call: &Call, _: &Session) -> Result<Value> {
    let (a, b) = (call.tensor("a")?, call.tensor("b")?);
    let dims = call.value("dims")?.unwrap_or(Value::Int(2));
    let out = call.opt_tensor("out")?;
    call.finish()?;
    let count = |n: i64| -> Result<(Vec<i64>, Vec<i64>)> {
        if n < 0 {
            return Err(runtime(format!(
                "tensordot expects dims >= 0, but got dims={n}"
            )));
        }
        Ok(((-n..0).collect(), (0..n).collect()))
    };
    let (dims_a, dims_b) = match &*dims.resolved() {
        Value::Int(n) => {
            if *n > a.dim().min(b.dim()) as i64 {
                return Err(runtime(format!(
                    "tensordot expects dims < ndim_a or ndim_b, but got dims={n}"
                )));
            }
            count(*n)?
        }
        Value::Tensor(t) if t.numel() <= 1 => count(t.item()?.as_f64() as i64)?,
        Value::Tensor(t) => {
            if t.shape()[0] != 2 {
                return Err(PyException::new(
                    ExcType::AssertionError,
                    format!(
                        "dims tensor must have size 2 in first dimension, got {}",
                        t.shape()[0]
                    ),
                ));
            }
            let rows = t.unbind(0)?;
            (int_list(&rows[0])?, int_list(&rows[1])?)
        }
        Value::List(_) | Value::Tuple(_) => {
            let pair = iterate(&dims)?;
            let [first, second] = pair.as_slice() else {
                let message = match pair.len() {
                    n if n < 2 => format!("not enough values to unpack (expected 2, got {n})"),
                    _ => "too many values to unpack (expected 2)".to_string(),
                };
                return Err(PyException::new(ExcType::ValueError, message));
            };
            (dims_list(first, 3)?, dims_list(second, 4)?)
        }
        other => {
            return Err(runtime(format!(
                "tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] containing two lists, but got dims={}",
                other.repr()
            )));
        }
    };
    into_out(call, out, a.tensordot(&b, &dims_a, &dims_b)?)
}

fn runtime(message: String) -> PyException {
    PyException::new(ExcType::RuntimeError, message)
}

/// The values of an integer tensor, as `Tensor.tolist()` gives them.
fn int_list(t: &Tensor) -> Result<Vec<i64>> {
    Ok(t.scalars()?.iter().map(|s| s.as_f64() as i64).collect())
}

/// One of tensordot's two dimension lists, checked as `_VF.tensordot` parses `int[]`.
fn dims_list(v: &Value, position: usize) -> Result<Vec<i64>> {
    let name = match position {
        3 => "dims_self",
        _ => "dims_other",
    };
    let not_ints = |got: &Value| {
        type_error(format!(
            "tensordot(): argument '{name}' (position {position}) must be tuple of ints, not {}",
            tp_name(got)
        ))
    };
    match &*v.resolved() {
        Value::List(_) | Value::Tuple(_) => iterate(v)?
            .iter()
            .map(|item| match &*item.resolved() {
                Value::Int(n) => Ok(*n),
                _ => Err(not_ints(v)),
            })
            .collect(),
        other => Err(not_ints(other)),
    }
}

/// `inner`, `kron` and `vdot`: `(input, other)`, with `out=` on the `torch` functions.
fn pair(call: &Call, _: &Session) -> Result<Value> {
    let (t, other) = (call.input()?, call.tensor("other")?);
    let out = out_tensor(call)?;
    call.finish()?;
    let result = match call.binding.name() {
        "inner" => t.inner(&other)?,
        "kron" => t.kron(&other)?,
        _ => t.vdot(&other)?,
    };
    into_out(call, out, result)
}

fn vecdot(call: &Call, _: &Session) -> Result<Value> {
    let (x, y) = (call.tensor("x")?, call.tensor("y")?);
    let dim = call.int("dim")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, x.vecdot(&y, dim)?)
}

fn multi_dot(call: &Call, _: &Session) -> Result<Value> {
    let tensors = call.tensors("tensors")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(
        call,
        out,
        Tensor::multi_dot(&tensors.iter().collect::<Vec<_>>())?,
    )
}

/// `torch.chain_matmul(*matrices, out=None)`, deprecated with PyTorch's warning.
fn chain_matmul(call: &Call, session: &Session) -> Result<Value> {
    let matrices = tensor_items(call.rest(), 0)?;
    let out = call.opt_tensor("out")?;
    call.finish()?;
    session.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple parameters.",
    );
    into_out(
        call,
        out,
        Tensor::chain_matmul(&matrices.iter().collect::<Vec<_>>())?,
    )
}

fn matrix_power(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let n = call.int("n")?;
    let out = out_tensor(call)?;
    call.finish()?;
    into_out(call, out, t.matrix_power(n)?)
}

/// `linalg.cross(input, other, *, dim=-1)` and `torch.cross(input, other, dim=None)`, whose
/// missing `dim` is the first of size 3, with PyTorch's deprecation warning.
fn cross(call: &Call, session: &Session) -> Result<Value> {
    let (t, other) = (call.input()?, call.tensor("other")?);
    let dim = match call.binding.namespace() {
        "torch.linalg" => Some(call.int("dim")?),
        _ => call.opt_int("dim")?,
    };
    let out = out_tensor(call)?;
    call.finish()?;
    let dim = match dim {
        Some(d) => d,
        None => {
            session.warn(
                "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross in a future release.",
            );
            t.cross_default_dim()?
        }
    };
    into_out(call, out, t.linalg_cross(&other, dim)?)
}

/// `addmm`, `addmv`, `addr`, `baddbmm`, `addbmm` (and their deprecated positional `beta`,
/// `alpha` forms): `beta * input + alpha * product`, in place for the `_` forms.
fn add_product(call: &Call, _: &Session) -> Result<Value> {
    let t = call.input()?;
    let name = call.binding.name();
    let kind = match name.trim_end_matches('_') {
        "addmm" => AddProduct::Mm,
        "addmv" => AddProduct::Mv,
        "addr" => AddProduct::Outer,
        "baddbmm" => AddProduct::Bmm,
        _ => AddProduct::SummedBmm,
    };
    let (first, second) = kind.factors();
    let (a, b) = (call.tensor(first)?, call.tensor(second)?);
    // The deprecated `addmm(beta, input, mat1, mat2)` has no `alpha`.
    let alpha = match call.signature().position("alpha") {
        Some(_) => call.scalar("alpha")?,
        None => tolab_engine::Scalar::Int(1),
    };
    let beta = call.scalar("beta")?;
    let out = out_tensor(call)?;
    call.finish()?;
    if name.ends_with('_') {
        let others = vec![Some(a.clone()), Some(b.clone())];
        let done = t.in_place(|x| x.add_product(kind, &a, &b, beta, alpha), others)?;
        return tensor_value(done.clone());
    }
    into_out(call, out, t.add_product(kind, &a, &b, beta, alpha)?)
}
