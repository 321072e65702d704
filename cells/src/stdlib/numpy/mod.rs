//! `numpy`, as much of it as PyTorch tutorials use: the `ndarray` (over the engine's CPU
//! storage, so that `torch.from_numpy` and `Tensor.numpy` share memory as in PyTorch), dtypes,
//! making arrays, indexing, ufuncs with broadcasting and NumPy 2's promotion, reductions,
//! printing as NumPy 2.4 prints, and `np.random`'s legacy generator. What the lab does not
//! have raises an `AttributeError` that says whether NumPy has it.
//!
//! - [`dtype`]: types and promotion; [`array`]: the array, its memory and element lanes;
//! - [`convert`]: values to arrays and back; [`bridge`]: the bridge with torch;
//! - [`ufunc`]: elementwise work; [`reduce`]: reductions; [`index`]: indexing;
//! - [`functions`], [`shapes`]: the `numpy` functions; [`methods`]: arrays' methods;
//! - [`views`]: reshaping and transposing without copying;
//! - [`format`]: printing; [`random`]: `np.random`; [`params`]: reading arguments;
//! - this file: the module's names and the operators Python applies to arrays.

pub mod array;
pub mod bridge;
pub mod convert;
pub mod dtype;
pub mod format;
pub mod functions;
pub mod index;
pub mod methods;
pub mod params;
pub mod random;
pub mod reduce;
pub mod shapes;
pub mod ufunc;
pub mod views;

use std::rc::Rc;

use ruff_python_ast::{CmpOp, Operator, UnaryOp};
use tolab_engine::Session;

use self::array::{NdArray, NpScalar, Num, Result};
use self::convert::{arg_of, wrap};
use self::dtype::NpDType;
use self::ufunc::{Binary, Unary};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

/// `np.random`'s functions.
pub const RANDOM: &[&str] = &[
    "seed",
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "normal",
    "uniform",
    "shuffle",
    "permutation",
    "choice",
];

/// The scalar types by the names `numpy` gives them.
const TYPES: &[(&str, NpDType)] = &[
    ("bool", NpDType::Bool),
    ("bool_", NpDType::Bool),
    ("uint8", NpDType::UInt8),
    ("int8", NpDType::Int8),
    ("byte", NpDType::Int8),
    ("ubyte", NpDType::UInt8),
    ("int16", NpDType::Int16),
    ("short", NpDType::Int16),
    ("int32", NpDType::Int32),
    ("int64", NpDType::Int64),
    ("int_", NpDType::Int64),
    ("intp", NpDType::Int64),
    ("float16", NpDType::Float16),
    ("half", NpDType::Float16),
    ("float32", NpDType::Float32),
    ("single", NpDType::Float32),
    ("float64", NpDType::Float64),
    ("double", NpDType::Float64),
];

const CONSTANTS: &[&str] = &[
    "pi", "e", "inf", "nan", "newaxis", "ndarray", "random", "True_", "False_",
];

/// The public names of NumPy 2.4 (`numpy`, `numpy.random`, `numpy.ndarray`), to tell "NumPy
/// has it, the lab does not yet" from a typo (`tests/golden/numpy_generate.py` writes it).
const NUMPY_NAMES: &str = include_str!("names.txt");

/// Per notebook: `np.random`'s state (shared with the interpreters a notebook's generators
/// run in; the print options live with [`format`]).
pub struct State {
    pub random: Rc<std::cell::RefCell<random::RandomState>>,
    /// Whether this is the notebook's own state (not a generator's share of it): the owner
    /// lets go of the session it named when it goes.
    owner: bool,
}

impl State {
    /// A new notebook's numpy: default print options, an unseeded generator, and `session`
    /// as where arrays made from NumPy scalars live.
    pub fn new(session: &Session) -> State {
        format::set_options(format::PrintOptions::default());
        enter(session);
        State {
            random: Rc::default(),
            owner: true,
        }
    }

    /// The same state, for an interpreter a generator runs in.
    pub fn share(&self) -> State {
        State {
            random: self.random.clone(),
            owner: false,
        }
    }
}

thread_local! {
    /// The notebook's session, for arrays a NumPy scalar's array methods make (a scalar holds
    /// no memory, so it has no session of its own).
    static SESSION: std::cell::RefCell<Option<Session>> = const { std::cell::RefCell::new(None) };
}

