//! The builtin functions learners use: `print len range str int float bool abs min max sum round
//! list tuple repr type enumerate zip sorted`.

use std::rc::Rc;

use super::eval::{Args, Interpreter};
use super::exception::{ExcType, PyException};
use super::operators::{compare, iterate};
use super::value::{Value, as_f64};

const NAMES: &[&str] = &[
    "print",
    "len",
    "range",
    "str",
    "int",
    "float",
    "bool",
    "abs",
    "min",
    "max",
    "sum",
    "round",
    "list",
    "tuple",
    "repr",
    "type",
    "enumerate",
    "zip",
    "sorted",
    "super",
];

/// A builtin by name, for name lookup after locals and globals.
pub fn lookup(name: &str) -> Option<Value> {
    NAMES
        .iter()
        .find(|n| **n == name)
        .map(|n| Value::Builtin(n))
}

fn arity(name: &str, args: &Args, min: usize, max: usize) -> Result<(), PyException> {
    let n = args.positional.len();
    if n < min || n > max {
        let expected = if min == max {
            format!("exactly {min} argument{}", if min == 1 { "" } else { "s" })
        } else {
            format!("at most {max} arguments")
        };
        return Err(PyException::new(
            ExcType::TypeError,
            format!("{name}() takes {expected} ({n} given)"),
        ));
    }
    Ok(())
}

