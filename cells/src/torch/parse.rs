//! The one argument parser of every torch binding: a call's arguments checked against the
//! binding's signatures from the table, with PyTorch's rules and PyTorch's (or CPython's)
//! error texts, word for word.
//!
//! Native bindings follow `PythonArgParser` (torch/csrc/utils/python_arg_parser.cpp): overloads
//! tried in order, typed parameters, NumPy's `axis=`/`keepdims=`, `view(2, 3)` for
//! `view((2, 3))`, and `format_invalid_args` (invalid_arguments.cpp) when none fits. Python-level
//! bindings follow CPython's binding of arguments to parameters. What a handler does not read of
//! what the call gave is refused with `NotImplementedError` instead of being ignored.

use std::cell::Cell;

use tolab_engine::{DType, Device, Scalar, Tensor};

use super::signature::{Binding, Kind, Param, Signature, Type};
use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::parameters::{self, Slots};

use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// A call bound to one signature of its binding: each parameter's value, if the call gave one.
pub struct Call {
    pub binding: &'static Binding,
    /// The object a method was called on (`t` of `t.sum()`).
    receiver: Option<Value>,
    /// The overload that matched (its index in the table's order).
    pub overload: usize,
    /// The value of each parameter of the signature (`None`: not given, or None where None
    /// means the default).
    values: Vec<Option<Value>>,
    /// A Python signature's `*args` and `**kwargs`.
    rest: Vec<Value>,
    extra_keywords: Vec<(String, Value)>,
    /// Which parameters the call gave, and which of those the handler read.
    given: u64,
    read: Cell<u64>,
    /// The first positional argument as given, for a native binding: PyTorch's legacy
    /// constructor tells `new((2, 3))` (data) from `new(2, 3)` (a size) by it.
    first_positional: Option<Value>,
}

impl Call {
    /// The call, made on `receiver` (a method's object).
    pub(crate) fn with_receiver(mut self, receiver: Option<Value>) -> Call {
        self.receiver = receiver;
        self
    }

    pub fn receiver(&self) -> Option<&Value> {
        self.receiver.as_ref()
    }

    /// The tensor an op works on: the receiver of a method (`t.sum()`), or the `input`
    /// argument of the function (`torch.sum(t)`).
    pub fn input(&self) -> Result<Tensor> {
        match self.receiver.as_ref().map(Value::resolved).as_deref() {
            Some(Value::Tensor(t)) => Ok(t.clone()),
            Some(other) => Err(type_error(format!(
                "descriptor '{}' requires a 'torch._C.TensorBase' object but received a '{}'",
                self.binding.name(),
                tp_name(other)
            ))),
            None => self.tensor("input"),
        }
    }

    /// An int a Python-level parameter holds (or its default); a bool counts as one.
    pub fn int_value(&self, name: &str) -> Result<i64> {
        match self.value(name)?.as_ref() {
            Some(Value::Int(i)) => Ok(*i),
            Some(Value::Bool(b)) => Ok(i64::from(*b)),
            other => Err(self.python_type_error(name, "int", other)),
        }
    }

    /// A number a Python-level parameter holds (or its default): an int, a float, or a
    /// one-element tensor, as Python's `float()` takes them.
    pub fn number_value(&self, name: &str) -> Result<f64> {
        match self.value(name)?.as_ref() {
            Some(Value::Float(x)) => Ok(*x),
            Some(Value::Int(i)) => Ok(*i as f64),
            Some(Value::Bool(b)) => Ok(f64::from(u8::from(*b))),
            Some(Value::Tensor(t)) if t.numel() == 1 => Ok(t.item()?.as_f64()),
            other => Err(self.python_type_error(name, "float", other)),
        }
    }

    /// `f(): argument 'x' must be int, not str` for a Python-level parameter.
    fn python_type_error(&self, name: &str, expected: &str, got: Option<&Value>) -> PyException {
        type_error(format!(
            "{}(): argument '{name}' must be {expected}, not {}",
            self.signature().name,
            got.map_or("NoneType".into(), tp_name)
        ))
    }

    /// A string a Python-level parameter holds (or its default).
    pub fn string_value(&self, name: &str) -> Result<String> {
        match self.value(name)?.as_ref() {
            Some(Value::Str(s)) => Ok(s.to_string()),
            other => Err(type_error(format!(
                "{}(): argument '{name}' must be str, not {}",
                self.signature().name,
                other.map_or("NoneType".into(), tp_name)
            ))),
        }
    }