/// A notebook's numpy goes with it: the session it named is let go (a session must not
/// outlive its thread's other state, as one kept in a thread-local would).
impl Drop for State {
    fn drop(&mut self) {
        if self.owner {
            let _ = SESSION.try_with(|s| s.borrow_mut().take());
        }
    }
}

/// Names `session` as the one a running notebook's NumPy scalars make arrays in.
pub fn enter(session: &Session) {
    SESSION.with(|s| *s.borrow_mut() = Some(session.clone()));
}

/// A NumPy scalar as a 0-d array (NumPy scalars have the arrays' methods and indexing).
pub fn scalar_array(s: &NpScalar) -> Result<Rc<NdArray>> {
    let session = SESSION
        .with(|cell| cell.borrow().clone())
        .ok_or_else(|| PyException::new(ExcType::RuntimeError, "no notebook to hold an array"))?;
    let data = match s.value {
        Num::Bool(b) => array::Data::Bool(vec![b]),
        Num::Int(i) => array::Data::Int(vec![i]),
        Num::Float(x) => array::Data::Float(vec![x]),
    };
    Ok(Rc::new(NdArray::from_data(&session, data, s.dtype, &[])?))
}

/// The names of a numpy module.
pub fn names(module: &str) -> Vec<&'static str> {
    match module {
        "numpy" => functions::FUNCTIONS
            .iter()
            .copied()
            .chain(TYPES.iter().map(|(n, _)| *n))
            .chain(CONSTANTS.iter().copied())
            .collect(),
        "numpy.random" => RANDOM.to_vec(),
        _ => Vec::new(),
    }
}

/// `module.name`, if the lab has it.
pub fn attribute(module: &'static str, name: &str) -> Option<Value> {
    let function = || Value::ModuleFn(module, Rc::from(name));
    match module {
        "numpy.random" => RANDOM.contains(&name).then(function),
        _ => Some(match name {
            "pi" => Value::Float(std::f64::consts::PI),
            "e" => Value::Float(std::f64::consts::E),
            "inf" => Value::Float(f64::INFINITY),
            "nan" => Value::Float(f64::NAN),
            "newaxis" => Value::None,
            "True_" => Value::NpScalar(NpScalar::new(NpDType::Bool, Num::Bool(true))),
            "False_" => Value::NpScalar(NpScalar::new(NpDType::Bool, Num::Bool(false))),
            "ndarray" => Value::Type("numpy.ndarray"),
            "random" => Value::Module("numpy.random"),
            _ => {
                if let Some((_, d)) = TYPES.iter().find(|(n, _)| *n == name) {
                    return Some(Value::NpType(*d));
                }
                return functions::FUNCTIONS.contains(&name).then(function);
            }
        }),
    }
}

/// The error for a name the lab's numpy does not have; says so when NumPy has it.
pub fn no_attribute(module: &str, name: &str) -> PyException {
    let section = match module {
        "numpy.ndarray" => "ndarray",
        "numpy.random" => "random",
        _ => "numpy",
    };
    let known = NUMPY_NAMES
        .lines()
        .find_map(|l| l.strip_prefix(section).and_then(|l| l.strip_prefix(": ")))
        .is_some_and(|l| l.split(' ').any(|n| n == name));
    let owner = if module == "numpy.ndarray" {
        "'numpy.ndarray' object".to_owned()
    } else {
        format!("module '{module}'")
    };
    let message = if known {
        format!(
            "{owner} has no attribute '{name}' in the lab yet ({module}.{name} is in NumPy 2.4; the lab has the part of NumPy that PyTorch tutorials use)"
        )
    } else {
        format!("{owner} has no attribute '{name}'")
    };
    PyException::new(ExcType::AttributeError, message)
}

/// Calls `module.name(...)`.
pub fn call(
    session: &Session,
    state: &mut State,
    module: &str,
    name: &str,
    args: &Args,
) -> Result<Value> {
    match module {
        "numpy.random" => random::call(session, &mut state.random.borrow_mut(), name, args),
        _ => functions::call(session, name, args),
    }
}

/// Whether a value takes part in NumPy's operators.
pub fn is_numpy(v: &Value) -> bool {
    matches!(v, Value::NdArray(_) | Value::NpScalar(_))
}

