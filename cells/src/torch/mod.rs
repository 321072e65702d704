//! The torch bindings: what `torch`, `torch.Tensor`, `torch.nn`, `torch.optim`,
//! `torch.cuda`, `torch.utils.data`, `torch.amp` and `torch.distributed` do in a cell.
//!
//! Every binding is declared once, by its PyTorch signature, in the generated table
//! ([`signature`]); a call is bound to it by the one argument parser ([`parse`]), then run by
//! its handler, found by its key in [`HANDLERS`]. A binding in the table without a handler, or a
//! handler without a binding, fails the tests.

pub mod amp;
pub mod autograd;
pub mod convert;
pub mod cuda;
pub mod data;
pub mod distributed;
pub mod dtypes;
pub mod factories;
pub mod function;
pub mod indexing;
mod invalid;
pub mod legacy;
pub mod linalg;
pub mod nn;
pub mod ops;
pub mod optim;
pub mod parse;
pub mod pointwise;
pub mod products;
pub mod random;
pub mod reductions;
pub mod search;
pub mod serialization;
pub mod shape;
pub mod signature;
pub mod size;
pub mod sorting;
pub mod state;
pub mod tensor;

use tolab_engine::Session;

pub use parse::{Call, Operand};
use signature::Binding;

use crate::python::args::{Args, Eval, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// How a binding runs.
#[derive(Clone, Copy)]
pub enum Handler {
    /// On the engine alone. In the browser it runs again when it had to wait for a GPU
    /// readback, so it must read before it writes.
    Engine(fn(&Call, &Session) -> Result<Value>),
    /// With the interpreter: it calls learners' code, awaits, or keeps notebook state.
    Interpreter(for<'a> fn(&'a mut Interpreter, Call) -> Eval<'a, Value>),
}

/// Every handler, by the key of its binding in the table.
fn handlers() -> impl Iterator<Item = &'static (&'static str, Handler)> {
    [
        factories::HANDLERS,
        autograd::HANDLERS,
        ops::HANDLERS,
        reductions::HANDLERS,
        linalg::HANDLERS,
        sorting::HANDLERS,
        search::HANDLERS,
        dtypes::HANDLERS,
        legacy::HANDLERS,
        pointwise::HANDLERS,
        products::HANDLERS,
        shape::HANDLERS,
        indexing::HANDLERS,
        tensor::HANDLERS,
        nn::HANDLERS,
        nn::functional::HANDLERS,
        nn::init::HANDLERS,
        optim::HANDLERS,
        cuda::HANDLERS,
        data::HANDLERS,
        distributed::HANDLERS,
        amp::HANDLERS,
        serialization::HANDLERS,
        state::HANDLERS,
        random::HANDLERS,
    ]
    .into_iter()
    .flatten()
}

/// The handler of `binding`.
pub fn handler(binding: &Binding) -> Option<Handler> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static BY_KEY: OnceLock<HashMap<&'static str, Handler>> = OnceLock::new();
    BY_KEY
        .get_or_init(|| handlers().map(|(k, h)| (*k, *h)).collect())
        .get(binding.key)
        .copied()
}

/// `namespace.name` as a value, when the table has it: a function, a method bound to
/// `receiver`, or a class.
pub fn bound(namespace: &str, name: &str, receiver: Option<&Value>) -> Option<Value> {
    let binding = signature::binding(namespace, name)?;
    Some(match receiver {
        Some(owner) => Value::TorchMethod(Box::new(owner.clone()), binding),
        None => Value::TorchFn(binding),
    })
}

/// The torch modules a cell can import.
pub const NAMESPACES: &[&str] = &[
    "torch",
    "torch.cuda",
    "torch.cuda.amp",
    "torch.accelerator",
    "torch.random",
    "torch.linalg",
    "torch.autograd",
    "torch.autograd.functional",
    "torch.amp",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.parallel",
    "torch.optim",
    "torch.utils",
    "torch.utils.data",
    "torch.utils.data.distributed",
    "torch.distributed",
    "torch.multiprocessing",
    "torch.backends",
    "torch.backends.cudnn",
    "torch.backends.cuda",
    "torch.backends.cuda.matmul",
    "torch.backends.mps",
];