    pub fn signature(&self) -> &'static Signature {
        &self.binding.signatures[self.overload]
    }

    fn slot(&self, name: &str) -> Result<usize> {
        self.signature().position(name).ok_or_else(|| {
            internal(format!(
                "{} has no parameter '{name}' in {}",
                self.binding.key,
                self.signature().text
            ))
        })
    }

    /// The value the call gave for `name` (None where it gave None), marked as read.
    pub fn get(&self, name: &str) -> Option<&Value> {
        let at = self.signature().position(name)?;
        self.read.set(self.read.get() | 1u64 << at.min(63));
        self.values.get(at)?.as_ref()
    }

    /// Whether the call gave `name` (without reading it).
    pub fn gave(&self, name: &str) -> bool {
        self.signature()
            .position(name)
            .is_some_and(|at| self.given & (1u64 << at.min(63)) != 0)
    }

    /// The default the signature gives `name`, as written there.
    fn default(&self, name: &str) -> Result<Option<&'static str>> {
        Ok(self.signature().params[self.slot(name)?].default)
    }

    /// Whether parameter `name` holds the very first positional argument given (not a list
    /// the parser made of all of them: `new(2, 3)`).
    pub fn is_first_positional(&self, name: &str) -> bool {
        match (self.get(name), &self.first_positional) {
            (Some(v), Some(first)) => crate::python::value::identical(v, first),
            _ => false,
        }
    }

    /// A `*args` parameter's values.
    pub fn rest(&self) -> &[Value] {
        &self.rest
    }

    /// A `**kwargs` parameter's entries.
    pub fn extra_keywords(&self) -> &[(String, Value)] {
        &self.extra_keywords
    }

    /// The error for what the call gave that the handler did not read: the lab does not
    /// implement it yet, and ignoring it would compute something else than PyTorch.
    pub fn finish(&self) -> Result<()> {
        let unread = self.given & !self.read.get();
        if unread == 0 {
            return Ok(());
        }
        let at = unread.trailing_zeros() as usize;
        let name = self.signature().params.get(at).map_or("?", |p| p.name);
        Err(PyException::new(
            ExcType::NotImplementedError,
            format!(
                "{}(): the lab does not implement the argument '{name}' yet",
                self.binding.key
            ),
        ))
    }

    /// Reads `name` as a tensor (a Python number where PyTorch allows one, as a 0-dim tensor
    /// made by `wrap`).
    pub fn tensor(&self, name: &str) -> Result<Tensor> {
        match self.get(name).map(Value::resolved).as_deref() {
            Some(Value::Tensor(t)) => Ok(t.clone()),
            other => Err(self.unexpected(name, other)),
        }
    }

    pub fn opt_tensor(&self, name: &str) -> Result<Option<Tensor>> {
        match self.get(name).map(Value::resolved).as_deref() {
            None | Some(Value::None) => Ok(None),
            Some(Value::Tensor(t)) => Ok(Some(t.clone())),
            other => Err(self.unexpected(name, other)),
        }
    }

    /// A tensor, or the Python number standing for one (`t.add(1)`).
    pub fn operand(&self, name: &str) -> Result<Operand> {
        match self.get(name).map(Value::resolved).as_deref() {
            Some(Value::Tensor(t)) => Ok(Operand::Tensor(t.clone())),
            Some(Value::BigInt(_)) => Err(int_too_big()),
            Some(v) => scalar_of(v)
                .map(Operand::Scalar)
                .ok_or_else(|| self.unexpected(name, Some(v))),
            None => Err(self.unexpected(name, None)),
        }
    }

    pub fn int(&self, name: &str) -> Result<i64> {
        match self.get(name) {
            Some(v) => self.int_of(name, v),
            None => self.default_int(name),
        }
    }

    /// An `int?`: None when the call gave none (or None), as PyTorch's `toInt64Optional`.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>> {
        match self.get(name) {
            None | Some(Value::None) => Ok(None),
            Some(v) => self.int_of(name, v).map(Some),
        }
    }

    fn int_of(&self, name: &str, v: &Value) -> Result<i64> {
        match &*v.resolved() {
            Value::Int(i) => Ok(*i),
            Value::BigInt(_) => Err(overflow_long_long()),
            Value::Bool(b) => Ok(i64::from(*b)),
            Value::Tensor(t) if t.numel() == 1 => match t.item()? {
                Scalar::Int(i) => Ok(i),
                Scalar::Bool(b) => Ok(i64::from(b)),
                Scalar::Float(_) => Err(self.unexpected(name, Some(v))),
            },
            other => Err(self.unexpected(name, Some(other))),
        }
    }

    fn default_int(&self, name: &str) -> Result<i64> {
        match self.default(name)? {
            // `atol`, as PyTorch reads an int's default.
            Some(text) => Ok(atol(text)),
            None => Err(internal(format!("{name} has no default"))),
        }
    }

    pub fn float(&self, name: &str) -> Result<f64> {
        match self.get(name).map(Value::resolved).as_deref() {
            Some(Value::Float(x)) => Ok(*x),
            Some(Value::Int(i)) => Ok(*i as f64),
            Some(Value::Bool(b)) => Ok(f64::from(u8::from(*b))),
            Some(Value::Tensor(t)) if t.numel() == 1 => Ok(t.item()?.as_f64()),
            Some(other) if !matches!(other, Value::None) => Err(self.unexpected(name, Some(other))),
            _ => match self.default(name)? {
                Some(text) => Ok(text.parse().unwrap_or(0.0)),
                None => Err(internal(format!("{name} has no default"))),
            },
        }
    }

    pub fn bool(&self, name: &str) -> Result<bool> {
        match self.get(name) {
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::None) | None => Ok(matches!(self.default(name)?, Some("True" | "true"))),
            Some(other) => Err(self.unexpected(name, Some(other))),
        }
    }

    /// A Python truth value (Python-level bindings test their flags with `if flag:`).
    pub fn truthy(&self, name: &str) -> Result<bool> {
        match self.get(name) {
            Some(v) => Ok(v.truthy()),
            None => Ok(matches!(self.default(name)?, Some("True"))),
        }
    }

    pub fn scalar(&self, name: &str) -> Result<Scalar> {
        match self.get(name) {
            Some(Value::BigInt(_)) => Err(int_too_big()),
            Some(v) if !matches!(v, Value::None) => {
                scalar_of(&v.resolved()).ok_or_else(|| self.unexpected(name, Some(v)))
            }
            _ => match self.default(name)? {
                Some(text) if text != "None" => Ok(match text.parse::<i64>() {
                    Ok(i) => Scalar::Int(i),
                    Err(_) => Scalar::Float(text.parse().unwrap_or(0.0)),
                }),
                _ => Err(internal(format!("{name} has no default"))),
            },
        }
    }

    pub fn opt_scalar(&self, name: &str) -> Result<Option<Scalar>> {
        match self.get(name) {
            None | Some(Value::None) => Ok(None),
            Some(_) => self.scalar(name).map(Some),
        }
    }

    /// An int list: a tuple or list, one int where the signature allows it (`int[1]`), the
    /// call's positional ints (`view(2, 3)`), or the default.
    pub fn int_list(&self, name: &str) -> Result<Vec<i64>> {
        match self.opt_int_list(name)? {
            Some(list) => Ok(list),
            None => Err(internal(format!("{name} has no value"))),
        }
    }

    pub fn opt_int_list(&self, name: &str) -> Result<Option<Vec<i64>>> {
        let param = &self.signature().params[self.slot(name)?];
        match self.get(name) {
            None | Some(Value::None) => match param.default {
                None | Some("None") => Ok(None),
                Some(text) => Ok(Some(default_int_list(text, param.size))),
            },
            Some(v) => self.unpack_int_list(param, v).map(Some),
        }
    }

    fn unpack_int_list(&self, param: &Param, v: &Value) -> Result<Vec<i64>> {
        let items = match &*v.resolved() {
            Value::Int(i) => return Ok(vec![*i; param.size.max(1)]),
            Value::BigInt(_) => return Err(overflow_long_long()),
            Value::Tuple(items) => items.to_vec(),
            Value::List(items) => items.borrow().clone(),
            Value::Size(dims) => return Ok(dims.to_vec()),
            other => return Err(self.unexpected(param.name, Some(other))),
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match &*item.resolved() {
                Value::Int(n) => Ok(*n),
                Value::BigInt(_) => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        // PyTorch's first line (a C++ stack trace and the closing quote follow it).
                        "{}(): argument '{}' failed to unpack the object at pos {} with error \"Overflow when unpacking long long",
                        self.signature().name,
                        param.name,
                        i + 1
                    ),
                )),
                Value::Tensor(t) if t.numel() == 1 && !t.dtype().is_floating_point() => {
                    Ok(t.item()?.as_f64() as i64)
                }
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{}(): argument '{}' failed to unpack the object at pos {} with error \"type must be tuple of ints,but got {}\"",
                        self.signature().name,
                        param.name,
                        i + 1,
                        tp_name(other)
                    ),
                )),
            })
            .collect()
    }

    pub fn tensors(&self, name: &str) -> Result<Vec<Tensor>> {
        let items = match self.get(name).map(Value::resolved).as_deref() {
            Some(Value::Tuple(items)) => items.to_vec(),
            Some(Value::List(items)) => items.borrow().clone(),
            other => return Err(self.unexpected(name, other)),
        };
        items
            .iter()
            .map(|v| match &*v.resolved() {
                Value::Tensor(t) => Ok(t.clone()),
                other => Err(self.unexpected(name, Some(other))),
            })
            .collect()
    }

    /// A dtype argument (`torch.float32`, or Python's `float`, `int`, `bool`).
    pub fn dtype(&self, name: &str) -> Result<Option<DType>> {
        match self.get(name) {
            None | Some(Value::None) => match self.default(name)? {
                Some("torch.int64") => Ok(Some(DType::Int64)),
                _ => Ok(None),
            },
            Some(v) => dtype_of(v)
                .map(Some)
                .ok_or_else(|| self.unexpected(name, Some(v))),
        }
    }

    /// A device argument: a string, a `torch.device`, or an int (a CUDA device).
    pub fn device(&self, name: &str) -> Result<Option<Device>> {
        match self.get(name) {
            None | Some(Value::None) => Ok(None),
            Some(Value::Device(d)) => Ok(Some(*d)),
            Some(Value::Str(s)) => Ok(Some(Device::parse(s)?)),
            Some(Value::Int(i)) => Ok(Some(device_index(*i)?)),
            Some(other) => Err(self.unexpected(name, Some(other))),
        }
    }

    pub fn string(&self, name: &str) -> Result<Option<String>> {
        match self.get(name) {
            None | Some(Value::None) => Ok(self.default(name)?.and_then(unquote)),
            Some(Value::Str(s)) => Ok(Some(s.to_string())),
            Some(other) => Err(self.unexpected(name, Some(other))),
        }
    }

    /// The value as given (a Python-level parameter, or `PyObject*`), or its default when that
    /// is a Python literal.
    pub fn value(&self, name: &str) -> Result<Option<Value>> {
        match self.get(name) {
            Some(v) => Ok(Some(v.clone())),
            None if self.gave(name) => Ok(Some(Value::None)),
            None => Ok(self.default(name)?.and_then(literal)),
        }
    }

    /// A handler met a value the parser let through that it cannot use: a bug of the lab's
    /// (the parser checks types), said plainly rather than guessed around.
    fn unexpected(&self, name: &str, got: Option<&Value>) -> PyException {
        match got {
            Some(v) => PyException::new(
                ExcType::TypeError,
                format!(
                    "{}(): argument '{name}' must be {}, not {}",
                    self.signature().name,
                    self.signature()
                        .position(name)
                        .map_or("object", |at| self.signature().params[at].ty.name()),
                    tp_name(v)
                ),
            ),
            None => internal(format!("{}(): '{name}' is missing", self.binding.key)),
        }
    }
}