pub fn call(interp: &mut Interpreter, name: &str, args: Args) -> Result<Value, PyException> {
    let first = || args.positional.first().cloned().unwrap_or(Value::None);
    Ok(match name {
        "print" => {
            let sep = args.keyword("sep").map_or(" ".into(), Value::str_text);
            let end = args.keyword("end").map_or("\n".into(), Value::str_text);
            let text: Vec<String> = args.positional.iter().map(Value::str_text).collect();
            interp.stdout.push_str(&text.join(&sep));
            interp.stdout.push_str(&end);
            Value::None
        }
        "len" => {
            arity(name, &args, 1, 1)?;
            let v = first();
            let n = match &v {
                Value::Str(s) => s.chars().count(),
                Value::Tensor(t) if t.dim() == 0 => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "len() of a 0-d tensor",
                    ));
                }
                Value::Tensor(t) => t.shape()[0],
                other => iterate(other)
                    .map_err(|_| {
                        PyException::new(
                            ExcType::TypeError,
                            format!("object of type '{}' has no len()", other.type_name()),
                        )
                    })?
                    .len(),
            };
            Value::Int(n as i64)
        }
        "range" => {
            arity(name, &args, 1, 3)?;
            let ints: Vec<i64> = args
                .positional
                .iter()
                .map(|v| match v {
                    Value::Int(i) => Ok(*i),
                    Value::Bool(b) => Ok(i64::from(*b)),
                    other => Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "'{}' object cannot be interpreted as an integer",
                            other.type_name()
                        ),
                    )),
                })
                .collect::<Result<_, _>>()?;
            let (start, stop, step) = match ints.as_slice() {
                [stop] => (0, *stop, 1),
                [start, stop] => (*start, *stop, 1),
                [start, stop, step] => (*start, *stop, *step),
                _ => (0, 0, 1),
            };
            if step == 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "range() arg 3 must not be zero",
                ));
            }
            Value::Range { start, stop, step }
        }
        "str" => Value::str(
            &args
                .positional
                .first()
                .map_or(String::new(), Value::str_text),
        ),
        "repr" => {
            arity(name, &args, 1, 1)?;
            Value::str(&first().repr())
        }
        "int" => match first() {
            Value::Float(x) if x.is_finite() => Value::Int(x.trunc() as i64),
            Value::Int(i) => Value::Int(i),
            Value::Bool(b) => Value::Int(i64::from(b)),
            Value::Str(s) => Value::Int(s.trim().parse().map_err(|_| {
                PyException::new(
                    ExcType::ValueError,
                    format!(
                        "invalid literal for int() with base 10: {}",
                        Value::Str(s.clone()).repr()
                    ),
                )
            })?),
            Value::Tensor(t) => Value::Int(t.item()?.as_f64() as i64),
            Value::None if args.positional.is_empty() => Value::Int(0),
            other => return Err(conversion_error("int", &other)),
        },
        "float" => match first() {
            Value::Int(_) | Value::Bool(_) | Value::Float(_) => Value::Float(as_f64(&first())),
            Value::Str(s) => Value::Float(s.trim().parse().map_err(|_| {
                PyException::new(
                    ExcType::ValueError,
                    format!(
                        "could not convert string to float: {}",
                        Value::Str(s.clone()).repr()
                    ),
                )
            })?),
            Value::Tensor(t) => Value::Float(t.item()?.as_f64()),
            Value::None if args.positional.is_empty() => Value::Float(0.0),
            other => return Err(conversion_error("float", &other)),
        },
        "bool" => Value::Bool(first().truthy()),
        "abs" => match first() {
            Value::Int(i) => Value::Int(i.abs()),
            Value::Float(x) => Value::Float(x.abs()),
            Value::Tensor(t) => Value::Tensor(t.abs()?),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("bad operand type for abs(): '{}'", other.type_name()),
                ));
            }
        },
        "min" | "max" => {
            let items = if args.positional.len() == 1 {
                iterate(&first())?
            } else {
                args.positional.clone()
            };
            let op = if name == "min" {
                ruff_python_ast::CmpOp::Lt
            } else {
                ruff_python_ast::CmpOp::Gt
            };
            let mut best: Option<Value> = None;
            for item in items {
                best = Some(match best {
                    None => item,
                    Some(b) if compare(op, &item, &b)?.truthy() => item,
                    Some(b) => b,
                });
            }
            best.ok_or_else(|| {
                PyException::new(
                    ExcType::ValueError,
                    format!("{name}() arg is an empty sequence"),
                )
            })?
        }
        "sum" => {
            let mut total = args.positional.get(1).cloned().unwrap_or(Value::Int(0));
            for item in iterate(&first())? {
                total =
                    super::operators::binary(ruff_python_ast::Operator::Add, &total, &item, false)?;
            }
            total
        }
        "round" => {
            let x = as_f64(&first());
            match args.positional.get(1) {
                Some(Value::Int(digits)) => {
                    let scale = 10f64.powi(*digits as i32);
                    Value::Float(round_half_even(x * scale) / scale)
                }
                _ => Value::Int(round_half_even(x) as i64),
            }
        }
        "list" => Value::list(match args.positional.first() {
            Some(v) => iterate(v)?,
            None => Vec::new(),
        }),
        "tuple" => Value::Tuple(match args.positional.first() {
            Some(v) => iterate(v)?.into(),
            None => Rc::from(Vec::new()),
        }),
        "type" => {
            arity(name, &args, 1, 1)?;
            Value::str(&format!("<class '{}'>", qualified_type(&first())))
        }
        "enumerate" => {
            let start = match args.get(1, "start") {
                Some(Value::Int(s)) => *s,
                _ => 0,
            };
            Value::list(
                iterate(&first())?
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| Value::Tuple(Rc::from(vec![Value::Int(start + i as i64), v])))
                    .collect(),
            )
        }
        "zip" => {
            let columns: Vec<Vec<Value>> = args
                .positional
                .iter()
                .map(iterate)
                .collect::<Result<_, _>>()?;
            let n = columns.iter().map(Vec::len).min().unwrap_or(0);
            Value::list(
                (0..n)
                    .map(|i| Value::Tuple(columns.iter().map(|c| c[i].clone()).collect()))
                    .collect(),
            )
        }
        "sorted" => {
            let mut items = iterate(&first())?;
            let mut failure = None;
            items.sort_by(|a, b| match compare(ruff_python_ast::CmpOp::Lt, a, b) {
                Ok(v) if v.truthy() => std::cmp::Ordering::Less,
                Ok(_) => match compare(ruff_python_ast::CmpOp::Gt, a, b) {
                    Ok(v) if v.truthy() => std::cmp::Ordering::Greater,
                    _ => std::cmp::Ordering::Equal,
                },
                Err(e) => {
                    failure.get_or_insert(e);
                    std::cmp::Ordering::Equal
                }
            });
            if let Some(e) = failure {
                return Err(e);
            }
            if args.keyword("reverse").is_some_and(Value::truthy) {
                items.reverse();
            }
            Value::list(items)
        }
        other => {
            return Err(PyException::new(
                ExcType::NameError,
                format!("name '{other}' is not defined"),
            ));
        }
    })
}

fn conversion_error(target: &str, v: &Value) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "{target}() argument must be a string or a real number, not '{}'",
            v.type_name()
        ),
    )
}

/// Python 3's `round`: halves go to the even neighbour.
fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// `type(x)` as `<class '...'>` shows it.
fn qualified_type(v: &Value) -> String {
    match v {
        Value::Tensor(_) => "torch.Tensor".into(),
        Value::Device(_) => "torch.device".into(),
        Value::DType(_) => "torch.dtype".into(),
        Value::Size(_) => "torch.Size".into(),
        other => other.type_name(),
    }
}
