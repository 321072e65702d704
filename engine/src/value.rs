//! The Python objects the engine passes to and from the cell runtime around tensors: what
//! `torch.save` writes, what a dataset returns and what a DataLoader batches.

use serde::{Deserialize, Serialize};

use crate::tensor::Tensor;

#[derive(Debug, Clone)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Tensor(Tensor),
    List(Vec<Value>),
    Tuple(Vec<Value>),
    /// A dict (or OrderedDict, as `state_dict()` returns) in insertion order.
    Dict(Vec<(Key, Value)>),
    /// A whole `nn.Module` (`torch.save(model, path)`).
    Module(crate::nn::Module),
}

/// A dict key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Key {
    Str(String),
    Int(i64),
}

impl Value {
    /// Python's `type(x).__name__`, for messages.
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "NoneType".into(),
            Value::Bool(_) => "bool".into(),
            Value::Int(_) => "int".into(),
            Value::Float(_) => "float".into(),
            Value::Str(_) => "str".into(),
            Value::Tensor(_) => "Tensor".into(),
            Value::List(_) => "list".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::Dict(_) => "dict".into(),
            Value::Module(m) => m.class_name(),
        }
    }
}