/// A tensor or a Python number, as binary ops take their other operand.
pub enum Operand {
    Tensor(Tensor),
    Scalar(Scalar),
}

fn internal(message: String) -> PyException {
    PyException::new(
        ExcType::SystemError,
        format!("internal error of the lab's torch bindings: {message}"),
    )
}

/// C's `atol`: the leading integer of `text`, 0 if there is none.
fn atol(text: &str) -> i64 {
    let text = text.trim_start();
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    sign * digits[..end].parse::<i64>().unwrap_or(0)
}

/// An int list's default: `{1,2}`, or one int repeated `size` times.
fn default_int_list(text: &str, size: usize) -> Vec<i64> {
    match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        Some(inner) => inner
            .split(',')
            .filter(|s| !s.is_empty())
            .map(atol)
            .collect(),
        None => vec![atol(text); size],
    }
}

/// A string default without its quotes.
fn unquote(text: &str) -> Option<String> {
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))?;
    Some(inner.to_owned())
}

/// A Python default written as a literal (`None`, `True`, `0.5`, `'mean'`, `(0.9, 0.999)`).
pub fn literal(text: &str) -> Option<Value> {
    Some(match text {
        "None" => Value::None,
        "True" => Value::Bool(true),
        "False" => Value::Bool(false),
        _ if text.starts_with('(') && text.ends_with(')') => {
            let inner = &text[1..text.len() - 1];
            let items: Option<Vec<Value>> = inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(literal)
                .collect();
            Value::Tuple(items?.into())
        }
        _ if text.starts_with('\'') || text.starts_with('"') => Value::str(&unquote(text)?),
        _ => match text.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Float(text.parse().ok()?),
        },
    })
}