/// The dtypes `torch` names.
const DTYPES: &[(&str, tolab_engine::DType)] = {
    use tolab_engine::DType;
    &[
        ("float32", DType::Float32),
        ("float", DType::Float32),
        ("float64", DType::Float64),
        ("double", DType::Float64),
        ("float16", DType::Float16),
        ("half", DType::Float16),
        ("bfloat16", DType::BFloat16),
        ("int64", DType::Int64),
        ("long", DType::Int64),
        ("int32", DType::Int32),
        ("int", DType::Int32),
        ("int16", DType::Int16),
        ("short", DType::Int16),
        ("int8", DType::Int8),
        ("uint8", DType::UInt8),
        ("bool", DType::Bool),
    ]
};

/// The switches of `torch.backends` a learner may set, with their defaults. They are kept and
/// read back; the lab has no cuDNN or TF32 kernels for them to change.
const BACKEND_FLAGS: &[(&str, &str, bool)] = &[
    ("torch.backends.cudnn", "benchmark", false),
    ("torch.backends.cudnn", "deterministic", false),
    ("torch.backends.cudnn", "enabled", true),
    ("torch.backends.cudnn", "allow_tf32", true),
    ("torch.backends.cuda.matmul", "allow_tf32", false),
];

/// A backend switch's default value, if `module.name` is one.
pub fn backend_flag(module: &str, name: &str) -> Option<Value> {
    BACKEND_FLAGS
        .iter()
        .find(|(m, n, _)| *m == module && *n == name)
        .map(|(_, _, default)| Value::Bool(*default))
}

/// The names of a torch module that are not bindings: its submodules, dtypes, types and
/// constants (completion and `dir()` list them with the bindings).
fn other_names(namespace: &str) -> Vec<&'static str> {
    let submodules = NAMESPACES.iter().filter_map(|m| {
        let rest = m.strip_prefix(namespace)?.strip_prefix('.')?;
        (!rest.contains('.')).then_some(rest)
    });
    let mut names: Vec<&'static str> = submodules.collect();
    names.extend(
        BACKEND_FLAGS
            .iter()
            .filter(|(m, _, _)| *m == namespace)
            .map(|(_, n, _)| *n),
    );
    names.extend(legacy::TensorType::names(namespace));
    match namespace {
        "torch" => {
            names.extend(DTYPES.iter().map(|(n, _)| *n));
            names.extend(["Tensor", "Size", "__version__", "default_generator"]);
        }
        "torch.random" => names.push("default_generator"),
        "torch.autograd" => names.extend(["Function", "Variable"]),
        "torch.utils.data" => names.push("Dataset"),
        "torch.utils.data.distributed" => names.push("DistributedSampler"),
        "torch.distributed" => names.push("ReduceOp"),
        _ => {}
    }
    names
}

/// Every name of a torch module, sorted (for `dir()` and completion).
pub fn module_names(namespace: &str) -> Vec<&'static str> {
    let mut names = other_names(namespace);
    names.extend(names_in(namespace));
    names.sort_unstable();
    names.dedup();
    names
}

