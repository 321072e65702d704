//! The importable modules: `import torch`, `import torch.nn as nn`, `from torch import optim`,
//! `import math`. A module's names come from the torch bindings ([`crate::torch`]) or the
//! standard library ([`crate::stdlib`]); an import outside them says what the lab has.

use super::exception::{ExcType, PyException};
use super::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// Every module a cell can import, torch's then the standard library's.
fn modules() -> impl Iterator<Item = &'static str> {
    crate::torch::NAMESPACES
        .iter()
        .chain(crate::stdlib::MODULES)
        .copied()
}

/// `import name`.
pub fn import(name: &str) -> Result<Value> {
    modules()
        .find(|m| *m == name)
        .map(Value::Module)
        .ok_or_else(|| {
            PyException::new(
                ExcType::ModuleNotFoundError,
                format!(
                    "No module named '{name}' in the lab (it has {})",
                    modules().collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

/// `from module import name`.
pub fn import_from(module: &str, name: &str) -> Result<Value> {
    let Value::Module(m) = import(module)? else {
        return Err(PyException::new(ExcType::ImportError, "not a module"));
    };
    if let Ok(sub) = import(&format!("{module}.{name}")) {
        return Ok(sub);
    }
    attribute(m, name).ok_or_else(|| {
        PyException::new(
            ExcType::ImportError,
            format!("cannot import name '{name}' from '{module}'"),
        )
    })
}

/// `module.name`, if the module has it.
pub fn attribute(module: &'static str, name: &str) -> Option<Value> {
    if module == "torch" || module.starts_with("torch.") {
        crate::torch::module_attribute(module, name)
    } else {
        crate::stdlib::attribute(module, name)
    }
}

/// The names `module` has, sorted.
pub fn names(module: &'static str) -> Vec<&'static str> {
    if module == "torch" || module.starts_with("torch.") {
        crate::torch::module_names(module)
    } else {
        let mut names = crate::stdlib::names(module);
        names.sort_unstable();
        names
    }
}

/// The members `module` has, by name, for completion (a module's members are plain values:
/// reading them runs nothing).
pub fn members(module: &'static str) -> Vec<(String, Value)> {
    names(module)
        .into_iter()
        .filter_map(|name| Some((name.to_owned(), attribute(module, name)?)))
        .collect()
}

/// The error for `module.name` the module does not have.
pub fn no_attribute(module: &str, name: &str) -> PyException {
    if module == "torch" || module.starts_with("torch.") {
        crate::torch::no_attribute(module, &format!("module '{module}'"), name)
    } else if module == "numpy" || module.starts_with("numpy.") {
        crate::stdlib::numpy::no_attribute(module, name)
    } else {
        PyException::new(
            ExcType::AttributeError,
            format!("module '{module}' has no attribute '{name}'"),
        )
    }
}