/// PyTorch's error for a Python int past 64 bits where it unpacks an `int64_t`
/// (`THPUtils_unpackLong`).
pub fn overflow_long_long() -> PyException {
    PyException::new(ExcType::ValueError, "Overflow when unpacking long long")
}

/// PyTorch's error for a Python int past 64 bits where it takes a `Scalar` (pybind11's
/// conversion of a number to `c10::Scalar`).
pub fn int_too_big() -> PyException {
    PyException::new(ExcType::OverflowError, "int too big to convert")
}

/// A Python number (or a one-element tensor) as the engine's scalar.
pub fn scalar_of(v: &Value) -> Option<Scalar> {
    match v {
        Value::Bool(b) => Some(Scalar::Bool(*b)),
        Value::Int(i) => Some(Scalar::Int(*i)),
        Value::Float(x) => Some(Scalar::Float(*x)),
        Value::Tensor(t) if t.numel() == 1 => t.item().ok(),
        _ => None,
    }
}

/// A dtype: `torch.float32`, or Python's `float`, `int` and `bool` (as PyTorch reads them).
pub fn dtype_of(v: &Value) -> Option<DType> {
    match v {
        Value::DType(d) => Some(*d),
        Value::Type("float") => Some(DType::Float64),
        Value::Type("int") => Some(DType::Int64),
        Value::Type("bool") => Some(DType::Bool),
        _ => None,
    }
}

