//! `default_collate`: a list of samples into one batch, as `torch/utils/data/_utils/collate.py`
//! does it: tensors stacked, Python floats into a float64 tensor, ints into int64, bools into
//! bool, strings kept as a list, dicts collated per key, tuples and lists transposed (a batch of
//! `(x, y)` pairs becomes the list `[X, Y]`).

use crate::device::Device;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::session::Session;
use crate::tensor::Tensor;
use crate::value::Value;

pub fn default_collate(session: &Session, batch: Vec<Value>) -> Result<Value, Error> {
    let Some(first) = batch.first().cloned() else {
        return Ok(Value::List(Vec::new()));
    };
    match first {
        Value::Tensor(t) => {
            let tensors: Vec<Tensor> = batch
                .into_iter()
                .map(|v| match v {
                    Value::Tensor(t) => Ok(t),
                    other => Err(Error::CollateType {
                        type_name: other.type_name(),
                    }),
                })
                .collect::<Result<_, _>>()?;
            let refs: Vec<&Tensor> = tensors.iter().collect();
            Ok(Value::Tensor(
                t.session().no_grad(|| Tensor::stack(&refs, 0))?,
            ))
        }
        Value::Float(_) | Value::Int(_) | Value::Bool(_) => numbers(session, &first, &batch),
        Value::Str(_) => Ok(Value::List(batch)),
        Value::Dict(entries) => {
            let mut out = Vec::new();
            for (key, _) in entries {
                let column = batch
                    .iter()
                    .map(|sample| match sample {
                        Value::Dict(e) => e
                            .iter()
                            .find(|(k, _)| *k == key)
                            .map(|(_, v)| v.clone())
                            .ok_or(Error::CollateUnequalSizes),
                        other => Err(Error::CollateType {
                            type_name: other.type_name(),
                        }),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                out.push((key, default_collate(session, column)?));
            }
            Ok(Value::Dict(out))
        }
        Value::Tuple(items) | Value::List(items) => {
            let width = items.len();
            let mut columns: Vec<Vec<Value>> = vec![Vec::new(); width];
            for sample in batch {
                let (Value::Tuple(fields) | Value::List(fields)) = sample else {
                    return Err(Error::CollateType {
                        type_name: sample.type_name(),
                    });
                };
                if fields.len() != width {
                    return Err(Error::CollateUnequalSizes);
                }
                for (column, field) in columns.iter_mut().zip(fields) {
                    column.push(field);
                }
            }
            Ok(Value::List(
                columns
                    .into_iter()
                    .map(|column| default_collate(session, column))
                    .collect::<Result<_, _>>()?,
            ))
        }
        Value::None | Value::Module(_) => Err(Error::CollateType {
            type_name: first.type_name(),
        }),
    }
}

/// `torch.tensor(batch)` of Python numbers: float64 for floats (`default_collate`'s choice),
/// int64 for ints, bool for bools.
fn numbers(session: &Session, first: &Value, batch: &[Value]) -> Result<Value, Error> {
    let dtype = match first {
        Value::Float(_) => DType::Float64,
        Value::Bool(_) => DType::Bool,
        _ => DType::Int64,
    };
    let scalars = batch
        .iter()
        .map(|v| match v {
            Value::Float(x) => Ok(Scalar::Float(*x)),
            Value::Int(i) => Ok(Scalar::Int(*i)),
            Value::Bool(b) => Ok(Scalar::Bool(*b)),
            other => Err(Error::CollateType {
                type_name: other.type_name(),
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tensor = Tensor::from_scalars(
        session,
        &scalars,
        &[scalars.len()],
        Some(dtype),
        Device::CPU,
        false,
    )?;
    Ok(Value::Tensor(tensor))
}