/// The session an operation's new array is made in (its operands').
fn session_of(values: &[&Value]) -> Option<Session> {
    values.iter().find_map(|v| match v {
        Value::NdArray(a) => Some(a.session().clone()),
        Value::Tensor(t) => Some(t.session().clone()),
        _ => None,
    })
}

fn result_value(values: &[&Value], out: ufunc::Out) -> Result<Value> {
    if out.shape.is_empty() {
        return Ok(Value::NpScalar(NpScalar::new(out.dtype, out.data.get(0))));
    }
    let session = session_of(values)
        .ok_or_else(|| PyException::new(ExcType::RuntimeError, "no session to make an array in"))?;
    wrap(&session, out)
}

/// Python's `left op right` where one side is an array or a NumPy scalar; `in_place` for
/// `a += b` (an array is changed in place, as NumPy does).
pub fn binary(op: Operator, left: &Value, right: &Value, in_place: bool) -> Result<Value> {
    let ufunc = match op {
        Operator::Add => Binary::Add,
        Operator::Sub => Binary::Sub,
        Operator::Mult => Binary::Mul,
        Operator::Div => Binary::TrueDiv,
        Operator::FloorDiv => Binary::FloorDiv,
        Operator::Mod => Binary::Mod,
        Operator::Pow => Binary::Pow,
        Operator::BitAnd => Binary::And,
        Operator::BitOr => Binary::Or,
        Operator::BitXor => Binary::Xor,
        Operator::MatMult
            if !matches!(left, Value::NdArray(_)) && !matches!(right, Value::NdArray(_)) =>
        {
            let name = |v: &Value| match v {
                Value::NpScalar(x) => format!("numpy.{}", x.dtype.name()),
                other => other.type_name(),
            };
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "unsupported operand type(s) for @: '{}' and '{}'",
                    name(left),
                    name(right)
                ),
            ));
        }
        Operator::MatMult => {
            let session = session_of(&[left, right]).ok_or_else(|| {
                PyException::new(
                    ExcType::ValueError,
                    "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)",
                )
            })?;
            return shapes::matmul(&session, left, right, false);
        }
        _ => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "unsupported operand type(s) for {}: '{}' and '{}'",
                    op.as_str(),
                    left.type_name(),
                    right.type_name()
                ),
            ));
        }
    };
    let out = ufunc::binary(ufunc, &arg_of(left)?, &arg_of(right)?)?;
    if in_place && let Value::NdArray(target) = left {
        if out.dtype != target.dtype && NpDType::promote(out.dtype, target.dtype) != target.dtype {
            return Err(PyException::new(
                ExcType::Other("numpy._core._exceptions._UFuncOutputCastingError".into()),
                format!(
                    "Cannot cast ufunc '{}' output from dtype('{}') to dtype('{}') with casting rule 'same_kind'",
                    ufunc_name(ufunc),
                    out.dtype.name(),
                    target.dtype.name()
                ),
            ));
        }
        let shape = out.shape.clone();
        index::assign(
            target,
            &Value::Tuple(Rc::from(Vec::new())),
            out.data,
            &shape,
        )?;
        return Ok(left.clone());
    }
    result_value(&[left, right], out)
}

fn ufunc_name(op: Binary) -> &'static str {
    match op {
        Binary::Add => "add",
        Binary::Sub => "subtract",
        Binary::Mul => "multiply",
        Binary::TrueDiv => "divide",
        Binary::FloorDiv => "floor_divide",
        Binary::Mod => "remainder",
        Binary::Pow => "power",
        _ => "operator",
    }
}

/// `-a`, `+a`, `~a`, `abs(a)`.
pub fn unary(op: UnaryOp, v: &Value) -> Result<Value> {
    let u = match op {
        UnaryOp::USub => Unary::Negative,
        UnaryOp::Invert => Unary::Invert,
        UnaryOp::UAdd => return Ok(v.clone()),
        UnaryOp::Not => return Ok(Value::Bool(!truth(v)?)),
    };
    result_value(&[v], ufunc::unary(u, &arg_of(v)?)?)
}

/// `abs(a)`.
pub fn absolute(v: &Value) -> Result<Value> {
    result_value(&[v], ufunc::unary(Unary::Absolute, &arg_of(v)?)?)
}