/// `torch.device(i)` and an int where a device goes: CUDA device `i`. PyTorch keeps a device
/// index in 8 bits, so a larger int wraps (`torch.device(256)` is `cuda:0`), and a negative one
/// is refused.
pub fn device_index(i: i64) -> Result<Device> {
    #[allow(clippy::cast_possible_truncation)]
    let index = i as i8;
    if index < 0 {
        return Err(PyException::new(
            ExcType::RuntimeError,
            "Device index must not be negative",
        ));
    }
    Ok(Device::cuda(index))
}

/// The type's name as C's `tp_name` gives it, which PyTorch's errors print: the qualified name
/// of a built-in type (`torch.dtype`), the plain name of a class (`Linear`, a learner's `Net`).
/// The tensors of a `Tensor[]` argument (at `position`), with the parser's error for another item.
pub fn tensor_items(values: &[Value], position: usize) -> Result<Vec<Tensor>> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| match &*v.resolved() {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "expected Tensor as element {i} in argument {position}, but got {}",
                    tp_name(other)
                ),
            )),
        })
        .collect()
}

pub fn tp_name(v: &Value) -> String {
    match v {
        Value::DType(_) => "torch.dtype".into(),
        Value::Device(_) => "torch.device".into(),
        Value::Size(_) => "torch.Size".into(),
        Value::Generator(_) => "torch._C.Generator".into(),
        Value::Tensor(_) => "Tensor".into(),
        other => other.type_name(),
    }
}

/// Binds `args` (with `receiver`, the object a method is called on) to the first signature of
/// `binding` that takes them, or raises the error PyTorch (or CPython) raises.
pub fn parse(binding: &'static Binding, receiver: Option<&Value>, args: &Args) -> Result<Call> {
    match binding.kind {
        Kind::Native => native(binding, args),
        Kind::NoArgs | Kind::OneArg => c_method(binding, args),
        Kind::Python => python(binding, receiver, args),
    }
}