/// `namespace.name` of a torch module, if the lab has it.
pub fn module_attribute(namespace: &'static str, name: &str) -> Option<Value> {
    if let Some(sub) = NAMESPACES
        .iter()
        .find(|m| m.strip_prefix(namespace).and_then(|r| r.strip_prefix('.')) == Some(name))
    {
        return Some(Value::Module(sub));
    }
    if let Some(flag) = backend_flag(namespace, name) {
        return Some(flag);
    }
    match (namespace, name) {
        ("torch", "Tensor") => return Some(Value::Type("torch.Tensor")),
        ("torch", "Size") => return Some(Value::Type("torch.Size")),
        // The PyTorch whose behaviour the lab reproduces (its golden files come from it).
        ("torch", "__version__") => return Some(Value::str("2.15.0")),
        ("torch.autograd", "Function") => return Some(Value::Type(function::FUNCTION)),
        ("torch.autograd", "Variable") => return Some(Value::Type(autograd::VARIABLE)),
        ("torch" | "torch.random", "default_generator") => {
            return Some(Value::Generator(
                tolab_engine::random::GeneratorHandle::Default,
            ));
        }
        ("torch", _) if let Some((_, dtype)) = DTYPES.iter().find(|(n, _)| *n == name) => {
            return Some(Value::DType(*dtype));
        }
        ("torch" | "torch.cuda", _)
            if let Some(t) = legacy::TensorType::lookup(namespace, name) =>
        {
            return Some(Value::TensorType(t));
        }
        ("torch.utils.data", "Dataset") => return Some(Value::Type("torch.utils.data.Dataset")),
        ("torch.utils.data.distributed", "DistributedSampler") => {
            return bound("torch.utils.data", name, None);
        }
        ("torch.nn", "DataParallel") => return bound("torch.nn.parallel", name, None),
        ("torch.distributed", "ReduceOp") => {
            return Some(Value::Module("torch.distributed.ReduceOp"));
        }
        ("torch.distributed.ReduceOp", _) => {
            return distributed::REDUCE_OPS
                .contains(&name)
                .then(|| Value::str(&format!("ReduceOp.{name}")));
        }
        _ => {}
    }
    let binding = signature::binding(namespace, name)?;
    if namespace == "torch.nn" && binding.class.is_some() {
        return Some(Value::NnClass(binding.name()));
    }
    Some(Value::TorchFn(binding))
}

/// The names the table binds in `namespace` (for `dir()` and completion).
pub fn names_in(namespace: &str) -> Vec<&'static str> {
    signature::table()
        .names_in(namespace)
        .map(Binding::name)
        .collect()
}

/// The error for `owner.name` that the lab does not have: PyTorch's "no attribute" for a name
/// PyTorch does not have either, and a plain note for one it has that the lab does not yet.
pub fn no_attribute(namespace: &str, owner: &str, name: &str) -> PyException {
    let message = if signature::pytorch_has(namespace, name) {
        format!(
            "{owner} has no attribute '{name}' in the lab yet ({namespace}.{name} is in PyTorch 2.15; the lab binds {} of {namespace}'s names so far)",
            names_in(namespace).len()
        )
    } else {
        format!("{owner} has no attribute '{name}'")
    };
    PyException::new(ExcType::AttributeError, message)
}

impl Interpreter {
    /// Calls a torch binding: its arguments bound by the parser, then its handler.
    pub(crate) async fn call_torch(
        &mut self,
        binding: &'static Binding,
        receiver: Option<Value>,
        args: Args,
    ) -> std::result::Result<Value, Flow> {
        let handler = handler(binding).ok_or_else(|| {
            PyException::new(
                ExcType::NotImplementedError,
                format!(
                    "{} is in the lab's table but has no implementation",
                    binding.key
                ),
            )
        })?;
        // An iterable object of the learner's (`itertools.chain(a.parameters(), …)`) is read
        // whole, as PyTorch's `list(params)` reads it.
        let mut args = args;
        for arg in args
            .positional
            .iter_mut()
            .chain(args.keywords.iter_mut().map(|(_, v)| v))
        {
            if let Value::Instance(i) = &*arg
                && i.module.is_none()
                && i.class.lookup("__iter__").is_some()
            {
                let items = self.collect(arg).await?;
                *arg = Value::list(items);
            }
        }
        let call = parse::parse(binding, receiver.as_ref(), &args)?.with_receiver(receiver);
        match handler {
            Handler::Engine(run) => {
                let session = self.session.clone();
                let value = self.engine_call(|_| Ok(run(&call, &session)?)).await?;
                call.finish()?;
                Ok(value)
            }
            Handler::Interpreter(run) => run(self, call).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_has_a_handler_and_every_handler_a_binding() {
        let table = signature::table();
        let missing: Vec<&str> = table
            .all()
            .filter(|b| handler(b).is_none())
            .map(|b| b.key)
            .collect();
        assert!(
            missing.is_empty(),
            "bindings without a handler: {missing:?}"
        );
        let stray: Vec<&str> = handlers()
            .map(|(k, _)| *k)
            .filter(|k| table.get(k).is_none())
            .collect();
        assert!(stray.is_empty(), "handlers without a binding: {stray:?}");
    }
}