/// `a < b` and the other comparisons, elementwise.
pub fn compare(op: CmpOp, left: &Value, right: &Value) -> Result<Value> {
    let ufunc = match op {
        CmpOp::Eq => Binary::Eq,
        CmpOp::NotEq => Binary::Ne,
        CmpOp::Lt => Binary::Lt,
        CmpOp::LtE => Binary::Le,
        CmpOp::Gt => Binary::Gt,
        CmpOp::GtE => Binary::Ge,
        _ => {
            return Err(PyException::new(
                ExcType::TypeError,
                "unsupported comparison",
            ));
        }
    };
    let (Ok(a), Ok(b)) = (arg_of(left), arg_of(right)) else {
        // Comparing with what is not a number: equality is False (elementwise), order fails.
        return match op {
            CmpOp::Eq => Ok(Value::Bool(false)),
            CmpOp::NotEq => Ok(Value::Bool(true)),
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "'{}' not supported between instances of '{}' and '{}'",
                    op.as_str(),
                    left.type_name(),
                    right.type_name()
                ),
            )),
        };
    };
    result_value(&[left, right], ufunc::binary(ufunc, &a, &b)?)
}

/// `bool(a)`: an array of one element is its element's truth; larger ones are ambiguous.
pub fn truth(v: &Value) -> Result<bool> {
    match v {
        Value::NpScalar(s) => Ok(s.value.truthy()),
        Value::NdArray(a) if a.size() == 1 => Ok(a.scalar_at(0)?.value.truthy()),
        Value::NdArray(_) => Err(PyException::new(
            ExcType::ValueError,
            "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
        )),
        other => Ok(other.truthy()),
    }
}

/// `a[index]`.
pub fn get_item(a: &NdArray, index: &Value) -> Result<Value> {
    match index::select(a, index)? {
        index::Selection::View {
            array,
            scalar: true,
        } => Ok(Value::NpScalar(array.scalar_at(0)?)),
        index::Selection::View { array, .. } => Ok(functions::array_value(array)),
        index::Selection::Gathered { positions, shape } => {
            let data = a.gather(&positions)?;
            Ok(functions::array_value(NdArray::from_data(
                a.session(),
                data,
                a.dtype,
                &shape,
            )?))
        }
    }
}

/// `a[index] = value`.
pub fn set_item(a: &NdArray, index: &Value, value: &Value) -> Result<()> {
    let arg = arg_of(value)?;
    index::assign(a, index, arg.data, &arg.shape)
}

/// The items of `a` along its first axis (what `for x in a` and `list(a)` see).
pub fn rows(a: &Rc<NdArray>) -> Result<Vec<Value>> {
    if a.ndim() == 0 {
        return Err(PyException::new(
            ExcType::TypeError,
            "iteration over a 0-d array",
        ));
    }
    (0..a.shape[0])
        .map(|i| get_item(a, &Value::Int(i as i64)))
        .collect()
}

/// A NumPy scalar as the Python number it stands for.
pub fn python_number(s: &NpScalar) -> Value {
    convert::python(s.value)
}

/// `np.float32(x)`: calling a scalar type.
pub fn call_type(session: &Session, dtype: NpDType, args: &Args) -> Result<Value> {
    functions::make_scalar(session, dtype, args)
}

/// `repr` of the lab's numpy values.
pub fn repr(v: &Value) -> String {
    match v {
        Value::NdArray(a) => {
            format::array_repr(a).unwrap_or_else(|e| format!("<array: {}>", e.message))
        }
        Value::NpScalar(s) => format::scalar_repr(s),
        Value::NpType(d) => format!(
            "<class 'numpy.{}'>",
            if *d == NpDType::Bool {
                "bool"
            } else {
                d.name()
            }
        ),
        Value::NpDType(d) => format!("dtype('{}')", d.name()),
        _ => String::new(),
    }
}

/// `str` of the lab's numpy values.
pub fn str(v: &Value) -> String {
    match v {
        Value::NdArray(a) => {
            format::array_str(a).unwrap_or_else(|e| format!("<array: {}>", e.message))
        }
        Value::NpScalar(s) => format::scalar_str(s),
        Value::NpDType(d) => d.name().to_owned(),
        other => repr(other),
    }
}