/// `METH_NOARGS` and `METH_O`: CPython's checks, keywords first.
fn c_method(binding: &'static Binding, args: &Args) -> Result<Call> {
    let signature = &binding.signatures[0];
    let name = signature.name;
    if !args.keywords.is_empty() {
        return Err(type_error(format!("{name}() takes no keyword arguments")));
    }
    let n = args.positional.len();
    let values = match binding.kind {
        Kind::NoArgs if n != 0 => {
            return Err(type_error(format!(
                "{name}() takes no arguments ({n} given)"
            )));
        }
        Kind::OneArg if n != 1 => {
            return Err(type_error(format!(
                "{name}() takes exactly one argument ({n} given)"
            )));
        }
        Kind::OneArg => vec![args.positional.first().cloned()],
        _ => Vec::new(),
    };
    Ok(Call {
        binding,
        receiver: None,
        overload: 0,
        given: (1u64 << values.len()) - 1,
        values,
        rest: Vec::new(),
        extra_keywords: Vec::new(),
        read: Cell::new(0),
        first_positional: None,
    })
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

/// A Python-level binding: each signature (a class's `__new__`, then `__init__`) binds the
/// arguments as CPython would, with `self` (or `cls`) first; the binding of the one with the
/// most parameters is kept (`__new__(cls, orig_func=None)` over `__init__(self)`).
fn python(binding: &'static Binding, receiver: Option<&Value>, args: &Args) -> Result<Call> {
    let mut last = None;
    for (index, signature) in binding.signatures.iter().enumerate() {
        let has_self = signature
            .params
            .first()
            .is_some_and(|p| p.name == "self" || p.name == "cls");
        let mut positional = Vec::with_capacity(args.positional.len() + 1);
        if has_self {
            positional.push(receiver.cloned().unwrap_or(Value::None));
        }
        positional.extend(args.positional.iter().cloned());
        let bound = parameters::bind(
            signature.name,
            &signature.params,
            signature.var_positional.is_some(),
            signature.var_keyword.is_some(),
            positional,
            args.keywords.clone(),
        )?;
        let call = call_from_slots(binding, index, bound, has_self);
        let wider = last
            .as_ref()
            .is_none_or(|kept: &Call| call.values.len() > kept.values.len());
        if wider {
            last = Some(call);
        }
    }
    last.ok_or_else(|| internal(format!("{} has no signature", binding.key)))
}

fn call_from_slots(
    binding: &'static Binding,
    overload: usize,
    bound: Slots,
    has_self: bool,
) -> Call {
    let mut given = 0u64;
    for (i, v) in bound.values.iter().enumerate() {
        if v.is_some() && !(has_self && i == 0) {
            given |= 1u64 << i.min(63);
        }
    }
    Call {
        binding,
        receiver: None,
        overload,
        values: bound.values,
        rest: bound.rest,
        extra_keywords: bound.extra_keywords,
        given,
        // `self` is the receiver, read by whoever called.
        read: Cell::new(u64::from(has_self)),
        first_positional: None,
    }
}

/// PythonArgParser::raw_parse: a lone signature raises its own error; otherwise the first
/// signature that takes the arguments wins, and when none does, `print_error`.
fn native(binding: &'static Binding, args: &Args) -> Result<Call> {
    let signatures = &binding.signatures;
    if let [only] = signatures.as_slice() {
        return match_native(only, args, true).map(|values| native_call(binding, 0, values, args));
    }
    for (index, signature) in signatures.iter().enumerate() {
        if let Ok(values) = match_native(signature, args, false) {
            return Ok(native_call(binding, index, values, args));
        }
    }
    Err(print_error(binding, args))
}

fn native_call(
    binding: &'static Binding,
    overload: usize,
    values: Vec<Option<Value>>,
    args: &Args,
) -> Call {
    let mut given = 0u64;
    for (i, v) in values.iter().enumerate() {
        if v.is_some() {
            given |= 1u64 << i.min(63);
        }
    }
    Call {
        binding,
        receiver: None,
        overload,
        values,
        rest: Vec::new(),
        extra_keywords: Vec::new(),
        given,
        read: Cell::new(0),
        first_positional: args.positional.first().cloned(),
    }
}

/// FunctionSignature::parse. `Err(None)` when the signature does not take the arguments and
/// no error was asked for; `Err(Some(e))` with PyTorch's error otherwise.
fn match_native(
    signature: &Signature,
    args: &Args,
    raise: bool,
) -> std::result::Result<Vec<Option<Value>>, PyException> {
    let fail = |e: PyException| if raise { e } else { quiet() };
    let params = &signature.params;
    let nargs = args.positional.len();
    let mut remaining_kwargs = args.keywords.len();
    // `view(2, 3)` for `view((2, 3))`: a lone positional int list takes every positional int.
    let allow_varargs_intlist = signature.max_pos_args == 1
        && matches!(params[0].ty, Type::IntList | Type::SymIntList)
        && int_list_of_args(&args.positional);
    if nargs > signature.max_pos_args && !allow_varargs_intlist {
        return Err(fail(extra_args(signature, nargs)));
    }
    let mut values = Vec::with_capacity(params.len());
    let mut arg_pos = 0;
    for (i, param) in params.iter().enumerate() {
        let (obj, is_kwd) = if arg_pos < nargs {
            if param.keyword_only {
                return Err(fail(extra_args(signature, nargs)));
            }
            (Some(&args.positional[arg_pos]), false)
        } else {
            let found = std::iter::once(param.name)
                .chain(param.numpy_names().iter().copied())
                .find_map(|n| args.keywords.iter().find(|(k, _)| k == n).map(|(_, v)| v));
            (found, true)
        };
        let varargs_eligible = allow_varargs_intlist && arg_pos == 0 && !is_kwd;
        match obj {
            None if param.optional => values.push(None),
            Some(Value::None) if param.allow_none => values.push(None),
            None => return Err(fail(missing_args(signature, i))),
            Some(v) => match check(param, v) {
                Check::Yes => values.push(Some(v.clone())),
                Check::ListItem(_) | Check::No if varargs_eligible => {
                    // Every positional argument is the list (`permute(1, 2, 0)`).
                    values.push(Some(Value::Tuple(args.positional.clone().into())));
                    arg_pos = nargs;
                    continue;
                }
                Check::Throw(e) => return Err(e),
                failed => {
                    return Err(fail(wrong_type(
                        signature, param, v, is_kwd, arg_pos, failed,
                    )));
                }
            },
        }
        if !is_kwd {
            arg_pos += 1;
        } else if obj.is_some() {
            remaining_kwargs -= 1;
        }
    }
    if remaining_kwargs > 0 {
        return Err(fail(extra_kwargs(signature, args, nargs)));
    }
    Ok(values)
}

/// Stands for "this signature does not fit" when no error is asked for.
fn quiet() -> PyException {
    PyException::new(ExcType::TypeError, String::new())
}

enum Check {
    Yes,
    No,
    /// A list whose item at this index is not what the list holds.
    ListItem(usize),
    /// An error PyTorch raises while checking (a tensor list with a non-tensor).
    Throw(PyException),
}

/// `FunctionParameter::check`: whether `v` can be this parameter.
fn check(param: &Param, v: &Value) -> Check {
    let yes = |b: bool| if b { Check::Yes } else { Check::No };
    let v = &*v.resolved();
    match param.ty {
        Type::Tensor => {
            yes(matches!(v, Value::Tensor(_)) || (param.numbers_as_tensors && is_python_scalar(v)))
        }
        Type::Scalar | Type::Complex | Type::Double => yes(is_python_scalar(v)
            || matches!(v, Value::Tensor(t) if !t.requires_grad() && t.dim() == 0)),
        Type::Int => yes(matches!(v, Value::Int(_) | Value::BigInt(_))
            || matches!(v, Value::Tensor(t) if t.dim() == 0 && is_integral(t) && !t.requires_grad())),
        Type::SymInt => yes(is_index(v)),
        Type::IntList | Type::SymIntList => match v {
            Value::Tuple(items) => int_list_items(items),
            Value::Size(_) => Check::Yes,
            Value::List(items) => int_list_items(&items.borrow()),
            _ if param.size > 0 => yes(if param.ty == Type::IntList {
                matches!(v, Value::Int(_) | Value::BigInt(_))
            } else {
                is_index(v)
            }),
            _ => Check::No,
        },
        Type::FloatList => match v {
            Value::Tuple(_) | Value::List(_) => {
                let first = match v {
                    Value::Tuple(items) => items.first().cloned(),
                    Value::List(items) => items.borrow().first().cloned(),
                    _ => None,
                };
                yes(first
                    .is_none_or(|f| matches!(f, Value::Float(_) | Value::Int(_) | Value::Bool(_))))
            }
            _ => Check::No,
        },
        Type::TensorList => {
            let items = match v {
                Value::Tuple(items) => items.to_vec(),
                Value::List(items) => items.borrow().clone(),
                _ => return Check::No,
            };
            for (i, item) in items.iter().enumerate() {
                if !matches!(&*item.resolved(), Value::Tensor(_)) {
                    return Check::Throw(type_error(format!(
                        "expected Tensor as element {i} in argument 0, but got {}",
                        tp_name(item)
                    )));
                }
            }
            Check::Yes
        }
        Type::ScalarList => {
            let items = match v {
                Value::Tuple(items) => items.to_vec(),
                Value::List(items) => items.borrow().clone(),
                _ => return Check::No,
            };
            yes(items.iter().all(is_python_scalar))
        }
        Type::Generator => yes(matches!(v, Value::Generator(_))),
        Type::Bool => yes(matches!(v, Value::Bool(_))),
        Type::Object | Type::Any => Check::Yes,
        Type::Dtype => yes(dtype_of(v).is_some()),
        Type::Device => yes(matches!(
            v,
            Value::Int(_) | Value::Str(_) | Value::Device(_)
        )),
        Type::String => yes(matches!(v, Value::Str(_))),
        Type::Dimname => yes(matches!(v, Value::None | Value::Str(_))),
        Type::DimnameList => match v {
            Value::Tuple(items) => yes(items
                .iter()
                .all(|i| matches!(i, Value::None | Value::Str(_)))),
            Value::List(items) => yes(items
                .borrow()
                .iter()
                .all(|i| matches!(i, Value::None | Value::Str(_)))),
            _ => yes(param.size == 1 && matches!(v, Value::None | Value::Str(_))),
        },
        // The lab has no layouts, memory formats, storages, streams or qschemes to pass.
        Type::Layout
        | Type::MemoryFormat
        | Type::Storage
        | Type::Stream
        | Type::QScheme
        | Type::DispatchKeySet => Check::No,
    }
}

fn int_list_items(items: &[Value]) -> Check {
    match items.first() {
        None => Check::Yes,
        Some(first) if is_index(first) => Check::Yes,
        Some(_) => Check::ListItem(0),
    }
}

/// Whether the call's positional arguments can be one int list (`is_int_or_symint_list` of
/// the argument tuple): none, or a first one that is an index.
fn int_list_of_args(positional: &[Value]) -> bool {
    positional.first().is_none_or(is_index)
}

/// `THPUtils_checkScalar`: a Python number (bools are ints).
fn is_python_scalar(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_)
    )
}

/// `THPUtils_checkIndex`: an int (not a bool), or an object with `__index__` (an integer
/// tensor of one element).
fn is_index(v: &Value) -> bool {
    match v {
        Value::Int(_) | Value::BigInt(_) => true,
        Value::Tensor(t) => t.numel() == 1 && is_integral(t),
        Value::Parameter(p) => {
            let t = p.tensor();
            t.numel() == 1 && is_integral(&t)
        }
        _ => false,
    }
}

fn is_integral(t: &Tensor) -> bool {
    !t.dtype().is_floating_point() && t.dtype() != DType::Bool
}

/// `foo() takes 2 positional arguments but 3 were given`.
fn extra_args(signature: &Signature, nargs: usize) -> PyException {
    let (min, max) = (signature.min_args, signature.max_pos_args);
    type_error(if min != max {
        format!(
            "{}() takes from {min} to {max} positional arguments but {nargs} were given",
            signature.name
        )
    } else {
        format!(
            "{}() takes {max} positional argument{} but {nargs} {} given",
            signature.name,
            if max == 1 { "" } else { "s" },
            if nargs == 1 { "was" } else { "were" }
        )
    })
}

/// `foo() missing 1 required positional arguments: "b"` (PyTorch's plural is the other way
/// round: it says "arguments" for one).
fn missing_args(signature: &Signature, from: usize) -> PyException {
    let missing: Vec<String> = signature.params[from..]
        .iter()
        .filter(|p| !p.optional)
        .map(|p| format!("\"{}\"", p.name))
        .collect();
    type_error(format!(
        "{}() missing {} required positional argument{}: {}",
        signature.name,
        missing.len(),
        if missing.len() == 1 { "s" } else { "" },
        missing.join(", ")
    ))
}

fn wrong_type(
    signature: &Signature,
    param: &Param,
    v: &Value,
    is_kwd: bool,
    arg_pos: usize,
    failed: Check,
) -> PyException {
    if is_kwd {
        return type_error(format!(
            "{}(): argument '{}' must be {}, not {}",
            signature.name,
            param.name,
            param.ty.name(),
            tp_name(v)
        ));
    }
    if let Check::ListItem(at) = failed {
        let item = match v {
            Value::Tuple(items) => items.get(at).cloned(),
            Value::List(items) => items.borrow().get(at).cloned(),
            _ => None,
        };
        return type_error(format!(
            "{}(): argument '{}' (position {}) must be {}, but found element of type {} at pos {at}",
            signature.name,
            param.name,
            arg_pos + 1,
            param.ty.name(),
            item.as_ref().map_or("object".into(), tp_name)
        ));
    }
    type_error(format!(
        "{}(): argument '{}' (position {}) must be {}, not {}",
        signature.name,
        param.name,
        arg_pos + 1,
        param.ty.name(),
        tp_name(v)
    ))
}

/// `foo() got an unexpected keyword argument 'b'`, or `got multiple values for argument 'a'`
/// (keywords are looked up by their own names here, not NumPy's).
fn extra_kwargs(signature: &Signature, args: &Args, nargs: usize) -> PyException {
    for (key, _) in &args.keywords {
        match signature.position(key) {
            None => {
                return type_error(format!(
                    "{}() got an unexpected keyword argument '{key}'",
                    signature.name
                ));
            }
            Some(at) if at < nargs => {
                return type_error(format!(
                    "{}() got multiple values for argument '{key}'",
                    signature.name
                ));
            }
            Some(_) => {}
        }
    }
    type_error("invalid keyword arguments".into())
}

/// PythonArgParser::print_error: the one plausible signature's own error, or the list of
/// every signature (`format_invalid_args`).
fn print_error(binding: &Binding, args: &Args) -> PyException {
    let num_args = args.positional.len() + args.keywords.len();
    let plausible: Vec<&Signature> = binding
        .signatures
        .iter()
        .filter(|s| !s.hidden && num_args >= s.min_args && num_args <= s.max_args)
        .collect();
    if let [only] = plausible.as_slice()
        && let Err(e) = match_native(only, args, true)
    {
        return e;
    }
    let options: Vec<String> = binding
        .signatures
        .iter()
        .filter(|s| !s.hidden)
        .map(Signature::display)
        .collect();
    let name = binding.signatures.first().map_or("", |s| s.name);
    type_error(super::invalid::format_invalid_args(
        &args.positional,
        &args.keywords,
        &format!("{name}()"),
        &options,
    ))
}
